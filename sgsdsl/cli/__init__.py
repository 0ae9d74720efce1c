"""The `sgsdsl` command line. Each command lives in its own module; this file only groups them."""

from __future__ import annotations

import sys

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sgsdsl")
def main() -> None:
    """sgsdsl: write Sanguosha cards, generals and modes in .sgs; check, compile, test and simulate them."""


def _register() -> None:
    from . import (
        cache_cmd,
        check_cmd,
        compare_cmd,
        compile_cmd,
        fmt_cmd,
        league_cmd,
        play_cmd,
        simulate_cmd,
        test_cmd,
        vocab_cmd,
    )

    for mod in (cache_cmd, check_cmd, compile_cmd, league_cmd, play_cmd, simulate_cmd, compare_cmd, test_cmd, vocab_cmd,
                fmt_cmd):
        for cmd in mod.COMMANDS:
            main.add_command(cmd)
    from . import designer_cmds  # explain, lsp, docs: the designer tooling, registered apart

    for cmd in designer_cmds.COMMANDS:
        main.add_command(cmd)


_register()


def run() -> None:  # pragma: no cover - console entry used by tests through CliRunner instead
    sys.exit(main())
