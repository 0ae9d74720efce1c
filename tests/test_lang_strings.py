"""String literals decode in one pass: an escaped backslash never starts another escape."""

from __future__ import annotations

import pytest

from sgsdsl.lang.parser import parse_text


@pytest.mark.parametrize("source, value", [
    (r'"plain"', "plain"),
    (r'"a\nb"', "a\nb"),
    (r'"a\\nb"', "a\\nb"),
    (r'"say \"hi\""', 'say "hi"'),
    (r'"end\\"', "end\\"),
])
def test_string_escapes(source: str, value: str) -> None:
    module, diags = parse_text(f"value v() = {source}\n", "s.sgs")
    assert not diags and module is not None
    assert module.values[0].expr.value == value
