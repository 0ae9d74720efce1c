"""scripts/why_list.py replays issue 9's attacks against a checkout; on this one, the items it runs are fixed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import ROOT


def test_why_list_finds_this_checkout_fixed(tmp_path: Path) -> None:
    items = ["huge-literal", "win", "compile-deletes"]
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "why_list.py"), str(ROOT), "--only", *items,
                        "--work", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "3 fixed, 0 vulnerable of 3 item(s)" in p.stdout and p.stdout.count("=> fixed") == 3


def test_why_list_finds_issue_31_items_fixed_here(tmp_path: Path) -> None:
    items = ["cache-rename", "native-manifest", "compare-nan", "agent-control-flow", "option-default", "ctrl-c"]
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "why_list.py"), str(ROOT), "--only", *items,
                        "--work", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "6 fixed, 0 vulnerable of 6 item(s)" in p.stdout
