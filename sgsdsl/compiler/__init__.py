"""The compiler: checked .sgs programs to Python modules (see `codegen.py`), cached or in `generated/`."""

from ..lang.codes import CODES as _ALL_CODES

# Bump when generated code changes shape, so caches and `generated/` are rebuilt.
# 2: `rule` definitions (Rule_ classes, Program.rules); 3: mode turn_order, replace, score;
# 4: sandboxed runtime (field allow-list, number range, step budget); 5: proven calls skip argument checks;
# 6: a module links to the compiled modules of the files it imports instead of holding their code
GENERATOR_VERSION = "6"

# Diagnostic codes the compiler adds to the front end's; the one table of codes is sgsdsl/lang/codes.py.
CODES: dict[str, str] = {code: text for code, text in _ALL_CODES.items() if code.startswith("SGS-E5")}
