"""``spidercli serve``'s ASGI application: the HTTP API over the front door (``spidercli.api``
and the modules ``verify`` uses), JSON in and out.

Each request is routed by its path (``ROUTES``), its body read within the limits (a size checked
from ``Content-Length`` before a byte is read, and counted as chunks come; a deadline for the
whole body; a budget of body bytes held at once), and its log judged by a judging process
(``serve_pool.Judges``), never here (and so is a lookup in the table of settled deals). What is
echoed is JSON (``json.dumps`` escapes it) in messages made safe as every message of spidercli is
(``messages.shown``). No file a request names is ever read: a log comes in the body, and its
name in every record is ``request``.

Errors are the project's JSON error object, ``{"error": {"message": ..., "line": ...}}``, in
English, as every machine format: 400 a body that is not the JSON asked for, 404 no such
endpoint, 405 a method the endpoint does not take, 408 a body that came too slowly, 413 a body
over the limit, 415 a batch not sent as JSON, 422 a log or value that cannot be used, 503 busy
or a judging process lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from spidercli import __version__, api
from spidercli.errors import InputError
from spidercli.game.rules import lookup_ruleset, unknown_ruleset
from spidercli.judging.verdict import invalid
from spidercli.serve.metrics import ENDPOINTS, Metrics
from spidercli.serve.openapi import document
from spidercli.serve.pool import (
    NAME,
    TABLE_SECONDS,
    Answer,
    Busy,
    DealsTask,
    HintTask,
    Judges,
    JudgeTask,
    SolveTask,
    VerifyTask,
)
from spidercli.text.messages import did_you_mean, error_json, quoted, shown, utf8_safe

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_FLAGS = {"true": True, "1": True, "false": False, "0": False}  # a yes or no in a query string


@dataclass(frozen=True)
class Settings:
    """The server's limits (``spidercli serve``'s options)."""

    max_bytes: int = 1 << 20  # a log's bytes (a YAML body); a JSON body may take twice that
    body_seconds: float = 30.0  # the whole body must have come within this
    cpu_seconds: float = 2.0  # a judge's CPU for one log
    hint_seconds: float = 5.0  # the most a hint's search may take
    solve_seconds: float = 10.0  # the most a solve's search may take
    max_states_cap: int = 1_000_000  # the most positions a hint's or solve's search may take
    judges: int = 2  # judging processes of each server process
    queue: int = 1024  # requests waiting for a judge, at most
    max_batch: int = 1000  # logs in one batch
    body_memory: int = 64 << 20  # bytes of request bodies held at once
    cors: str | None = None  # the origin allowed to call from a browser


class HttpError(Exception):
    """A request answered with an error: ``status``, the message, and whether the connection is
    closed after it (a body left unread)."""

    def __init__(
        self, status: int, message: str, line: int | None = None, *, close: bool = False
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.line = line
        self.close = close


class _Gone(Exception):
    """The client went away before its body came."""


class Reply(NamedTuple):
    status: int
    body: bytes
    headers: tuple[tuple[bytes, bytes], ...] = ()
    kind: bytes = b"application/json"  # the Content-Type


_JSON = b"application/json"
_YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")


def _json_text(value: object) -> bytes:
    return (utf8_safe(json.dumps(value, ensure_ascii=False)) + "\n").encode("utf-8")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"duplicate key {quoted(key)}")
        found[key] = value
    return found


class _Deadline:
    """Cancels the running task after ``seconds`` (``asyncio.timeout``, which Python 3.10 has
    not): one timer a request, no task of its own."""

    def __init__(self, seconds: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.task = task
        self.expired = False
        self.handle = asyncio.get_running_loop().call_later(seconds, self._expire)

    def _expire(self) -> None:
        self.expired = True
        self.task.cancel()

    def settle(self) -> None:
        self.handle.cancel()
        if self.expired and hasattr(self.task, "uncancel"):
            self.task.uncancel()


class App:
    """The ASGI application: ``App(settings, metrics)`` is what the server runs."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.settings = settings
        self.metrics = metrics
        self.judges = Judges(settings.judges, settings.queue, metrics)
        self.held = 0  # bytes of request bodies held now
        self.guard = 2 * settings.cpu_seconds + 5  # a judge's answer is awaited this long
        self.routes: dict[str, dict[str, Callable[[Scope, Receive], Awaitable[Reply]]]] = {
            "/v1/verify": {"POST": self.verify},
            "/v1/verify/batch": {"POST": self.batch},
            "/v1/deal/{code}": {"GET": self.deal},
            "/v1/deals/{name}": {"GET": self.deals},
            "/v1/hint": {"POST": self.hint},
            "/v1/solve": {"POST": self.solve},
            "/v1/openapi.json": {"GET": self.openapi},
            "/healthz": {"GET": self.health},
            "/metrics": {"GET": self.prometheus},
        }
        self._openapi: bytes | None = None
        cors: tuple[tuple[bytes, bytes], ...] = ()
        if settings.cors is not None:
            cors = ((b"access-control-allow-origin", settings.cors.encode("latin-1")),)
            if settings.cors != "*":
                cors += ((b"vary", b"Origin"),)
        self.cors = cors

    # ------------------------------------------------------------------------- ASGI

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        start = time.perf_counter()
        path = scope["path"]
        route = path
        if path.startswith("/v1/deal/"):
            route = "/v1/deal/{code}"
        elif path.startswith("/v1/deals/"):
            route = "/v1/deals/{name}"
        methods = self.routes.get(route)
        endpoint = ENDPOINTS.index(route) if methods is not None else len(ENDPOINTS) - 1
        method = scope["method"]
        close = False
        try:
            if methods is None:
                raise HttpError(
                    404, f"no such endpoint: {shown(path)} (see /v1/openapi.json)", close=True
                )
            handler = methods.get("GET" if method == "HEAD" else method)
            if method == "OPTIONS" and self.cors:
                reply = Reply(204, b"", self._preflight(methods))
            elif handler is None:
                allowed = ", ".join(methods).encode()
                reply = Reply(
                    405,
                    _json_text(error_json(f"{shown(path)} takes {', '.join(methods)} only", None)),
                    ((b"allow", allowed),),
                )
                close = True
            else:
                reply = await handler(scope, receive)
        except HttpError as err:
            reply = Reply(err.status, _json_text(error_json(err.message, err.line)))
            close = err.close
        except Busy:
            message = "the server is busy: every judging process is taken and the queue is full"
            reply = Reply(503, _json_text(error_json(message, None)), ((b"retry-after", b"1"),))
        except _Gone:  # nobody to answer: not counted
            return
        except Exception as err:  # a bug, not the request's fault: said, and logged
            logging.getLogger("uvicorn.error").exception("spidercli serve: internal error")
            message = f"internal error: {type(err).__name__}: {shown(str(err))}. Please report it."
            reply = Reply(500, _json_text(error_json(message, None)))
        await self._send(send, reply, close)
        self.metrics.request(endpoint, reply.status, time.perf_counter() - start)

    async def _send(self, send: Send, reply: Reply, close: bool) -> None:
        headers = [
            (b"content-type", reply.kind),
            (b"content-length", str(len(reply.body)).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"cache-control", b"no-store"),
            *reply.headers,
            *self.cors,
        ]
        if close:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": reply.status, "headers": headers})
        await send({"type": "http.response.body", "body": reply.body})

    def _preflight(self, methods: dict[str, Any]) -> tuple[tuple[bytes, bytes], ...]:
        return (
            (b"access-control-allow-methods", ", ".join([*methods, "OPTIONS"]).encode()),
            (b"access-control-allow-headers", b"Content-Type"),
            (b"access-control-max-age", b"600"),
        )

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    self.judges.start()
                except OSError as err:
                    await send({"type": "lifespan.startup.failed", "message": str(err)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.judges.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # ------------------------------------------------------------------------ bodies

    async def _body(self, scope: Scope, receive: Receive, limit: int) -> bytes:
        """The request's body: at most ``limit`` bytes (413 before reading more, from
        ``Content-Length`` or as chunks come), within ``body_seconds`` (408), within the
        budget of bytes held at once (503)."""
        length = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    raise HttpError(400, "Content-Length is not a number", close=True) from None
        if length is not None and length > limit:
            raise HttpError(413, self._too_big(limit, f"{length:,} bytes"), close=True)
        chunks: list[bytes] = []
        size = 0
        reserved = 0
        deadline = _Deadline(self.settings.body_seconds)
        try:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    raise _Gone
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    raise HttpError(
                        413, self._too_big(limit, f"more than {limit:,} bytes"), close=True
                    )
                if size > reserved:
                    want = max(size, length or 0) - reserved
                    if self.held + want > self.settings.body_memory:
                        raise Busy
                    self.held += want
                    reserved += want
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
        except asyncio.CancelledError:
            if not deadline.expired:
                raise
            seconds = self.settings.body_seconds
            raise HttpError(
                408, f"the request body did not come within {seconds:g} s", close=True
            ) from None
        finally:
            deadline.settle()
            self.held -= reserved
        return b"".join(chunks)

    def _too_big(self, limit: int, size: str) -> str:
        return f"the request body is larger ({size}) than this server's limit of {limit:,} bytes"

    def _is_json(self, scope: Scope) -> bool:
        for name, value in scope["headers"]:
            if name == b"content-type":
                kind = value.split(b";", 1)[0].strip().lower()
                return bool(kind == _JSON or kind.endswith(b"+json"))
        return False

    async def _envelope(
        self, scope: Scope, receive: Receive, keys: tuple[str, ...]
    ) -> tuple[bytes | None, dict[str, Any]]:
        """A request for one log: the log's bytes and the other values, from a JSON body
        (``{"log": ..., ...}``) or from a YAML body (the log) and the query string."""
        limit = self.settings.max_bytes
        if self._is_json(scope):
            self._no_query(scope)
            values = self._json(await self._body(scope, receive, 2 * limit + 65536), keys)
            log = values.pop("log", None)
            if log is None:
                return None, values
            if not isinstance(log, str):
                raise HttpError(422, f"log: expected the log's text (a string), not {_kind(log)}")
            return log.encode("utf-8", "surrogatepass"), values
        data = await self._body(scope, receive, limit)
        return data, self._query(scope, tuple(k for k in keys if k != "log"))

    def _no_query(self, scope: Scope) -> None:
        """A JSON body carries its values itself: a query string beside it is refused, never
        dropped (``?fair=true`` would have been lost, and the hint that peeks given)."""
        if scope.get("query_string"):
            raise HttpError(
                422,
                "a JSON body carries its values itself: give them in the JSON, not in the "
                "query string",
                close=True,
            )

    def _json(self, body: bytes, keys: tuple[str, ...]) -> dict[str, Any]:
        try:
            value = json.loads(body, object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as err:
            raise HttpError(400, f"the body is not valid JSON: {err.msg}", err.lineno) from None
        except (ValueError, RecursionError) as err:  # not UTF-8, a duplicate key, too deep
            raise HttpError(400, f"the body is not valid JSON: {shown(str(err))}") from None
        if not isinstance(value, dict):
            raise HttpError(400, f"the body must be a JSON object, not {_kind(value)}")
        for key in value:
            if key not in keys:
                hint = did_you_mean(key, keys)
                raise HttpError(
                    422, f"unknown key {quoted(key)}{hint}; expected one of {', '.join(keys)}"
                )
        return value

    def _query(self, scope: Scope, keys: tuple[str, ...]) -> dict[str, Any]:
        text = scope.get("query_string", b"").decode("latin-1")
        try:
            found = parse_qs(text, keep_blank_values=True, strict_parsing=bool(text))
        except ValueError:
            raise HttpError(
                400, f"the query string is not name=value pairs: {shown(text)}"
            ) from None
        values: dict[str, Any] = {}
        for key, given in found.items():
            if key not in keys:
                hint = did_you_mean(key, keys)
                choices = ", ".join(keys) or "none"
                raise HttpError(
                    422, f"unknown parameter {quoted(key)}{hint}; expected one of {choices}"
                )
            if len(given) > 1:
                raise HttpError(422, f"{key}: given {len(given)} times")
            values[key] = given[0]
        return values

    # ------------------------------------------------------------------------- values

    def _rules(self, values: dict[str, Any]) -> str | None:
        rules = values.get("rules")
        if rules is None:
            return None
        if not isinstance(rules, str):
            raise HttpError(422, f"rules: expected a ruleset's name, not {_kind(rules)}")
        if lookup_ruleset(rules) is None:
            raise HttpError(422, unknown_ruleset("rules", quoted(rules), rules))
        return rules

    def _flag(self, values: dict[str, Any], key: str, query: bool) -> bool:
        """A yes or no: JSON's true or false (null: not given), or in a query string true,
        false, 1 or 0."""
        value = values.get(key)
        if value is None:
            return False
        if query and value in _FLAGS:
            return _FLAGS[value]
        if query or not isinstance(value, bool):
            shown_value = quoted(value) if isinstance(value, str) else _kind(value)
            raise HttpError(422, f"{key}: expected true or false, not {shown_value}")
        return value

    def _number(self, values: dict[str, Any], key: str, cap: float) -> float:
        """A budget the request may lower, never raise: ``cap`` when not given, and when given
        above it."""
        value = values.get(key)
        if value is None:
            return cap
        if isinstance(value, str):
            text = value
            try:
                value = float(text)
            except ValueError:
                raise HttpError(422, f"{key}: expected a number, not {quoted(text)}") from None
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise HttpError(422, f"{key}: expected a positive number, not {shown(str(value))}")
        return float(min(value, cap))

    def _whole(self, values: dict[str, Any], key: str, cap: int) -> int:
        value = values.get(key)
        if value is None:
            return cap
        if isinstance(value, str):
            text = value
            try:
                value = int(text)
            except ValueError:
                raise HttpError(
                    422, f"{key}: expected a whole number, not {quoted(text)}"
                ) from None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise HttpError(
                422, f"{key}: expected a whole number, 1 or more, not {shown(str(value))}"
            )
        return min(value, cap)

    async def _ask(self, task: JudgeTask, cpu: float) -> Answer:
        answer = await self.judges.ask(task, cpu, cpu + self.guard)
        if answer.verdict is not None:
            self.metrics.verdict(answer.verdict)
        return answer

    # ---------------------------------------------------------------------- endpoints

    async def verify(self, scope: Scope, receive: Receive) -> Reply:
        data, values = await self._envelope(scope, receive, ("log", "rules"))
        if data is None:
            raise HttpError(422, "log: missing; the body is the log, or JSON with its text in log")
        rules = self._rules(values)
        s = self.settings
        answer = await self._ask(VerifyTask(data, rules, NAME, s.max_bytes), s.cpu_seconds)
        return _replied(answer)

    async def batch(self, scope: Scope, receive: Receive) -> Reply:
        s = self.settings
        if not self._is_json(scope):
            raise HttpError(
                415,
                'a batch is JSON: {"logs": ["...", ...]} (Content-Type: application/json)',
                close=True,
            )
        self._no_query(scope)
        values = self._json(
            await self._body(scope, receive, 2 * s.max_bytes + 65536), ("logs", "rules")
        )
        logs = values.get("logs")
        if not isinstance(logs, list) or not all(isinstance(log, str) for log in logs):
            raise HttpError(422, "logs: expected a list of the logs' texts (strings)")
        if not 1 <= len(logs) <= s.max_batch:
            raise HttpError(422, f"logs: {len(logs):,} logs; a batch takes 1 to {s.max_batch:,}")
        rules = self._rules(values)
        gate = asyncio.Semaphore(s.judges)

        async def one(index: int, log: str) -> str:
            task = VerifyTask(
                log.encode("utf-8", "surrogatepass"), rules, f"{NAME}[{index}]", s.max_bytes
            )
            async with gate:
                answer = await self._ask(task, s.cpu_seconds)
            if answer.status in (200, 422):
                return answer.body
            message = json.loads(answer.body)["error"]["message"]
            record = invalid(task.name, f"{task.name}: {message}", None, True).json
            assert record is not None
            return record

        records = await asyncio.gather(*(one(i, log) for i, log in enumerate(logs)))
        return Reply(200, ('{"records": [' + ", ".join(records) + "]}\n").encode("utf-8"))

    async def deal(self, scope: Scope, receive: Receive) -> Reply:
        self._query(scope, ())
        code = scope["path"][len("/v1/deal/") :]
        try:
            board = api.deal(code)
        except InputError as err:
            raise HttpError(422, str(err), err.line) from None
        return Reply(200, _json_text(board.to_json()))

    async def deals(self, scope: Scope, receive: Receive) -> Reply:
        """The settled table: a set's summary (``deals PS4 --json``) or a deal's entry (``deals
        PS4-17 --json``), by a judge as every answer that costs CPU: the first in a judge reads
        the table (some 0.5 s), within ``TABLE_SECONDS`` more than a request's budget."""
        self._query(scope, ())
        name = scope["path"][len("/v1/deals/") :]
        answer = await self._ask(DealsTask(name), self.settings.cpu_seconds + TABLE_SECONDS)
        return _replied(answer)

    async def hint(self, scope: Scope, receive: Receive) -> Reply:
        keys = ("log", "rules", "timeout", "max_states", "fair")
        data, values = await self._envelope(scope, receive, keys)
        if data is None:
            raise HttpError(422, "log: missing; the body is the log, or JSON with its text in log")
        s = self.settings
        rules = self._rules(values)
        if self._flag(values, "fair", query=not self._is_json(scope)):
            if values.get("timeout") is not None or values.get("max_states") is not None:
                raise HttpError(
                    422,
                    "fair: the fair hint's budget is its own count of positions, the same on "
                    "every machine; give no timeout or max_states with it",
                )
            task = HintTask(data, rules, NAME, s.max_bytes, 0.0, 0, fair=True)
            answer = await self._ask(task, s.cpu_seconds)
            return _replied(answer)
        timeout = self._number(values, "timeout", s.hint_seconds)
        states = self._whole(values, "max_states", s.max_states_cap)
        task = HintTask(data, rules, NAME, s.max_bytes, timeout, states)
        answer = await self._ask(task, s.cpu_seconds + timeout)
        return _replied(answer, _budget(timeout, states))

    async def solve(self, scope: Scope, receive: Receive) -> Reply:
        keys = ("game", "log", "rules", "timeout", "max_states")
        data, values = await self._envelope(scope, receive, keys)
        s = self.settings
        game = values.get("game")
        if (game is None) == (data is None):
            raise HttpError(422, "give the deal to solve as game (a game code) or as log, not both")
        if game is not None and not isinstance(game, str):
            raise HttpError(422, f"game: expected a game code (a string), not {_kind(game)}")
        rules = self._rules(values)
        timeout = self._number(values, "timeout", s.solve_seconds)
        states = self._whole(values, "max_states", s.max_states_cap)
        task = SolveTask(game, data, rules, NAME, s.max_bytes, timeout, states)
        answer = await self._ask(task, s.cpu_seconds + timeout)
        return _replied(answer, _budget(timeout, states))

    async def openapi(self, scope: Scope, receive: Receive) -> Reply:
        if self._openapi is None:
            self._openapi = _json_text(document(asdict(self.settings)))
        return Reply(200, self._openapi)

    async def health(self, scope: Scope, receive: Receive) -> Reply:
        alive = len(self.judges.judges)
        state = "ok" if alive else "no judging process"
        value = {"status": state, "version": __version__, "judges": alive}
        return Reply(200 if alive else 503, _json_text(value))

    async def prometheus(self, scope: Scope, receive: Receive) -> Reply:
        kind = b"text/plain; version=0.0.4; charset=utf-8"  # Prometheus' text format
        return Reply(200, self.metrics.text().encode("utf-8"), kind=kind)


def _replied(answer: Answer, headers: tuple[tuple[bytes, bytes], ...] = ()) -> Reply:
    """A judge's answer as the reply: its status, and its JSON as a line."""
    return Reply(answer.status, (answer.body + "\n").encode("utf-8"), headers)


def _budget(timeout: float, states: int) -> tuple[tuple[bytes, bytes], ...]:
    """The headers that say the budget a search had (a hint's or a solve's)."""
    return (
        (b"spidercli-timeout", f"{timeout:g}".encode()),
        (b"spidercli-max-states", str(states).encode()),
    )


def _kind(value: object) -> str:
    """A JSON value's kind, as a message names it."""
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)
