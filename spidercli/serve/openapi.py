"""``spidercli serve``'s OpenAPI description (3.1), served at ``GET /v1/openapi.json``: every
endpoint, what it takes, what it answers, and this server's limits. The records' schemas are
``spidercli schema --verify``'s and ``--report``'s own (OpenAPI 3.1 speaks JSON Schema 2020-12)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from spidercli import __version__
from spidercli.logs.schema import verify_schema

_ERROR = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {
        400: "The body is not the JSON asked for (malformed, not UTF-8, a duplicate key).",
        404: "No such endpoint.",
        408: "The body did not come within the server's time.",
        413: "The body is over the server's limit.",
        415: "Not sent as JSON.",
        422: "A value or a log that cannot be used (an unknown ruleset, not a game code).",
        503: "Busy (every judging process taken and the queue full, or more connections "
        "than the server takes: retry), or the process judging the request was lost.",
    }
    return {str(code): _json(_ERROR, words[code]) for code in codes}


def _log_body(keys: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": required,
                    "properties": keys,
                }
            },
            "application/yaml": {
                "schema": {"type": "string", "description": "The move log itself (YAML)."}
            },
        },
    }


def document(limits: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI description of a server run with ``limits`` (``serve_app.Settings``' fields:
    ``max_bytes``, ``cpu_seconds``, ...)."""
    s = SimpleNamespace(**limits)
    record = verify_schema()
    record.pop("$schema", None)
    log = {"type": "string", "description": "The move log's text (YAML), as a file holds it."}
    rules = {
        "type": "string",
        "description": "A ruleset (classic, duel, pavouk, kpat) overriding the log's.",
    }
    rules_query = {"name": "rules", "in": "query", "required": False, "schema": rules}

    def budget(name: str, cap: float, what: str) -> dict[str, Any]:
        return {
            "type": "number",
            "exclusiveMinimum": 0,
            "description": f"{what}; at most, and by default, {cap:g} on this server (a larger "
            "value is lowered to it).",
        }

    return {
        "openapi": "3.1.0",
        "info": {
            "title": "spidercli serve",
            "version": __version__,
            "description": "Verify, hint at and solve games of Spider Solitaire and Spiderette "
            f"over HTTP. Limits: a log of at most {s.max_bytes:,} bytes (a JSON body up to "
            f"twice that, for its escaping); a body within {s.body_seconds:g} s; "
            f"{s.cpu_seconds:g} s of CPU to judge one log; a batch of at most "
            f"{s.max_batch:,} logs. Errors are "
            '{"error": {"message": ..., "line": ...}}, in English.',
        },
        "paths": {
            "/v1/verify": {
                "post": {
                    "summary": "Verify one log: the record of a line of verify --format jsonl.",
                    "description": "The body is the log (YAML; rules in the query), or JSON "
                    '{"log": ..., "rules": ...}. 200 for any judged log (valid, illegal, '
                    "expect-failed); 422 with the record (status invalid-input and its error) "
                    "for a log that cannot be used. The record's file is always request.",
                    "parameters": [rules_query],
                    "requestBody": _log_body({"log": log, "rules": rules}, ["log"]),
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/VerifyRecord"}, "Judged."),
                        "422": _json(
                            {"$ref": "#/components/schemas/VerifyRecord"},
                            "A log that cannot be used (its record), or a ruleset unknown "
                            "(the error object).",
                        ),
                        **_errors(400, 408, 413, 503),
                    },
                }
            },
            "/v1/verify/batch": {
                "post": {
                    "summary": "Verify many logs: one record each, in order.",
                    "description": "Each log's record is named request[i], i its place in logs "
                    "(from 0). A log that cannot be used is a record too (invalid-input).",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "additionalProperties": False,
                                    "required": ["logs"],
                                    "properties": {
                                        "logs": {
                                            "type": "array",
                                            "minItems": 1,
                                            "maxItems": s.max_batch,
                                            "items": log,
                                        },
                                        "rules": rules,
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["records"],
                                "properties": {
                                    "records": {
                                        "type": "array",
                                        "items": {"$ref": "#/components/schemas/VerifyRecord"},
                                    }
                                },
                            },
                            "The records, in the order of logs.",
                        ),
                        **_errors(400, 408, 413, 415, 422, 503),
                    },
                }
            },
            "/v1/deal/{code}": {
                "get": {
                    "summary": "The starting board a game code deals (deal --json).",
                    "parameters": [
                        {
                            "name": "code",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                            "example": "SP2-S1C-AAAAABD",
                        }
                    ],
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["game", "deal_id", "columns", "stock", "removed"],
                            },
                            "The game, its deal_id and the starting position.",
                        ),
                        **_errors(422),
                    },
                }
            },
            "/v1/deals/{name}": {
                "get": {
                    "summary": "The table of settled deals (deals NAME --json): a set's "
                    "summary, or one deal's entry with its certificate or proof.",
                    "description": "A set (PS4) answers {set, deals, won, unwinnable, unknown, "
                    "complete}; a deal (PS4-17) answers {game, result, moves, lower_bound, log, "
                    "proof, grade}, log being the certificate of a won deal. A set or deal the "
                    "table does not hold: 422.",
                    "parameters": [
                        {
                            "name": "name",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                            "example": "PS4-17",
                        }
                    ],
                    "responses": {
                        "200": _json(
                            {
                                "oneOf": [
                                    {
                                        "type": "object",
                                        "required": [
                                            "set",
                                            "deals",
                                            "won",
                                            "unwinnable",
                                            "unknown",
                                            "complete",
                                        ],
                                    },
                                    {
                                        "type": "object",
                                        "required": [
                                            "game",
                                            "result",
                                            "moves",
                                            "lower_bound",
                                            "log",
                                            "proof",
                                            "grade",
                                        ],
                                    },
                                ]
                            },
                            "The set's summary, or the deal's entry.",
                        ),
                        "422": _json(_ERROR, "A set or deal the table does not hold."),
                        **_errors(503),
                    },
                }
            },
            "/v1/hint": {
                "post": {
                    "summary": "The best next move of a log (hint --json), or with fair the "
                    "fair hint (hint --fair --json), chosen only from what a player sees.",
                    "description": "A log with a refused action has no next move: 422. The "
                    "budget used is in the Spidercli-Timeout and Spidercli-Max-States headers "
                    "(not with fair: the fair hint's budget is its own, the same everywhere, "
                    "and timeout or max_states with fair is 422). The query parameters go with "
                    "a YAML body; a JSON body carries its values itself (a query string beside "
                    "it is 422).",
                    "parameters": [
                        rules_query,
                        {
                            "name": "fair",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "string", "enum": ["true", "false", "1", "0"]},
                        },
                        {
                            "name": "timeout",
                            "in": "query",
                            "required": False,
                            "schema": budget("timeout", s.hint_seconds, "Seconds of search"),
                        },
                        {
                            "name": "max_states",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer", "minimum": 1},
                        },
                    ],
                    "requestBody": _log_body(
                        {
                            "log": log,
                            "rules": rules,
                            "timeout": budget("timeout", s.hint_seconds, "Seconds of search"),
                            "max_states": {
                                "type": "integer",
                                "minimum": 1,
                                "description": "Positions searched; at most, and by default, "
                                f"{s.max_states_cap:,} on this server.",
                            },
                            "fair": {
                                "type": "boolean",
                                "description": "The fair hint: chosen from the face-up cards, "
                                "the face-down counts and the cards seen before, never from "
                                "the unseen cards; its answer adds fair: true.",
                            },
                        },
                        ["log"],
                    ),
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["action", "reasons", "wins_in", "deal_next"],
                            },
                            "The hint.",
                        ),
                        **_errors(400, 408, 413, 422, 503),
                    },
                }
            },
            "/v1/solve": {
                "post": {
                    "summary": "Search for a win (solve --json).",
                    "description": "JSON with game (a game code) or log (whose deal is "
                    "solved), and the budget, which a request may lower, never raise; the "
                    "budget used is in the Spidercli-Timeout and Spidercli-Max-States "
                    "headers. A search that runs out of budget answers result gave-up.",
                    "requestBody": _log_body(
                        {
                            "game": {"type": "string", "description": "A game code."},
                            "log": log,
                            "rules": rules,
                            "timeout": budget("timeout", s.solve_seconds, "Seconds of search"),
                            "max_states": {
                                "type": "integer",
                                "minimum": 1,
                                "description": "Positions searched; at most, and by default, "
                                f"{s.max_states_cap:,} on this server.",
                            },
                        },
                        [],
                    ),
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["game", "deal_id", "rules", "result", "log"],
                            },
                            "The search's record; its log is the win, when won.",
                        ),
                        **_errors(400, 408, 413, 422, 503),
                    },
                }
            },
            "/v1/openapi.json": {
                "get": {
                    "summary": "This description.",
                    "responses": {"200": {"description": "OpenAPI 3.1, as JSON."}},
                }
            },
            "/healthz": {
                "get": {
                    "summary": "Whether this server process can judge (its judging processes).",
                    "responses": {
                        "200": _json({"type": "object"}, "Ready."),
                        "503": _json({"type": "object"}, "No judging process."),
                    },
                }
            },
            "/metrics": {
                "get": {
                    "summary": "Counts and latencies in Prometheus' text format.",
                    "responses": {
                        "200": {
                            "description": "Requests by endpoint and status, latency "
                            "histograms, verdicts, judging processes replaced.",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        }
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "VerifyRecord": record,
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {
                        "error": {
                            "type": "object",
                            "required": ["message", "line"],
                            "properties": {
                                "message": {"type": "string"},
                                "line": {"type": ["integer", "null"], "minimum": 1},
                            },
                        }
                    },
                },
            }
        },
    }
