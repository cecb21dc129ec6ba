"""``spidercli schema``: JSON Schemas (draft 2020-12) of the move log, for editors, and of the
JSON spidercli writes: ``replay --json``'s report (``--report``) and ``verify``'s records
(``--verify``).

The log's schema describes the shape ``movelog`` accepts: the keys, their types, the game-code
and action grammars as patterns. What a schema cannot say (no YAML aliases or custom tags, a
deal's card counts) is still checked by ``spidercli replay``. The report's and the records'
schemas take their words from the lists the code uses (the results, the statuses, the rule IDs,
the rulesets, the ranks and suits), never typed again here.
"""

from __future__ import annotations

from typing import Any

from spidercli import __version__
from spidercli.game.cards import RANKS, SUITS
from spidercli.game.engine import RULE_IDS
from spidercli.game.rules import GAMES, RULESETS
from spidercli.logs.dealblock import MOVE_RULES
from spidercli.play.logtypes import EXPECT_KEYS, RESULTS
from spidercli.play.replay import INVALID_INPUT, STATUSES

# The project's home, written once: the schemas' ``$id``s are under it (pyproject.toml's
# [project.urls] names it too; tests/test_home.py checks that they agree).
HOME = "https://github.com/spidercli/spidercli"


def _id(name: str) -> str:
    """A schema's ``$id``: a name under the project's home (an identifier, not a download)."""
    return f"{HOME}/schema/{name}.json"


def _ci(word: str) -> str:
    """A case-insensitive pattern for ``word`` without inline flags (ECMA-262 has none)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


# spidercli's codes, KPat's deals KP<suits>-<number> and PySol's PS<suits>-<number> or
# PS<suits>-ms<number> (the numbers' ranges, 1 to 2^31-1, 1 to 10^20 and ms1 to ms2^33-1, are
# checked by replay: a pattern can only bound their digits).
CODE_PATTERN = (
    r"^\s*([Ss][PpDd][124]-[Ss]1[CcPp]?-[A-Za-z]{7}|[Kk][Pp][124]-0*[1-9][0-9]{0,9}"
    r"|[Pp][Ss][124]-(0*[1-9][0-9]{0,20}|[Mm][Ss]0*[1-9][0-9]{0,9}))\s*$"
)
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
        "$id": _id("move-log"),
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
                    "A game code, e.g. SP1-S1C-AAAAAAD or SD2-S1-AAAAABD, a KPat deal "
                    "such as KP2-17, or a PySol game such as PS4-14934."
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


DRAFT = "https://json-schema.org/draft/2020-12/schema"
# A report's game code, as replay writes it: canonical (upper case, no blanks, no leading zeros).
_PREFIXES = "|".join(sorted(game.prefix for game in GAMES.values()))
CANONICAL_CODE_PATTERN = rf"^(({_PREFIXES})[124]-S1[CP]?-[A-Z]{{7}}|KP[124]-[1-9][0-9]{{0,9}})$"
CARD_PATTERN = f"^[{RANKS}][{SUITS}]$"
DEAL_ID_PATTERN = "^[0-9a-f]{16}$"
_COUNT = {"type": "integer", "minimum": 0}
_LINE = {"type": "integer", "minimum": 1}


def _report_defs() -> dict[str, Any]:
    """The parts of the report, as ``$defs``: a card, the board, a refused entry, ``expect``."""
    cards = {"type": "array", "items": {"$ref": "#/$defs/card"}}
    return {
        "card": {
            "description": "A card: rank (A 2-9 T J Q K) and suit.",
            "type": "string",
            "pattern": CARD_PATTERN,
        },
        "state": {
            "description": "The position: each column bottom to top, the stock in dealing "
            "order, the suit of each removed run in order.",
            "type": "object",
            "additionalProperties": False,
            "required": ["columns", "stock", "removed"],
            "properties": {
                "columns": {
                    "type": "array",
                    "minItems": min(g.columns for g in GAMES.values()),
                    "maxItems": max(g.columns for g in GAMES.values()),
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["down", "up"],
                        "properties": {"down": cards, "up": cards},
                    },
                },
                "stock": cards,
                "removed": {"type": "array", "items": {"enum": list(SUITS)}},
            },
        },
        "illegal": {
            "description": "A refused entry: its 1-based index in moves, its line, its text, "
            "the rule that refuses it and the rule's sentence (English).",
            "type": "object",
            "additionalProperties": False,
            "required": ["index", "line", "action", "rule", "message"],
            "properties": {
                "index": _LINE,
                "line": _LINE,
                "action": {"type": "string"},
                "rule": {"enum": list(RULE_IDS)},
                "message": {"type": "string"},
            },
        },
        "mismatch": {
            "description": "An expect entry the replay does not meet.",
            "type": "object",
            "additionalProperties": False,
            "required": ["key", "expected", "actual"],
            "properties": {"key": {"enum": list(EXPECT_KEYS)}, "expected": {}, "actual": {}},
            "if": {"properties": {"key": {"const": "result"}}},
            "then": {
                "properties": {
                    "expected": {"enum": list(RESULTS)},
                    "actual": {"enum": list(RESULTS)},
                }
            },
            "else": {
                "properties": {"expected": {"type": "integer"}, "actual": {"type": "integer"}}
            },
        },
        "expect": {
            "description": "The log's expect block checked: ok, or the entries not met.",
            "type": "object",
            "additionalProperties": False,
            "required": ["ok", "mismatches"],
            "properties": {
                "ok": {"type": "boolean"},
                "mismatches": {"type": "array", "items": {"$ref": "#/$defs/mismatch"}},
            },
            "if": {"properties": {"ok": {"const": True}}},
            "then": {"properties": {"mismatches": {"maxItems": 0}}},
            "else": {"properties": {"mismatches": {"minItems": 1}}},
        },
    }


def _report_properties() -> dict[str, Any]:
    """The report's keys, in the order ``replay --json`` writes them."""
    return {
        "game": {
            "description": "The canonical game code; null for a log that writes its deal out.",
            "type": ["string", "null"],
            "pattern": CANONICAL_CODE_PATTERN,
        },
        "deal_id": {
            "description": "16 hex digits naming the dealt cards.",
            "type": "string",
            "pattern": DEAL_ID_PATTERN,
        },
        "rules": {"description": "The ruleset played.", "enum": list(RULESETS)},
        "result": {
            "description": "blocked: no move, deal or flip is legal and the game is not won.",
            "enum": list(RESULTS),
        },
        "moves": {**_COUNT, "description": "The move counter: moves and deals."},
        "score": {"type": "integer"},
        "runs": {**_COUNT, "description": "Runs removed."},
        "deals_left": _COUNT,
        "actions": {**_COUNT, "description": "Log entries applied (refused ones not counted)."},
        "illegal": {"type": "array", "items": {"$ref": "#/$defs/illegal"}},
        "expect": {
            "description": "null when the log has no expect block.",
            "oneOf": [{"type": "null"}, {"$ref": "#/$defs/expect"}],
        },
        "state": {"$ref": "#/$defs/state"},
    }


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``replay --json``'s report."""
    properties = _report_properties()
    return {
        "$schema": DRAFT,
        "$id": _id("report"),
        "title": f"spidercli replay --json report (spidercli {__version__})",
        "description": "What a replay established: the deal, the ruleset, the result and "
        "figures, the refused entries, the expect check and the position reached.",
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
        "$defs": _report_defs(),
    }


