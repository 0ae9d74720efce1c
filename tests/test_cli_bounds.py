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
