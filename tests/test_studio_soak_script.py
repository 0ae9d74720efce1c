"""scripts/studio_soak.py runs: a few seconds of watched games against a served studio, memory sampled."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_studio_soak_script_smoke() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "studio_soak.py"), "--minutes", "0.1", "--every", "1",
                        "--warmup", "0", "--players", "4", "--rules", "standard", "--opponents", "random",
                        "--max-growth", "10"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 stopped on errors" in r.stdout and "updates read" in r.stdout
    assert "Traceback" not in r.stderr and "Exception in ASGI" not in r.stderr and not r.stderr.strip(), r.stderr
    games = int(r.stdout.split("played ")[1].split()[0])
    assert games >= 1
