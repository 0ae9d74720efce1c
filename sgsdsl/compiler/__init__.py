"""The compiler: checked .sgs programs to Python modules (see `codegen.py`), cached or in `generated/`."""

from ..lang.codes import CODES as _ALL_CODES

# Bump when generated code changes shape, so caches and `generated/` are rebuilt.
GENERATOR_VERSION = "3"  # 2: `rule` definitions (Rule_ classes, Program.rules); 3: mode turn_order, replace, score

# Diagnostic codes the compiler adds to the front end's; the one table of codes is sgsdsl/lang/codes.py.
CODES: dict[str, str] = {code: text for code, text in _ALL_CODES.items() if code.startswith("SGS-E5")}
