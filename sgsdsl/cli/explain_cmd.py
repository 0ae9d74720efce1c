"""`sgsdsl explain CODE`: what a diagnostic code means, with a wrong and a right example."""

from __future__ import annotations

import click

from ..lang.codes import CODES
from ..lang.diagnostics import did_you_mean
from ..lang.explain import explanations, normalize, render


@click.command("explain")
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Explain CODE (e.g. SGS-E206 or E206); without CODE, list every code with its title."""
    if code is None:
        for c, text in CODES.items():
            click.echo(f"{c}  {text}")
        return
    full = normalize(code)
    found = explanations().get(full)
    if found is None:
        near = did_you_mean(full, CODES)
        hint = f" (did you mean {near}?)" if near else ""
        raise click.UsageError(f"no diagnostic code {code!r}{hint}; `sgsdsl explain` lists them")
    click.echo(render(found), nl=False)


COMMANDS = [explain]
