"""Shared CLI plumbing: find rules files, check them (printing diagnostics), build a Program."""

from __future__ import annotations

from typing import Any

import click

from ..api import bundled_rules_dir, check_paths, program_for
from ..lang.diagnostics import DiagnosticError, render_text


def rule_paths(rules: list[str], rule_names: str) -> list[str]:
    paths = list(rules)
    for name in filter(None, (n.strip() for n in rule_names.split(","))):
        candidate = bundled_rules_dir() / f"{name}.sgs"
        if not candidate.exists():
            known = sorted(p.stem for p in bundled_rules_dir().glob("*.sgs"))
            raise click.UsageError(f"no bundled rule set {name!r}; bundled: {', '.join(known)}")
        paths.append(str(candidate))
    if not paths:
        paths.append(str(bundled_rules_dir() / "standard.sgs"))
    return paths


def load_program_or_exit(rules: list[str], rule_names: str, engine: str):
    loaded = check_paths(rule_paths(rules, rule_names))
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    if errors:
        click.echo(render_text(errors, loaded.sources), err=True)
        raise SystemExit(1)
    try:
        return program_for(loaded, engine)
    except DiagnosticError as err:
        click.echo(render_text(err.diagnostics, loaded.sources), err=True)
        raise SystemExit(1) from None


def parse_options(opts: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for o in opts:
        name, eq, raw = o.partition("=")
        if not eq or not name.strip():
            raise click.UsageError(f"--option takes name=value, not {o!r}")
        value: Any = raw.strip()
        low = value.lower()
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif low.lstrip("-").isdigit():
            value = int(low)
        out[name.strip()] = value
    return out
