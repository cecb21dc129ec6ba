"""``spidercli serve`` against the real server (a process on a loopback port, started once for
the module) and a real HTTP client: every endpoint, the same verdicts as ``verify -f jsonl`` on
the fixtures (good, illegal, bad) and on generated logs, and 1,000 connections at once."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import FIXTURES, ROOT
from tests.served import Server, generated_logs, open_files

YAML_FIXTURES = sorted(p for p in FIXTURES.rglob("*.y*ml") if "kpat" not in p.parts and p.is_file())


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    open_files()  # before the server starts: it inherits the limit
    served = Server("--judges", "2", "--solve-seconds", "20", "--max-states", "5000")
    try:
        yield served
    finally:
        status = served.stop()
        assert status == 0, served.lines
        assert re.search(r"stopped after answering [\d,]+ requests?", "".join(served.lines))


def _cli_records(paths: list[Path]) -> dict[str, dict[str, object]]:
    """``spidercli verify PATHS -f jsonl``'s records, by file, each named as the server names a
    request's log (``request``)."""
    done = subprocess.run(
        [sys.executable, "-m", "spidercli", "verify", "-f", "jsonl", "--jobs", "2"]
        + [str(p) for p in paths],
        capture_output=True,
        cwd=ROOT,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1, 2), done.stderr
    records = {}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        name = record["file"]
        record["file"] = "request"
        if "error" in record:
            record["error"]["message"] = record["error"]["message"].replace(name, "request", 1)
        records[name] = record
    return records


@pytest.fixture(scope="module")
def fixture_records() -> dict[str, dict[str, object]]:
    return _cli_records(YAML_FIXTURES)


