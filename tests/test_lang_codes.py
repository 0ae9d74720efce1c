"""Every code the front end emits has a one-line title in sgsdsl/lang/codes.py, and a file in tests/bad/."""

from __future__ import annotations

import re
from pathlib import Path

from sgsdsl.lang.codes import CODES, title

ROOT = Path(__file__).resolve().parent.parent
FRONT_END = [*sorted((ROOT / "sgsdsl" / "lang").glob("*.py")), ROOT / "sgsdsl" / "cli" / "check_cmd.py",
             ROOT / "sgsdsl" / "api.py", *sorted((ROOT / "sgsdsl" / "compiler").glob("*.py"))]
# Codes no .sgs text can produce; each has a dedicated test elsewhere.
NOT_FROM_A_FILE = {
    "SGS-E000": "internal error guard (test_lang_cli.py::test_internal_error_is_a_diagnostic)",
    "SGS-E100": "a path given on the command line (test_lang_robustness.py)",
    "SGS-E106": "a file over the size limit (test_lang_robustness.py::test_huge_file)",
    "SGS-E501": "a compiler code (test_compiler_hostile.py, test_explain.py)",
    "SGS-E503": "a compiler bug guard (test_explain.py shows the text)",
}


def emitted_codes() -> set[str]:
    """Every code written anywhere in sgsdsl's sources: any command may print it."""
    found: set[str] = set()
    for path in sorted((ROOT / "sgsdsl").rglob("*.py")):
        found.update(re.findall(r"\b(?:SGS|SCN)-[EW]\d{3}(?!\d)", path.read_text(encoding="utf-8")))
    return found


def test_every_code_any_command_emits_is_explained() -> None:
    """One table: each code in the sources has a title (codes.py) and an explanation (`sgsdsl explain`)."""
    from sgsdsl.lang.explain import explanations

    assert {c for c in emitted_codes() if c.startswith("SCN-")}, "the scenario codes were not found"
    missing = sorted(emitted_codes() - set(explanations()))
    assert not missing, f"codes emitted but not explained in sgsdsl/lang/codes.md: {missing}"


def test_every_emitted_code_has_a_title() -> None:
    missing = emitted_codes() - set(CODES)
    assert not missing, f"codes emitted but not listed in sgsdsl/lang/codes.py: {sorted(missing)}"


def test_every_listed_code_is_emitted() -> None:
    stale = set(CODES) - emitted_codes()
    assert not stale, f"codes listed but never emitted: {sorted(stale)}"


def test_titles_are_one_line() -> None:
    for code, text in CODES.items():
        assert re.fullmatch(r"(SGS|SCN)-[EW]\d{3}", code)
        assert text and "\n" not in text and len(text) < 120, code
    assert title("SGS-X999") == "unlisted diagnostic"


def test_every_code_has_a_bad_file() -> None:
    bad = {p.name.split("_", 1)[0] for p in (ROOT / "tests" / "bad").glob("*.sgs")}
    for code in CODES:
        if code in NOT_FROM_A_FILE or code.startswith("SCN-"):  # scenario codes: test_explain.py runs each
            continue
        assert code.removeprefix("SGS-") in bad, f"no tests/bad/ file for {code}"
