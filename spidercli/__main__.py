"""``python -m spidercli``."""

from spidercli.cli import main

main()