@pytest.mark.parametrize("path", YAML_FIXTURES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_verify_answers_verifys_record_of_each_fixture(
    server: Server, fixture_records: dict[str, dict[str, object]], path: Path
) -> None:
    expected = fixture_records[str(path)]
    data = path.read_bytes()
    as_yaml = server.call("POST", "/v1/verify", data, {"Content-Type": "application/yaml"})
    as_json = server.post_json("/v1/verify", {"log": data.decode("utf-8", "surrogateescape")})
    status = 422 if expected["status"] == "invalid-input" else 200
    assert as_yaml.status == status, as_yaml.body
    assert as_yaml.json() == expected
    if b"\xef\xbb\xbf" not in data and b"\r" not in data:  # a JSON string carries the same text
        assert as_json.status == status
        assert as_json.json() == expected
    assert as_yaml.headers["content-type"] == "application/json"


def test_verify_answers_verifys_records_of_generated_logs(server: Server, tmp_path: Path) -> None:
    logs = generated_logs(60, seed=32)
    paths = []
    for i, text in enumerate(logs):
        paths.append(tmp_path / f"{i:03}.yaml")
        paths[-1].write_text(text)
    expected = _cli_records(paths)
    statuses = set()
    for path, text in zip(paths, logs, strict=False):
        got = server.call("POST", "/v1/verify", text)
        assert got.json() == expected[str(path)], text
        statuses.add(got.json()["status"])
    assert statuses == {"valid", "illegal", "invalid-input"}  # the logs try each
    # The batch: the same records, in order, each named by its place.
    batch = server.post_json("/v1/verify/batch", {"logs": logs})
    assert batch.status == 200
    records = batch.json()["records"]
    assert [r["file"] for r in records] == [f"request[{i}]" for i in range(len(logs))]
    for i, (record, path) in enumerate(zip(records, paths, strict=False)):
        record["file"] = "request"
        if "error" in record:
            record["error"]["message"] = record["error"]["message"].replace(
                f"request[{i}]", "request", 1
            )
        assert record == expected[str(path)]


def test_rules_override_the_logs_as_verify_rules_does(server: Server) -> None:
    path = FIXTURES / "duel-finish.yaml"
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "spidercli",
            "verify",
            "-f",
            "jsonl",
            "--rules",
            "pavouk",
            str(path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    expected = json.loads(cli.stdout)
    expected["file"] = "request"
    got = server.call("POST", "/v1/verify?rules=pavouk", path.read_bytes())
    assert got.json() == expected
    assert server.post_json("/v1/verify", {"log": path.read_text(), "rules": "pavouk"}).json() == (
        expected
    )


def test_an_unknown_ruleset_is_refused_naming_the_closest(server: Server) -> None:
    got = server.call("POST", "/v1/verify?rules=clasic", b"game: SD1-S1-AAAAAAC\nmoves: []\n")
    assert got.status == 422
    assert got.json() == {
        "error": {
            "message": "rules: unknown ruleset 'clasic' (did you mean 'classic'?); expected one "
            "of classic, duel, pavouk, kpat",
            "line": None,
        }
    }


def test_a_file_a_request_names_is_never_read(server: Server) -> None:
    """The log is the body: a path in it is text, never a file opened."""
    path = str(FIXTURES / "example-spider-1suit-117.yaml")
    got = server.post_json("/v1/verify", {"log": path})
    assert got.status == 422
    assert got.json()["status"] == "invalid-input"
    assert "won" not in got.body.decode()


@pytest.mark.parametrize(
    ("body", "content_type", "status", "says"),
    [
        (b'{"log": ', "application/json", 400, "the body is not valid JSON: Expecting value"),
        (b'{"log": "a", "log": "b"}', "application/json", 400, "duplicate key 'log'"),
        (b"[1, 2]", "application/json", 400, "must be a JSON object, not a list"),
        (b'{"lgo": "x"}', "application/json", 422, "unknown key 'lgo' (did you mean 'log'?)"),
        (b'{"log": 3}', "application/json", 422, "log: expected the log's text"),
        (b'{"log": "\xff"}', "application/json", 400, "not valid JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "application/json", 400, "not valid JSON"),
        (b"game: [unclosed\nmoves: []\n", "application/yaml", 422, "request:2: not valid YAML"),
        (b"game: SD1-S1-AAAAAAC\nmoves: [\xff]\n", "application/yaml", 422, "UTF-8"),
        (b'{"log": "moves: [\\ud800]"}', "application/json", 422, "UTF-8"),
    ],
    ids=[
        "json-cut",
        "json-duplicate",
        "json-list",
        "json-typo",
        "json-number",
        "json-not-utf8",
        "json-deep",
        "yaml",
        "yaml-not-utf8",
        "json-lone-surrogate",
    ],
)
def test_malformed_json_yaml_and_utf8_are_refused_with_the_error_object(
    server: Server, body: bytes, content_type: str, status: int, says: str
) -> None:
    got = server.call("POST", "/v1/verify", body, {"Content-Type": content_type})
    assert got.status == status
    record = got.json()
    assert says in record["error"]["message"]
    assert set(record["error"]) == {"message", "line"}
    again = server.call("GET", "/healthz")  # and the server goes on
    assert again.status == 200


def test_deal_answers_deal_json(server: Server) -> None:
    for code in ("SP2-S1C-AAAAABD", "KP2-17"):
        cli = subprocess.run(
            [sys.executable, "-m", "spidercli", "deal", code, "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        got = server.call("GET", f"/v1/deal/{code}")
        assert got.status == 200
        assert got.json() == json.loads(cli.stdout)
    bad = server.call("GET", "/v1/deal/SP9-S1C-AAAAAAA")
    assert bad.status == 422
    assert "is not a game code" in bad.json()["error"]["message"]


def test_hint_answers_hint_json_and_refuses_an_illegal_log(server: Server) -> None:
    won = FIXTURES / "spiderette-1suit-win.yaml"
    got = server.call("POST", "/v1/hint", won.read_bytes())
    assert got.status == 200
    assert got.json() == {
        "action": None,
        "reasons": ["the game is over (won)"],
        "wins_in": None,
        "deal_next": False,
    }
    illegal = FIXTURES / "illegal" / "build-one-higher.yaml"
    cli = subprocess.run(
        [sys.executable, "-m", "spidercli", "hint", str(illegal), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    expected = json.loads(cli.stdout)
    expected["error"]["message"] = expected["error"]["message"].replace(str(illegal), "request")
    got = server.call("POST", "/v1/hint", illegal.read_bytes())
    assert got.status == 422
    assert got.json() == expected


def test_deals_answers_deals_json_and_its_certificate_verifies(server: Server) -> None:
    import spidercli

    for name in ("PS4", "ps4", "PS4-17", "PS4-0017", "PS4-14934", "PS4-" + "0" * 9000 + "17"):
        got = server.call("GET", f"/v1/deals/{name}")
        assert got.status == 200, got.body
        table = spidercli.settled(name) if "-" in name else spidercli.deals(name)
        assert got.json() == table.to_json()
    log = server.call("GET", "/v1/deals/PS4-17").json()["log"]
    verified = server.post_json("/v1/verify", {"log": log}).json()
    assert (verified["status"], verified["result"]) == ("valid", "won")
    for bad, words in (
        ("KP4", "not in spidercli's table"),
        ("PS4-0", "deals 1-32000"),
        ("PS4-abc", "not a set's deal"),
        ("PS4-" + "9" * 5000, "no set has a deal numbered so high"),
        ("PS4-" + "0" * 9000 + "32001", "deals 1-32000"),  # past int()'s 4,300 digits
        ("%1b[31m", "not in spidercli's table"),
    ):
        got = server.call("GET", f"/v1/deals/{bad}")
        assert got.status == 422 and words in got.json()["error"]["message"], (bad, got.body)
        assert "\x1b" not in got.json()["error"]["message"]
    assert server.call("GET", "/v1/deals/PS4?log=1").status == 422  # it takes no parameter
    assert server.call("POST", "/v1/deals/PS4", b"").status == 405


def test_hint_fair_answers_hint_fair_json(server: Server) -> None:
    import spidercli

    text = (FIXTURES / "spider-2suit-open.yaml").read_text()
    expected = spidercli.hint(spidercli.parse_log(text, name="request"), fair=True).to_json()
    assert expected["fair"] is True and expected["action"]
    by_json = server.post_json("/v1/hint", {"log": text, "fair": True})
    assert by_json.status == 200 and by_json.json() == expected
    assert "spidercli-timeout" not in by_json.headers
    by_query = server.call("POST", "/v1/hint?fair=true", text)
    assert by_query.status == 200 and by_query.json() == expected
    plain = server.post_json("/v1/hint", {"log": text, "fair": False, "timeout": 0.2})
    assert plain.status == 200 and "fair" not in plain.json()
    nulls = server.post_json("/v1/hint", {"log": text, "fair": True, "timeout": None})
    assert nulls.status == 200 and nulls.json() == expected  # null: not given, as elsewhere
    for bad, words in (
        ({"log": text, "fair": True, "timeout": 1}, "give no timeout or max_states"),
        ({"log": text, "fair": True, "max_states": 10}, "give no timeout or max_states"),
        ({"log": text, "fair": 1}, "fair: expected true or false, not a number"),
        ({"log": text, "fair": "true"}, "fair: expected true or false, not 'true'"),
        ({"log": text, "fair": []}, "fair: expected true or false, not a list"),
    ):
        got = server.post_json("/v1/hint", bad)
        assert got.status == 422 and words in got.json()["error"]["message"], got.body
    for query in ("fair=maybe", "fair=TRUE", "fair="):
        assert server.call("POST", f"/v1/hint?{query}", text).status == 422, query
    # A JSON body carries its values: a query string beside it is refused, not dropped (the
    # hint that peeks would have been the answer to ?fair=true).
    mixed = server.call(
        "POST", "/v1/hint?fair=true", json.dumps({"log": text}),
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    assert mixed.status == 422 and "not in the query string" in mixed.json()["error"]["message"]
    batch = server.call(
        "POST", "/v1/verify/batch?rules=duel", json.dumps({"logs": [text]}),
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    assert batch.status == 422 and "not in the query string" in batch.json()["error"]["message"]
    illegal = (FIXTURES / "illegal" / "build-one-higher.yaml").read_bytes()
    assert server.call("POST", "/v1/hint?fair=1", illegal).status == 422


def test_a_deals_lookup_out_of_cpu_is_said_as_such() -> None:
    from spidercli.serve.pool import TABLE_SECONDS, DealsTask, _too_costly

    answer = _too_costly(DealsTask("PS4-17"), 2.0 + TABLE_SECONDS)
    message = json.loads(answer.body)["error"]["message"]
    assert answer.status == 422
    assert message.startswith(
        "reading the table of settled deals for 'PS4-17' took more than 7 s of CPU (this "
        "server's limit for one request, 2 s, and 5 s to read the table)"
    )


def test_hint_budget_may_be_lowered_never_raised(server: Server) -> None:
    log = (FIXTURES / "spider-2suit-open.yaml").read_text()
    lower = server.post_json("/v1/hint", {"log": log, "timeout": 0.2})
    assert lower.status == 200 and lower.headers["spidercli-timeout"] == "0.2"
    higher = server.call("POST", "/v1/hint?timeout=99999", log)
    assert higher.headers["spidercli-timeout"] == "5"  # the server's cap (--hint-seconds)
    assert server.call("POST", "/v1/hint?timeout=-1", log).status == 422
    few = server.post_json("/v1/hint", {"log": log, "max_states": 50})
    assert few.headers["spidercli-max-states"] == "50"
    assert few.json()["reasons"][-1].endswith("found in 50 positions")
    assert server.call("POST", "/v1/hint?max_states=10000000", log).headers[
        "spidercli-max-states"
    ] == ("5000")  # the server's cap (--max-states)


def test_a_hints_search_is_bounded_by_positions_too() -> None:
    """``spidercli.hint(..., max_states=N)``: the budget the server caps, the same on every
    machine."""
    import spidercli

    log = spidercli.parse_log("game: SP4-S1C-AAAAAAB\nmoves: []\n")
    first = spidercli.hint(log, timeout=60, max_states=40)
    assert first.to_json() == spidercli.hint(log, timeout=60, max_states=40).to_json()
    assert first.to_json() == {
        "action": "4>9",
        "reasons": [
            "reveals a card in column 4",
            "builds on the same suit",
            "no win found in 40 positions",
        ],
        "wins_in": None,
        "deal_next": False,
    }
    with pytest.raises(ValueError, match="max_states must be 1 or more"):
        spidercli.hint(log, max_states=0)


def test_solve_answers_solve_json_within_the_servers_budget(server: Server) -> None:
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "spidercli",
            "solve",
            "SP4-S1C-AAAAAAB",
            "--max-states",
            "300",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    expected = json.loads(cli.stdout)
    got = server.post_json("/v1/solve", {"game": "SP4-S1C-AAAAAAB", "max_states": 300})
    assert got.status == 200
    record = got.json()
    assert record.pop("seconds") >= 0 and expected.pop("seconds") >= 0
    assert record == expected
    assert got.headers["spidercli-max-states"] == "300"
    capped = server.post_json("/v1/solve", {"game": "SP4-S1C-AAAAAAB", "max_states": 10**9})
    assert capped.json()["states"] == 5000  # the server's cap (--max-states), not the request's
    assert capped.json()["result"] == "gave-up"
    assert capped.headers["spidercli-max-states"] == "5000"
    won = server.post_json(
        "/v1/solve", {"log": (FIXTURES / "example-spiderette-53.yaml").read_text()}
    )
    assert won.status == 200 and won.json()["result"] == "won"
    both = server.post_json("/v1/solve", {"game": "SD1-S1-AAAAAAC", "log": "x"})
    assert both.status == 422


def test_every_answer_follows_the_openapi_description(server: Server) -> None:
    doc = server.call("GET", "/v1/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    assert set(doc["paths"]) == {
        "/v1/verify",
        "/v1/verify/batch",
        "/v1/deal/{code}",
        "/v1/deals/{name}",
        "/v1/hint",
        "/v1/solve",
        "/v1/openapi.json",
        "/healthz",
        "/metrics",
    }
    deals = doc["paths"]["/v1/deals/{name}"]["get"]["responses"]["200"]["content"]
    for name in ("PS4", "PS4-17", "PS4-1748"):
        jsonschema.validate(
            server.call("GET", f"/v1/deals/{name}").json(), deals["application/json"]["schema"]
        )
    record = doc["components"]["schemas"]["VerifyRecord"]
    error = doc["components"]["schemas"]["Error"]
    for path in [*YAML_FIXTURES[:12], FIXTURES / "bad" / "bad-yaml.yaml"]:
        got = server.call("POST", "/v1/verify", path.read_bytes())
        jsonschema.validate(got.json(), record)
    jsonschema.validate(server.call("POST", "/v1/verify?rules=x", b"").json(), error)
    jsonschema.validate(server.call("GET", "/nowhere").json(), error)


def test_unknown_paths_and_methods_are_answered_as_json_escaped(server: Server) -> None:
    got = server.call("GET", "/v1/%3Cscript%3E%1b[31m")
    assert got.status == 404
    message = got.json()["error"]["message"]
    assert "\x1b" not in message and "\\x1b" in message
    assert got.headers["content-type"] == "application/json"
    assert got.headers["x-content-type-options"] == "nosniff"
    wrong = server.call("GET", "/v1/verify")
    assert wrong.status == 405 and wrong.headers["allow"] == "POST"
    assert "access-control-allow-origin" not in wrong.headers  # no --cors, no CORS header
    assert server.call("OPTIONS", "/v1/verify").status == 405


def test_health_and_metrics(server: Server) -> None:
    health = server.call("GET", "/healthz")
    assert health.status == 200
    assert health.json()["status"] == "ok" and health.json()["judges"] == 2
    server.call("POST", "/v1/verify", (FIXTURES / "spider-1suit-win.yaml").read_bytes())
    text = server.call("GET", "/metrics")
    assert text.headers["content-type"].startswith("text/plain; version=0.0.4")
    body = text.body.decode()
    found = re.search(
        r'^spidercli_http_requests_total\{endpoint="/v1/verify",status="200"\} (\d+)$',
        body,
        re.MULTILINE,
    )
    assert found and int(found[1]) >= 1
    assert re.search(r'^spidercli_verdicts_total\{status="valid"\} [1-9]\d*$', body, re.MULTILINE)
    bucket = r'spidercli_http_request_duration_seconds_bucket\{endpoint="/v1/verify",le="\+Inf"\}'
    assert re.search(bucket, body)
    for line in body.splitlines():  # Prometheus' text format: comments, or name{labels} value
        sample = r'[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+'
        assert line.startswith("# ") or re.fullmatch(sample, line), line


DOC = ROOT / "docs" / "serve.md"


def _curl_examples() -> list[str]:
    return [line for line in _block("sh").splitlines() if line.startswith("curl ")]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_docs_curl_examples_run_against_the_server(server: Server) -> None:
    examples = _curl_examples()
    assert len(examples) >= 5
    for example in examples:
        command = example.replace("http://127.0.0.1:8000", f"http://127.0.0.1:{server.port}")
        done = subprocess.run(
            ["sh", "-c", command], capture_output=True, cwd=ROOT, timeout=60, check=False
        )
        assert done.returncode == 0, (example, done.stderr)
        assert done.stdout.strip(), example
        if "/metrics" not in command:
            json.loads(done.stdout)


def _block(language: str) -> str:
    found = re.search(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert found is not None, language
    return found[1]


@pytest.mark.parametrize(
    ("language", "program", "file"),
    [("js", "node", "verify.mjs"), ("php", "php", "verify.php")],
)
def test_the_docs_javascript_and_php_examples_run_against_the_server(
    server: Server, tmp_path: Path, language: str, program: str, file: str
) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    script = tmp_path / file
    script.write_text(_block(language))
    env = {**os.environ, "SPIDERCLI_URL": f"http://127.0.0.1:{server.port}"}
    good = subprocess.run(
        [program, str(script), str(FIXTURES / "example-spider-1suit-117.yaml")],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert good.returncode == 0, good.stderr
    assert good.stdout == "valid 1183\n"
    bad = subprocess.run(
        [program, str(script), str(FIXTURES / "bad" / "bad-code.yaml")],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode == 2
    assert bad.stderr.startswith("request:")


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("cs", "nelze naslouchat na 127.0.0.1:{port}: "),
        ("fi", "osoitetta 127.0.0.1:{port} ei voi kuunnella: "),
    ],
)
def test_a_port_taken_is_said_in_the_language_exit_2(lang: str, says: str) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "spidercli", "serve", "--port", str(port), "--lang", lang],
            capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("spidercli: ")
    assert says.format(port=port) in done.stderr
    assert "Traceback" not in done.stderr


def test_a_cors_origin_that_would_break_a_header_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spidercli", "serve", "--port", "0", "--cors", "x\r\nSet-Cookie: a"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--cors: 'x\\x0d\\x0aSet-Cookie: a' is not an origin" in done.stderr


_SMALL = (FIXTURES / "spider-1suit-win.yaml").read_bytes()


def test_a_thousand_connections_at_once_are_all_answered(server: Server) -> None:
    if open_files() < 2100:
        pytest.skip("the limit of open files is below 2,100 and cannot be raised")
    request = (
        b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + f"Content-Length: {len(_SMALL)}\r\n\r\n".encode()
        + _SMALL
    )

    async def many() -> list[bytes]:
        pairs = await asyncio.gather(
            *(asyncio.open_connection(server.host, server.port) for _ in range(1000))
        )  # every connection open before any request is sent

        async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
            writer.write(request)
            await writer.drain()
            reply = await reader.read()
            writer.close()
            return reply

        return await asyncio.wait_for(asyncio.gather(*(one(r, w) for r, w in pairs)), 120)

    replies = asyncio.run(many())
    statuses = [reply.split(b" ", 2)[1] for reply in replies]
    assert statuses.count(b"200") == 1000, {s: statuses.count(s) for s in set(statuses)}
    assert all(b'"status": "valid"' in reply for reply in replies)
