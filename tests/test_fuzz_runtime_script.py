"""The opt-in runtime fuzz campaign (scripts/fuzz_runtime.py) keeps working: a few inputs, played on both
engines, end by the rules or with located rule errors only."""

from __future__ import annotations

import importlib.util

from helpers import ROOT


def test_a_short_runtime_fuzz_campaign_passes(capsys) -> None:
    spec = importlib.util.spec_from_file_location("fuzz_runtime", ROOT / "scripts" / "fuzz_runtime.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--inputs", "6", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "6 inputs in" in out and "0 failed" in out
