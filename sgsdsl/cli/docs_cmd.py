"""`sgsdsl docs RULES -o site/`: write the searchable HTML catalogue of the rules."""

from __future__ import annotations

from pathlib import Path

import click

from ..api import check_paths
from ..docsite.build import build_site, read_scenarios, write_site
from ..files import WriteRefused
from ..lang import ast
from ..lang.diagnostics import render_text
from ..lang.sources import expand_paths
from .loading import catalogue_paths


@click.command("docs")
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("-o", "--out", "out", type=click.Path(file_okay=False), default="site", show_default=True)
@click.option("--scenarios", type=click.Path(file_okay=False), default=None,
              help="scenario folder whose `rule:` lines link to skills (default: tests/scenarios if present)")
@click.option("--title", default="三国杀 rules catalogue", show_default=True)
def docs(rules: tuple[str, ...], rule_names: str, out: str, scenarios: str | None, title: str) -> None:
    """Write a static, searchable catalogue of every card, general, skill and mode (open OUT/index.html)."""
    files, problems = expand_paths(catalogue_paths(list(rules), rule_names))
    modules: dict[str, ast.Module] = {}
    sources: dict[str, str] = {}
    values: dict[str, ast.ValueDef] = {}
    for f in files:  # each file is its own program with its imports (a folder may hold several rule sets)
        loaded = check_paths([str(f)])
        sources.update(loaded.sources)
        problems += [d for d in loaded.diagnostics if d.severity == "error" and d not in problems]
        if loaded.checked is not None:
            modules.update((m.path, m) for m in loaded.checked.modules if m.path not in modules)
            for name, value in loaded.checked.symbols.values.items():
                values.setdefault(name, value)  # (as a module: the first file defining it)
    if problems or not modules:
        click.echo(render_text(problems, sources), err=True)
        raise SystemExit(1)
    folder = Path(scenarios) if scenarios else Path("tests/scenarios")
    if scenarios and not folder.is_dir():
        raise click.UsageError(f"--scenarios {scenarios} is not a folder")
    found = read_scenarios(folder)
    site = build_site(list(modules.values()), sources, found, title, values)
    try:
        write_site(site, Path(out))
    except OSError as err:
        raise click.UsageError(f"cannot write {out}: {err.strerror or err}") from None
    except WriteRefused as err:
        raise click.ClickException(str(err)) from None
    linked = len(site.files) - 1
    click.echo(f"wrote {Path(out) / 'index.html'} and {linked} scenario page(s) ({len(found)} scenario(s) read)")


COMMANDS = [docs]
