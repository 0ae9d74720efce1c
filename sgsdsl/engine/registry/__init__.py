"""The one vocabulary: every timing, action, function, attribute, value and constant .sgs can name.

Declared once here (split by kind over this package's modules). The checker's tables, the interpreter,
the compiler, the reference docs and the Hypothesis strategies all read it; adding a primitive means
adding it here and nowhere else. The modules register in a fixed order, so every table's order is stable.
"""

import importlib

from ...native import activate as _activate

_activate(__path__, "engine/registry")  # before any of this package's modules is imported: see sgsdsl/native.py

from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401, E402 - re-exported for generated code
from .core import (  # noqa: F401, E402 - the public tables
    AI_HINTS,
    AMOUNT_EFFECTS,
    ATTRIBUTES,
    CANCEL_EFFECTS,
    CANCEL_EFFECTS_BY_FAMILY,
    CARD_CATEGORIES,
    CARD_HOOKS,
    CONSTANTS,
    DIRECTIONS,
    ENGINE_VALUES,
    FIELD_EFFECTS,
    FIELD_EFFECTS_BY_FAMILY,
    LIMIT_SCOPES,
    MARK_SCOPES,
    OTHER_PARTY_FIELDS,
    PARAM_EFFECTS,
    PARAM_EFFECTS_BY_FAMILY,
    PARAM_EFFECTS_BY_VALUE,
    PARAM_EFFECTS_WITH_OWNER,
    PRIMITIVES,
    SCOPE_NAMES,
    SCOPE_PLACES,
    SKILL_FLAGS,
    SLIGHT_EFFECTS,
    SUBJECT_FIELDS,
    SUIT_NAMES,
    TIMINGS,
    USE_CONTEXTS,
    VALUE_CLASSES,
    VALUE_EFFECTS,
    VIEW_CATEGORIES,
    VIEW_SOURCES,
    EngineValue,
    Param,
    Primitive,
    Timing,
    _cards,
    _g,
    _holder,
    _need,
    _params,
    all_fields,
    card_tests,
    engine_value,
    event_fields,
    primitive,
    timing,
    writable_fields,
)

# Importing a module registers its vocabulary; this order is the order of every table (and of `sgsdsl vocab`).
for _module in ("timings", "actions", "setup", "requests", "functions", "league", "mechanics"):
    importlib.import_module(f"{__name__}.{_module}")

from .functions import event_new  # noqa: E402, F401
