"""`spidercli schema`: the JSON Schema of a move log accepts every good fixture and refuses the
broken ones."""

from __future__ import annotations

import json

import jsonschema

from spidercli.deals import DEAL_KEYS, MOVE_RULES
from spidercli.logtypes import EXPECT_KEYS, RESULTS, TOP_KEYS
from spidercli.rules import GAMES, RULESETS
from spidercli.schema import log_schema
from tests.helpers import FIXTURES, run


def test_schema_accepts_good_logs_and_refuses_broken_ones() -> None:
    import yaml

    result = run("schema")
    schema = json.loads(result.stdout)
    assert schema == log_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    good = [*FIXTURES.glob("*.yaml"), *(FIXTURES / "illegal").glob("*.yaml")]
    for path in good:
        data = yaml.safe_load(path.read_text())
        errors = list(validator.iter_errors(data))
        assert not errors, (path, errors[0].message)
    for name in (
        "unknown-key",
        "bad-action",
        "bad-code",
        "moves-not-a-list",
        "wrong-type",
        "bad-expect",
        "unknown-rules",
        "deal-and-game",
        "deal-bad-card",
        "deal-unknown-game",
    ):
        data = yaml.safe_load((FIXTURES / "bad" / f"{name}.yaml").read_text())
        assert not validator.is_valid(data), name


def test_the_schema_names_the_keys_and_words_the_reader_knows() -> None:
    """The schema and the reader agree on every key of a log, of its ``expect`` block and of
    its ``deal:`` block, and on the words each may hold."""
    schema = log_schema()
    top = schema["properties"]
    assert list(top) == list(TOP_KEYS)
    assert list(top["expect"]["properties"]) == list(EXPECT_KEYS)
    assert top["expect"]["properties"]["result"]["enum"] == list(RESULTS)
    assert list(top["deal"]["properties"]) == list(DEAL_KEYS)
    assert top["deal"]["properties"]["game"]["enum"] == list(GAMES)
    assert top["deal"]["properties"]["rule"]["enum"] == list(MOVE_RULES)
    assert top["rules"]["enum"] == sorted(RULESETS)
