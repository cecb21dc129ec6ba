"""``python -m spidercli``."""

from spidercli.cli.app import main

main()
