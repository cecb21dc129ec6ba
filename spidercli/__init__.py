"""spidercli: replay, verify and score games of Spider Solitaire and Spiderette.

The package is layered: ``cards`` and ``codes`` know cards and deals, ``rules`` holds each app's
house rules as values, ``engine`` plays actions, ``actions`` parses action strings, ``movelog``
reads YAML logs, ``replay`` runs a log through the engine, ``render`` draws reports and boards, and
``cli`` is the thin Typer layer on top.
"""

__version__ = "0.2.0"
