"""Command-line values that would make work unbounded are refused (issue 31 item 4): non-finite numbers."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main


@pytest.mark.parametrize("width", ["nan", "NaN", "inf", "-inf"])
def test_compare_refuses_a_non_finite_interval_width(width: str) -> None:
    res = CliRunner().invoke(main, ["compare", "--rules", "standard", "--a-option", "two_renegades=true",
                                    "--players", "8", "--games", "2", "--until-ci", width])
    assert res.exit_code == 2 and "--until-ci" in res.output and res.exception is None or \
        isinstance(res.exception, SystemExit), res.output


def test_did_you_mean_work_is_bounded_per_check() -> None:
    from sgsdsl.lang import diagnostics
    from sgsdsl.lang.checker import check

    names = [f"card{i}" for i in range(5000)]
    diagnostics.reset_suggestions()
    hints = [diagnostics.did_you_mean(f"cardz{i}", names) for i in range(400)]
    # 1,000,000 names compared at most: 200 hints of 5000 (and one more that crosses the line), then none
    assert all(hints[:200]) and not any(hints[202:])
    check([])  # each check starts afresh
    assert diagnostics.did_you_mean("cardz1", names) == "card1"


def test_a_load_reads_at_most_500_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sgsdsl.api import check_paths

    for i in range(520):
        (tmp_path / f"f{i}.sgs").write_text(f'import "f{i + 1}.sgs"\n' if i < 519 else "", encoding="utf-8")
    loaded = check_paths([str(tmp_path / "f0.sgs")])
    assert [d.code for d in loaded.diagnostics] == ["SGS-E107"]
    assert "a load reads at most 500 files" in loaded.diagnostics[0].message and len(loaded.sources) == 500
