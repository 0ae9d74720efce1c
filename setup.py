"""Package layout for setuptools (metadata lives in pyproject.toml), and the native engine built at install time.

The repository keeps the bundled rules and their compiled modules at its top level (`rules/`, `generated/`);
a wheel ships them as package data inside `sgsdsl/_bundled/`, so an installed sgsdsl finds them and installs
no top-level `generated` module. `sgsdsl.bundled` looks in both places.

Building the package (a wheel, `pip install .`, `pip install -e .`) also writes the parser's LALR tables into
`sgsdsl/lang/_tables/` (`sgsdsl.lang.parse_cache`), and compiles the engine's hot modules with
mypyc into `sgsdsl/_native/` (`sgsdsl.native.build_into`; in the checkout itself for an editable install), used
while they match the engine's sources. Without a C compiler, or with SGSDSL_NATIVE_BUILD=0, the package is
built without them and runs the pure-Python engine.
"""

import os
import sys
from pathlib import Path

from setuptools import Distribution, find_packages, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _wanted() -> bool:
    return os.environ.get("SGSDSL_NATIVE_BUILD", "1") != "0"


class BuildWithNative(build_py):
    """build_py, then the parser's tables and the native engine (a failed native build only leaves the pure-Python
    engine)."""

    def run(self) -> None:
        super().run()
        editable = getattr(self, "editable_mode", False)
        package = HERE / "sgsdsl" if editable else Path(self.build_lib) / "sgsdsl"
        sys.path.insert(0, str(HERE))
        try:
            from sgsdsl import native
            try:  # the parser's tables, so that a first `check` loads them instead of building them
                from sgsdsl.lang import parse_cache
                parse_cache.write_packaged_tables(package / "lang" / "_tables" / "lark.json")
            except (ImportError, OSError) as err:
                print(f"sgsdsl: WARNING: no prebuilt parser tables, the first check builds them: {err}",
                      file=sys.stderr)
        finally:
            sys.path.pop(0)
        if not _wanted():
            return
        target = package / "_native"
        print(f"sgsdsl: compiling {len(native.sources())} engine and agent modules with mypyc (a minute or two; "
              "SGSDSL_NATIVE_BUILD=0 skips it)", file=sys.stderr)
        try:
            native.build_into(target)
        except (native.NativeBuildError, OSError) as err:
            print(f"sgsdsl: WARNING: no native engine, the pure-Python one will run: {err}", file=sys.stderr)


class PlatformDistribution(Distribution):
    """A wheel holding the native engine is for this platform and Python only."""

    def has_ext_modules(self) -> bool:
        return _wanted()


setup(
    packages=[*find_packages(include=["sgsdsl", "sgsdsl.*"]), "sgsdsl._bundled.rules", "sgsdsl._bundled.generated"],
    package_dir={"sgsdsl._bundled.rules": "rules", "sgsdsl._bundled.generated": "generated"},
    package_data={
        "sgsdsl": ["lang/*.lark", "lang/*.md", "compiler/templates/*.j2", "studio/static/*"],
        "sgsdsl._bundled.rules": ["*.sgs", "*/*.sgs"],
    },
    cmdclass={"build_py": BuildWithNative},
    distclass=PlatformDistribution,
)
