"""The opt-in runtime fuzz campaign (scripts/fuzz_runtime.py) keeps working: a few inputs, played on both
engines, end by the rules or with located rule errors only."""

from __future__ import annotations

import functools
import random

from helpers import ROOT, load_script


def _fuzz_module():
    """scripts/fuzz_runtime.py as a module (scripts/ is not a package)."""
    return load_script("scripts/fuzz_runtime.py", "fuzz_runtime")


@functools.cache
def _inputs() -> tuple[str, ...]:
    """The first 200 inputs of --seed 5 (made once for the tests that read them)."""
    mod = _fuzz_module()
    rng = random.Random(5)
    return tuple(mod.make_input(rng, n) for n in range(200))


def test_a_short_runtime_fuzz_campaign_passes(capsys) -> None:
    mod = _fuzz_module()
    assert mod.main(["--inputs", "6", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "6 inputs in" in out and "0 failed" in out


def test_the_same_seed_makes_the_same_inputs_whatever_the_hash_seed() -> None:
    """'The same --seed and --inputs regenerate it' holds in a new process too (no set order in the inputs)."""
    import os
    import subprocess
    import sys

    script = ("import hashlib, random, sys; sys.path.insert(0, 'scripts'); import fuzz_runtime as f; "
              "rng = random.Random(5); "
              "print(hashlib.sha256(''.join(f.make_input(rng, n) for n in range(60)).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed, "SGSDSL_NATIVE": "0"}).stdout
               for seed in ("1", "2", "3")}
    assert len(digests) == 1, digests


def test_the_inputs_modify_what_cards_count_as() -> None:
    """Some generated skills make cards count as another suit, colour or name (the used-as paths get played)."""
    texts = _inputs()
    for value in ("card_name", "card_suit", "card_color", "distance"):
        assert any(f"modify {value}(" in t for t in texts), value


def test_the_inputs_define_cards_across_the_effect_proofs_boundaries() -> None:
    """Generated cards reach every case the compiler's effect proofs tell apart (interp.build.card_effect_bound):
    a delayed trick (judged with no user), a targetless clause (no target), a recast (no use), clauses with an
    effect of their own and a shared effect reading user, target and use."""
    texts = _inputs()
    cards = [t for t in texts if "card 卡" in t]
    assert len(cards) > 50
    for needle in (": delayed {", "target none", "use recast {", "use play target one other where", "mark(use,",
                   "damage(target, 1, source: user"):
        assert any(needle in t for t in cards), needle
    assert any("use play" in line and line.rstrip().endswith("}") for t in cards for line in t.splitlines())
