"""The compiler: checked .sgs programs to Python modules (see `codegen.py`), cached or in `generated/`."""

# Bump when generated code changes shape, so caches and `generated/` are rebuilt.
GENERATOR_VERSION = "3"  # 2: `rule` definitions (Rule_ classes, Program.rules); 3: mode turn_order, replace, score

# Diagnostic codes the compiler adds to the front end's (sgsdsl/lang/codes.py owns E1xx-E3xx, W4xx).
CODES: dict[str, str] = {
    "SGS-E501": "two names become the same Python name in generated code (rename one)",
    "SGS-E503": "the compiler cannot express this construct (a bug in sgsdsl: please report it)",
}
