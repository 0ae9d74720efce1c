"""`sgsdsl lsp`: run the language server on stdin/stdout (editors start it; see editors/README.md)."""

from __future__ import annotations

import click

from ..install_hint import install_extra


@click.command("lsp")
def lsp() -> None:
    """Run the .sgs language server over stdio (needs the `lsp` extra)."""
    try:
        from ..lsp.server import main
    except ImportError as err:
        raise click.UsageError(f"the language server needs pygls ({err.name} is missing): "
                               f"{install_extra('lsp')}") from None
    main()


COMMANDS = [lsp]
