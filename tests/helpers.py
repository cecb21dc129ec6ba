"""What several test modules share: the checkout's paths and fixtures, the CLI runner, positions
built by hand for the rule tests, and random game codes for the property tests."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from hypothesis import strategies as st
from typer.testing import CliRunner

from spidercli.cli.app import app
from spidercli.errors import InputError
from spidercli.game.actions import parse_action
from spidercli.game.cards import parse_card
from spidercli.game.codes import Setup, parse_code, seed_letters
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import (
    CLASSIC,
    RULESETS,
    SPIDER,
    SPIDERETTE,
    GameKind,
    Ruleset,
    check_playable,
)
from spidercli.judging.formats import FORMATS, Tally, write_verdicts
from spidercli.judging.workers import verify_all
from spidercli.logs.reader import load_log
from spidercli.play.logtypes import MoveLog
from spidercli.play.replay import choose_rules
from spidercli.solver.search import Problem, _Budget, problem_from_game
from spidercli.text.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
# The languages with a catalog: every one spidercli speaks but English, the messages' own.
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
FIXTURES = ROOT / "fixtures"
GAMES = sorted(p.name for p in FIXTURES.glob("*.yaml"))
ILLEGAL = sorted(p.stem for p in (FIXTURES / "illegal").glob("*.yaml"))
BAD = sorted(p.name for p in (FIXTURES / "bad").glob("*.yaml"))
# The logs the fast paths are compared on: the games, the batch and illegal fixtures, the attacks.
REPLAY_CORPUS = sorted(
    p
    for folder in ("fixtures", "fixtures/batch", "fixtures/illegal", "tests/hostile")
    for p in (ROOT / folder).glob("*.yaml")
)


def usable_corpus() -> Iterator[tuple[Path, MoveLog, Ruleset]]:
    """Each log of ``REPLAY_CORPUS`` that reads, with the rules it is replayed under (the logs
    refused as input are left out)."""
    for path in REPLAY_CORPUS:
        try:
            log = load_log(path)
            rules = choose_rules(log)
        except InputError:
            continue
        yield path, log, rules


def run_batch(paths: Iterable[str], out: IO[str], *, fmt: str = "table", jobs: int = 1) -> Tally:
    """Verify ``paths`` in ``jobs`` workers and write every verdict to ``out`` in the format
    ``fmt``, as ``spidercli verify`` joins its two halves; the tally."""
    found = verify_all(paths, rules=None, jobs=jobs, want_json=FORMATS[fmt].json)
    return write_verdicts(found, out, fmt=fmt)


runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})


def run(*args: str, stdin: bytes | None = None) -> Any:
    """The CLI in this process. Every test starts in the checkout's root (conftest.py), so paths
    in the output are relative and snapshots do not depend on the checkout."""
    return runner.invoke(app, list(args), input=stdin)


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def position(
    *columns: str,
    stock: str = "",
    rules: Ruleset = CLASSIC,
    game: GameKind = SPIDER,
    suits: int = 4,
    permissive: bool = False,
) -> Game:
    """Columns as ``"down cards | up cards"`` (bottom to top); missing columns hold one ``KC``.

    ``"| 9H 8H"`` is a column of two face-up cards, ``""`` an empty column, ``"5S 3H |"`` a column
    of two face-down cards. The stock is padded with ``AC`` to the game's full size.
    """
    specs = list(columns) + ["| KC"] * (game.columns - len(columns))
    cols: list[list[int]] = []
    down: list[int] = []
    for spec in specs:
        if "|" in spec:
            d, u = spec.split("|")
        else:
            d, u = "", spec
        cols.append(cards(d) + cards(u))
        down.append(len(cards(d)))
    deck = cards(stock)
    full = game.cards - sum(game.column_sizes)
    deck += cards("AC") * (full - len(deck))
    return Game(game, rules, cols, deck, suits=suits, permissive=permissive, down=down)


def play(game: Game, *texts: str) -> Refusal | None:
    """Play actions; the first refusal is returned (and stops the sequence)."""
    for text in texts:
        refusal = game.play(parse_action(text))
        if refusal is not None:
            return refusal
    return None


CODES = st.builds(
    lambda prefix, suits, rule, seed: f"{prefix}{suits}-S1{rule}-{seed_letters(seed)}",
    st.sampled_from(["SP", "SD"]),
    st.sampled_from([1, 2, 4]),
    st.sampled_from(["C", "P"]),
    st.integers(0, 26**7 - 1),
)


def new_game(code_text: str, rules_name: str) -> Game:
    """The game a code deals, under the named ruleset (classic when that one cannot play it)."""
    code = parse_code(code_text)
    rules = RULESETS[rules_name]
    try:
        check_playable(rules, Setup.from_code(code))
    except ValueError:
        rules = CLASSIC
    return Game.from_code(code, rules)


def fixture_problem(name: str, entries: int | None = None) -> Problem:
    """The solver's problem where the fixture log ``name`` stands after its first ``entries``
    entries (all of them: None), under the classic rules."""
    log = load_log(FIXTURES / name)
    game = Game.from_setup(log.deal, CLASSIC)
    for entry in log.entries[:entries]:
        assert game.play(entry.action) is None
    return problem_from_game(game)


class Boom(Exception):
    """What ``budget_raising_at`` raises."""


def budget_raising_at(call: int) -> Any:
    """A budget (``solver._Budget``, no limits) whose ``grant`` raises ``Boom`` at its ``call``-th
    call, and counts its calls (``.calls``): for a compiled search stopped from Python."""

    class Raising(_Budget):
        calls = 0

        def grant(self, done: int, more: int = 1) -> int:
            self.calls += 1
            granted = super().grant(done, more)
            if self.calls == call:
                raise Boom
            return granted

    return Raising(None, None, None, 1.0)


__all__ = [
    "BAD",
    "CLASSIC",
    "CODES",
    "FIXTURES",
    "GAMES",
    "ILLEGAL",
    "ROOT",
    "SPIDER",
    "SPIDERETTE",
    "TRANSLATED",
    "Boom",
    "budget_raising_at",
    "cards",
    "fixture_problem",
    "new_game",
    "play",
    "position",
    "rel",
    "run",
    "runner",
]


def sweep_to_end(
    codes: list[str],
    *,
    stderr: IO[str],
    stdout: IO[str] | None = None,
    output: str | None = None,
    manifest: str | None = None,
    **options: Any,
) -> int:
    """A sweep run in this process as ``spidercli sweep`` runs it (``api.sweep``, then the
    command's ``run_to_end``): the records on ``output`` (a file) or ``stdout``, the summary on
    ``stderr``; the exit status."""
    from spidercli import api
    from spidercli.cli.commands.sweep import run_to_end

    target = stdout if output is None else output
    with api.sweep(codes, output=target, manifest=manifest, **options) as run:
        return run_to_end(run, manifest is not None, stderr)
