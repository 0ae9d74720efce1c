"""Package layout for setuptools (metadata lives in pyproject.toml).

The repository keeps the bundled rules and their compiled modules at its top level (`rules/`, `generated/`);
a wheel ships them as package data inside `sgsdsl/_bundled/`, so an installed sgsdsl finds them and installs
no top-level `generated` module. `sgsdsl.bundled` looks in both places.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["sgsdsl", "sgsdsl.*"]), "sgsdsl._bundled.rules", "sgsdsl._bundled.generated"],
    package_dir={"sgsdsl._bundled.rules": "rules", "sgsdsl._bundled.generated": "generated"},
    package_data={
        "sgsdsl": ["lang/*.lark", "lang/*.md", "compiler/templates/*.j2", "studio/static/*"],
        "sgsdsl._bundled.rules": ["*.sgs", "*/*.sgs"],
    },
)
