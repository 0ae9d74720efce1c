"""The `sgsdsl` command line. Each command lives in its own module; this file only groups them."""

from __future__ import annotations

import importlib
import os
import sys
import traceback

import click

# command name -> the module of this package that defines it (in its COMMANDS list). Modules are imported only
# when their command runs (or --help lists them), so `sgsdsl check` does not pay for the compiler, the balance
# lab or the language server at start-up.
_LAZY = {
    "cache": "cache_cmd", "check": "check_cmd", "compile": "compile_cmd", "league": "league_cmd",
    "play": "play_cmd", "simulate": "simulate_cmd", "replay": "simulate_cmd", "compare": "compare_cmd",
    "test": "test_cmd", "vocab": "vocab_cmd", "fmt": "fmt_cmd", "explain": "explain_cmd", "lsp": "lsp_cmd",
    "docs": "docs_cmd", "native": "native_cmd", "studio": "studio_cmd", "balance": "balance_cmd",
}


class _LazyGroup(click.Group):
    """A click group that imports a command's module on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(_LAZY))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is None and cmd_name in _LAZY:
            module = importlib.import_module(f"{__name__}.{_LAZY[cmd_name]}")
            for found in module.COMMANDS:
                self.add_command(found)
            cmd = super().get_command(ctx, cmd_name)
        return cmd

    def invoke(self, ctx: click.Context) -> object:
        """Ctrl-C ends any command with one short line and the shell's exit code for it (130), never a traceback
        (click's own answer is 'Aborted!' and exit 1, the code of a failed check). A failure of sgsdsl itself
        (a bug, not bad input: bad input has its own located messages) ends with one line naming it and exit
        code 70; `SGSDSL_TRACEBACK=1` shows the traceback for the report."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\ninterrupted (Ctrl-C)", err=True)
            raise SystemExit(INTERRUPTED) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            # the reader went away (`sgsdsl … | head`): nothing more to say, and nothing to flush at exit either
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):  # (an output with no file behind it, as under click's test runner)
                pass
            raise SystemExit(BROKEN_PIPE) from None
        except Exception as err:  # last-resort guard: never a Python traceback
            if os.environ.get("SGSDSL_TRACEBACK") == "1":
                traceback.print_exc()
            detail = "".join(traceback.format_exception_only(type(err), err)).strip().splitlines()
            click.echo(f"sgsdsl: internal error ({detail[-1] if detail else type(err).__name__}); this is a bug "
                       "in sgsdsl: please report it with the command and its input (SGSDSL_TRACEBACK=1 shows "
                       "where it happened)", err=True)
            raise SystemExit(INTERNAL_ERROR) from None


INTERRUPTED = 128 + 2  # killed by SIGINT, as shells report it
INTERNAL_ERROR = 70  # EX_SOFTWARE of sysexits.h: an internal software error
BROKEN_PIPE = 128 + 13  # killed by SIGPIPE, as shells report it


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sgsdsl")
def main() -> None:
    """sgsdsl: write Sanguosha cards, generals and modes in .sgs; check, compile, test and simulate them."""


def run() -> None:  # pragma: no cover - console entry used by tests through CliRunner instead
    sys.exit(main())
