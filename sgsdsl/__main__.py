"""`python -m sgsdsl`: the same command line as the `sgsdsl` script."""

from .cli import main

main(prog_name="sgsdsl")
