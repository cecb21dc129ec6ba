"""``spidercli schema``: a JSON Schema (draft 2020-12) of the move log, for editors.

It describes the shape ``movelog`` accepts: the keys, their types, the game-code and action
grammars as patterns. What a schema cannot say (no YAML aliases or custom tags, a deal's card
counts) is still checked by ``spidercli replay``.
"""

from __future__ import annotations

from typing import Any

from spidercli import __version__
from spidercli.deals import MOVE_RULES
from spidercli.logtypes import RESULTS
from spidercli.rules import GAMES, RULESETS


def _ci(word: str) -> str:
    """A case-insensitive pattern for ``word`` without inline flags (ECMA-262 has none)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


# spidercli's codes, or KPat's deals KP<suits>-<number> (the number's range, 1 to 2^31-1, is
# checked by replay: a pattern can only bound its digits).
CODE_PATTERN = r"^\s*([Ss][PpDd][124]-[Ss]1[CcPp]?-[A-Za-z]{7}|[Kk][Pp][124]-0*[1-9][0-9]{0,9})\s*$"
_N = r"\s*[0-9]+\s*"
ACTION_PATTERN = (
    rf"^\s*(({_N}>{_N}(:{_N})?)|{_ci('deal')}|{_ci('undo')}|{_ci('finish')}"
    rf"|({_ci('tap')}\s+[0-9]+(\s*:{_N})?)|({_ci('flip')}\s+[0-9]+))\s*$"
)
CARD = r"([Aa2-9TtJjQqKk]|10)[SsHhDdCc]"
CARDS_PATTERN = rf"^[\s,]*({CARD}[\s,]+)*({CARD})?[\s,]*$"


def log_schema() -> dict[str, Any]:
    cards: dict[str, Any] = {
        "description": "Cards as text ('9S 8H KD', '10s') or a list of such texts.",
        "oneOf": [
            {"type": "string", "pattern": CARDS_PATTERN},
            {"type": "array", "items": {"type": "string", "pattern": CARDS_PATTERN}},
        ],
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://spidercli.invalid/schema/move-log.json",
        "title": f"spidercli move log (spidercli {__version__})",
        "description": (
            "A game of Spider or Spiderette: the deal (a game code, or the cards written out), "
            "the ruleset, and every action in order."
        ),
        "type": "object",
        "additionalProperties": False,
        "required": ["moves"],
        "oneOf": [{"required": ["game"]}, {"required": ["deal"]}],
        "properties": {
            "game": {
                "description": (
                    "A game code, e.g. SP1-S1C-AAAAAAD or SD2-S1-AAAAABD, or a KPat deal "
                    "such as KP2-17."
                ),
                "type": "string",
                "pattern": CODE_PATTERN,
            },
            "deal": {
                "description": "The starting layout written out, instead of a game code.",
                "type": "object",
                "additionalProperties": False,
                "required": ["game", "columns", "stock"],
                "properties": {
                    "game": {"enum": list(GAMES)},
                    "rule": {"enum": list(MOVE_RULES), "default": MOVE_RULES[0]},
                    "suits": {"enum": [1, 2, 4]},
                    "columns": {
                        "description": "Each column's cards, bottom to top (10 or 7 columns).",
                        "type": "array",
                        "minItems": 7,
                        "maxItems": 10,
                        "items": cards,
                    },
                    "stock": cards,
                },
            },
            "rules": {
                "description": "The app's house rules (default classic).",
                "enum": sorted(RULESETS),
            },
            "player": {"description": "Who played.", "type": ["string", "number", "boolean"]},
            "time": {
                "description": "Seconds played (duel tie-break).",
                "type": "number",
                "minimum": 0,
            },
            "expect": {
                "description": "What the replay must show.",
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "result": {"enum": list(RESULTS)},
                    "moves": {"type": "integer"},
                    "score": {"type": "integer"},
                    "runs": {"type": "integer"},
                },
            },
            "moves": {
                "description": "The actions: S>T, S>T:K, deal, undo, tap S[:K], flip N, finish.",
                "type": "array",
                "items": {"type": "string", "pattern": ACTION_PATTERN},
            },
        },
    }
