"""The Jinja2 environment of the generated modules' skeletons (StrictUndefined: a missing value is an error).

Apart from `codegen` so that `compile` can render the package index without importing the code generator."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import jinja2


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(
            lambda name: resources.files("sgsdsl.compiler").joinpath("templates", name).read_text("utf-8")),
        undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)


def render(template: str, **ctx: Any) -> str:
    return _env().get_template(template).render(**ctx)
