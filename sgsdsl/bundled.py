"""Where the bundled rules (`rules/*.sgs`) and their compiled modules (`generated/`) live.

A checkout (and an editable install) keeps them at the repository's top level, beside the `sgsdsl`
package; a wheel ships them as package data under `sgsdsl/_bundled/`. Everything that needs them asks here,
so no code assumes one layout, and nothing is installed as a top-level `generated` module.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    shipped = _PACKAGE / "_bundled" / name
    return shipped if shipped.is_dir() else _PACKAGE.parent / name


def rules_dir() -> Path:
    """The folder of bundled `.sgs` rule sets."""
    return _data_dir("rules")


def generated_dir() -> Path:
    """The folder of the bundled rules compiled by `sgsdsl compile rules/ -o generated/`."""
    return _data_dir("generated")


def rule_set_names() -> list[str]:
    """The bundled rule sets by name (`standard`, `junzheng`), sorted."""
    folder = rules_dir()
    return sorted(p.stem for p in folder.glob("*.sgs")) if folder.is_dir() else []


def rule_set(name: str) -> Path | None:
    """The bundled rule set called NAME, or None (NAME is a file stem such as `standard` or `3v3`; only the
    listed names match, so no path can slip through)."""
    if name not in rule_set_names():
        return None
    return rules_dir() / f"{name}.sgs"
