"""`python -m sgsdsl.cli`."""

from . import main

main()
