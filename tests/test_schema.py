"""`spidercli schema`: the JSON Schema of a move log accepts every good fixture and refuses the
broken ones; the schemas of the report (`--report`) and of verify's records (`--verify`) accept
every report and record the fixtures give, under every ruleset and mode, and refuse what
spidercli never writes."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema

from spidercli.errors import InputError
from spidercli.game.cards import SUITS
from spidercli.game.engine import RULE_IDS
from spidercli.game.rules import GAMES, RULESETS
from spidercli.logs.dealblock import DEAL_KEYS, MOVE_RULES
from spidercli.logs.reader import load_log
from spidercli.logs.schema import log_schema, report_schema, verify_schema
from spidercli.play.logtypes import EXPECT_KEYS, RESULTS, TOP_KEYS
from spidercli.play.replay import SKIP, STATUSES, STOP, choose_rules, replay
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


# ------------------------------------------------------------- the report and verify's records

RULES = (None, *RULESETS)
CORPUS = sorted(FIXTURES.rglob("*.yaml"))


def _reports() -> list[dict[str, Any]]:
    """Every fixture's report: each log that reads, under its own ruleset and each that can
    play it, stopping and skipping."""
    reports = []
    for path in CORPUS:
        try:
            log = load_log(path)
        except InputError:
            continue
        for rules in RULES:
            try:
                ruleset = choose_rules(log, rules)
            except InputError:
                continue
            for mode in (STOP, SKIP):
                reports.append(replay(log, rules=ruleset, on_illegal=mode).to_json())
    return reports


def test_report_schema_is_printed_and_valid() -> None:
    printed = json.loads(run("schema", "--report").stdout)
    assert printed == report_schema()
    jsonschema.Draft202012Validator.check_schema(printed)
    assert json.loads(run("schema", "--verify").stdout) == verify_schema()
    jsonschema.Draft202012Validator.check_schema(verify_schema())
    both = run("schema", "--report", "--verify")
    assert both.exit_code == 2 and "give one of them, not both" in both.stderr


def test_the_schemas_take_their_words_from_the_code() -> None:
    report = report_schema()
    props = report["properties"]
    assert props["result"]["enum"] == list(RESULTS)
    assert props["rules"]["enum"] == list(RULESETS)
    assert report["$defs"]["illegal"]["properties"]["rule"]["enum"] == list(RULE_IDS)
    assert report["$defs"]["state"]["properties"]["removed"]["items"]["enum"] == list(SUITS)
    record = verify_schema()["$defs"]
    words = list(record["replayed"]["properties"]["status"]["enum"])
    words.append(record["unusable"]["properties"]["status"]["const"])
    assert sorted(words) == sorted(STATUSES)


def test_every_fixture_report_follows_the_report_schema() -> None:
    validator = jsonschema.Draft202012Validator(report_schema())
    reports = _reports()
    assert len(reports) > 250
    for report in reports:
        errors = list(validator.iter_errors(report))
        assert not errors, (report["game"], errors[0].message)
    seen = {(r["result"], bool(r["illegal"]), r["expect"] is None) for r in reports}
    assert len(seen) >= 6  # won, open, blocked, resigned; refused or not; expect or not


def test_every_verify_record_of_the_fixtures_follows_the_record_schema() -> None:
    validator = jsonschema.Draft202012Validator(verify_schema())
    records = [
        json.loads(line) for line in run("verify", "fixtures", "-f", "jsonl").stdout.splitlines()
    ]
    for rules in RULESETS:  # under each ruleset: its logs, and the games it cannot play
        result = run("verify", "fixtures", "-f", "jsonl", "--rules", rules)
        records += [json.loads(line) for line in result.stdout.splitlines()]
    assert {r["status"] for r in records} == set(STATUSES)
    for record in records:
        errors = list(validator.iter_errors(record))
        assert not errors, (record["file"], errors[0].message)
    array = json.loads(run("verify", "fixtures", "-f", "json").stdout)
    records_schema = {**verify_schema(), "$ref": "#/$defs/records"}
    assert jsonschema.Draft202012Validator(records_schema).is_valid(array)
    assert not jsonschema.Draft202012Validator(records_schema).is_valid([*array, {"file": "x"}])


def _set(record: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    """A deep copy of ``record`` with the value at ``path`` (keys and indexes, dotted) set."""
    changed = copy.deepcopy(record)
    *parents, last = path.split(".")
    node: Any = changed
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return changed


def test_the_schemas_refuse_what_spidercli_never_writes() -> None:
    report = replay(load_log(FIXTURES / "illegal" / "build-one-higher.yaml")).to_json()
    valid = replay(load_log(FIXTURES / "batch" / "c-expect-failed.yaml")).to_json()
    validator = jsonschema.Draft202012Validator(report_schema())
    assert validator.is_valid(report) and validator.is_valid(valid)
    for path, value in [
        ("result", "lost"),
        ("rules", "clasic"),
        ("game", "sp1-s1c-aaaaaad"),
        ("deal_id", "XYZ"),
        ("moves", -1),
        ("illegal.0.rule", "no-such-rule"),
        ("illegal.0.line", 0),
        ("state.columns.0.up.0", "1S"),
        ("state.removed", ["X"]),
        ("expect", {"ok": True, "mismatches": [{"key": "score", "expected": 1, "actual": 2}]}),
        ("surplus", 1),
    ]:
        assert not validator.is_valid(_set(report, path, value)), path
    assert not validator.is_valid(_set(valid, "expect.mismatches.0.expected", 900))  # a result
    records = jsonschema.Draft202012Validator(verify_schema())
    record = {"file": "x.yaml", "status": "illegal", **report}
    assert records.is_valid(record)
    assert not records.is_valid({**record, "status": "valid"})  # it has a refused entry
    assert not records.is_valid({**record, "status": "invalid-input"})
    unusable = {
        "file": "x.yaml",
        "status": "invalid-input",
        "error": {"message": "m", "line": None},
    }
    assert records.is_valid(unusable)
    assert not records.is_valid({**unusable, "status": "illegal"})
    assert not records.is_valid(_set(unusable, "error.line", 0))