def verify_schema() -> dict[str, Any]:
    """The JSON Schema of one of ``verify``'s records: a line of ``--format jsonl``, an item of
    ``--format json``'s array (``$defs/records``)."""
    report = _report_properties()
    checked = [s for s in STATUSES if s != INVALID_INPUT]
    replayed = {
        "description": "A usable log: the file, its status, then the replay's report.",
        "type": "object",
        "additionalProperties": False,
        "required": ["file", "status", *report],
        "properties": {
            "file": {"type": "string"},
            "status": {"enum": checked},
            **report,
        },
        "allOf": [
            {  # the status follows from the report
                "if": {"properties": {"status": {"const": "valid"}}},
                "then": {
                    "properties": {
                        "illegal": {"maxItems": 0},
                        "expect": {
                            "anyOf": [{"type": "null"}, {"properties": {"ok": {"const": True}}}]
                        },
                    }
                },
            },
            {
                "if": {"properties": {"status": {"const": "illegal"}}},
                "then": {"properties": {"illegal": {"minItems": 1}}},
            },
            {
                "if": {"properties": {"status": {"const": "expect-failed"}}},
                "then": {
                    "properties": {
                        "illegal": {"maxItems": 0},
                        "expect": {"properties": {"ok": {"const": False}}},
                    }
                },
            },
        ],
    }
    unusable = {
        "description": "A log that cannot be used: the file, the status and the error, as "
        "replay --json prints it (line: null when no line applies).",
        "type": "object",
        "additionalProperties": False,
        "required": ["file", "status", "error"],
        "properties": {
            "file": {"type": "string"},
            "status": {"const": INVALID_INPUT},
            "error": {
                "type": "object",
                "additionalProperties": False,
                "required": ["message", "line"],
                "properties": {
                    "message": {"type": "string"},
                    "line": {"oneOf": [{"type": "null"}, _LINE]},
                },
            },
        },
    }
    return {
        "$schema": DRAFT,
        "$id": _id("verify-record"),
        "title": f"spidercli verify record (spidercli {__version__})",
        "description": "One log's verdict: a line of verify --format jsonl, an item of "
        "verify --format json's array ($defs/records).",
        "$ref": "#/$defs/record",
        "$defs": {
            **_report_defs(),
            "record": {"oneOf": [{"$ref": "#/$defs/replayed"}, {"$ref": "#/$defs/unusable"}]},
            "replayed": replayed,
            "unusable": unusable,
            "records": {
                "description": "verify --format json: an array of records.",
                "type": "array",
                "items": {"$ref": "#/$defs/record"},
            },
        },
    }


__all__ = ["HOME", "log_schema", "report_schema", "verify_schema"]
