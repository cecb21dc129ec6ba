"""Replay a move log through the engine and build the report scripts rely on.

Like scalachess's ``Replay``, a replay that meets a refused action keeps what it has: the position
reached, the refusal (rule, cards, entry, line) and, for the text report, the board before it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from spidercli.errors import InputError, LocatedError
from spidercli.game.cards import SUITS, card_str
from spidercli.game.codes import Setup
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import CLASSIC, RULESETS, Ruleset, check_playable, ruleset_named
from spidercli.play.logtypes import Entry, MoveLog
from spidercli.play.refusals import english
from spidercli.text.messages import N_, brief, counted, message_of, shown

STOP = "stop"
SKIP = "skip"

# A log's status, as verify and the tournament report it.
VALID = "valid"
ILLEGAL = "illegal"
EXPECT_FAILED = "expect-failed"
INVALID_INPUT = "invalid-input"
STATUSES = (VALID, ILLEGAL, EXPECT_FAILED, INVALID_INPUT)


class RulesError(InputError):
    """The ruleset asked for cannot play this game (an input error: exit status 2)."""


class IllegalLogError(LocatedError):
    """A log with a refused action, where a legal game is needed (a hint, an ``expect`` block
    to record): ``path`` and ``line`` point at the refused entry, ``report`` is the replay
    (``report.illegal[0]`` the refusal), ``exit_status`` is 1, the command line's."""

    exit_status = 1  # as replay's for a refused action

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        report: Report | None = None,
    ) -> None:
        super().__init__(message, path=path, line=line)
        self.report = report


@dataclass(frozen=True)
class Illegal:
    """A refused log entry: its ``index`` in ``moves`` (1-based), its ``line``, its ``action``
    text, the ``rule`` ID that refuses it and the rule's English ``message`` (the keys of the
    JSON report's ``illegal`` items)."""

    entry: Entry
    refusal: Refusal

    @property
    def index(self) -> int:
        """The entry's 1-based position in ``moves``."""
        return self.entry.index

    @property
    def line(self) -> int:
        """The entry's 1-based line in the log."""
        return self.entry.line

    @property
    def action(self) -> str:
        """The entry's text, as the log writes it."""
        return self.entry.text

    @property
    def rule(self) -> str:
        """The rule ID that refuses it (``build-one-higher``...)."""
        return self.refusal.rule

    @property
    def message(self) -> str:
        """The refusal's sentence, in English."""
        return self.refusal.message

    @property
    def named(self) -> str:
        """The entry as messages name it: ``entry 3 `3>7``` (its text escaped and cut)."""
        return N_("entry {index} `{text}`", index=self.entry.index, text=shown(self.entry.text, 60))

    @property
    def placed(self) -> str:
        """The entry by index and line, with the rule: ``entry 3 (line 7) R05``."""
        return N_(
            "entry {index} (line {line}) {rule}",
            index=self.entry.index,
            line=self.entry.line,
            rule=self.refusal.rule,
        )

    def refused(self, then: str) -> str:
        """``entry 3 `3>7` is refused (R05): `` then ``then``."""
        return N_(
            "{entry} is refused ({rule}): {then}",
            entry=self.named,
            rule=self.refusal.rule,
            then=then,
        )

    def __repr__(self) -> str:
        text = brief(self.entry.text)
        return f"<Illegal entry {self.index} (line {self.line}) `{text}`: {self.rule}>"

    def to_json(self) -> dict[str, Any]:
        """The JSON report's ``illegal`` item."""
        return {
            "index": self.entry.index,
            "line": self.entry.line,
            "action": self.entry.text,
            "rule": self.refusal.rule,
            "message": english(self.refusal),
        }


@dataclass(frozen=True)
class Mismatch:
    """An ``expect`` entry the replay does not meet: its ``key`` (``result``, ``moves``,
    ``score`` or ``runs``), the value ``expected`` and the ``actual`` one."""

    key: str
    expected: object
    actual: object

    def __repr__(self) -> str:
        return f"<Mismatch {self.key}: expected {self.expected}, got {self.actual}>"

    def to_json(self) -> dict[str, Any]:
        """The JSON report's ``expect.mismatches`` item."""
        return {"key": self.key, "expected": self.expected, "actual": self.actual}


@dataclass(frozen=True)
class Report:
    """What a replay established: the ``log``, the ``rules`` played (its name: ``classic``; the
    ``Ruleset`` itself is ``ruleset``), the ``result`` (``won``, ``open``, ``blocked`` or
    ``resigned``), the figures (``moves``, ``score``, ``runs``, ``deals_left``), the ``actions``
    applied, the refused entries (``illegal``, a tuple), the unmet ``expect`` entries
    (``mismatches``, a tuple: None when the log has no ``expect``), whether the replay ``halted``
    at a refusal, and the verdict (``status``, ``ok``, ``exit_code``). ``to_json()`` is ``replay
    --json``'s object. Frozen: made once, at the end of the replay.

    ``game`` is the position where the replay ended (internal). When the log has no ``undo`` and
    no visitor watched, its history lacks the log's moves: what is played on it afterwards can be
    undone (``move`` then ``undo``), the log's own actions cannot."""

    log: MoveLog
    ruleset: Ruleset
    game: Game = field(repr=False)
    result: str
    actions: int  # entries applied
    illegal: tuple[Illegal, ...] = ()
    mismatches: tuple[Mismatch, ...] | None = None  # None: the log had no expect block
    halted: bool = False  # stopped at a refusal

    def __repr__(self) -> str:
        return (
            f"<Report {self.log.game or f'deal {self.log.deal_id}'} {self.rules}: "
            f"{self._verdict()}, {self.result}, {counted(self.game.moves, 'move')}, "
            f"score {self.game.score}, {counted(self.game.runs, 'run')}>"
        )

    def _verdict(self) -> str:
        """The status, and what made it: ``illegal, halted at entry 3``, ``illegal, 2 of 40
        entries refused``, ``expect-failed, 1 unmet``."""
        if self.illegal:
            if self.halted:
                return f"{ILLEGAL}, halted at entry {self.illegal[-1].index}"
            of = counted(len(self.log.entries), "entry", "entries")
            return f"{ILLEGAL}, {len(self.illegal)} of {of} refused"
        if self.mismatches:
            return f"{EXPECT_FAILED}, {len(self.mismatches)} unmet"
        return VALID

    @property
    def rules(self) -> str:
        """The name of the ruleset played (``classic``, ``duel``, ``pavouk``, ``kpat``)."""
        return self.ruleset.name

    @property
    def ok(self) -> bool:
        """Every action legal and every ``expect`` entry met (``status`` is ``valid``)."""
        return not self.illegal and not self.mismatches

    @property
    def exit_code(self) -> int:
        """``replay``'s exit status: 0 valid, 1 otherwise."""
        return 0 if self.ok else 1

    @property
    def moves(self) -> int:
        """The move counter: moves and deals (the report's ``moves``)."""
        return self.game.moves

    @property
    def score(self) -> int:
        """The score reached."""
        return self.game.score

    @property
    def runs(self) -> int:
        """The runs removed."""
        return self.game.runs

    @property
    def deals_left(self) -> int:
        """The deals still in the stock."""
        return self.game.deals_left

    @property
    def status(self) -> str:
        """``illegal``, ``expect-failed`` or ``valid``."""
        if self.illegal:
            return ILLEGAL
        if self.mismatches:
            return EXPECT_FAILED
        return VALID

    def figures(self) -> dict[str, object]:
        """The figures an ``expect`` block states: result, moves, score, runs."""
        return figures(self.result, self.game)

    def to_json(self) -> dict[str, Any]:
        """The contract's report object, keys in the contract's order."""
        return {**self._summary_json(), "state": state_json(self.game)}

    def json_text(self, **first: object) -> str:
        """``json.dumps({**first, **self.to_json()}, ensure_ascii=False)`` (verify's record: the
        file and status first), the state's cards written from ready-made pieces."""
        text = json.dumps({**first, **self._summary_json()}, ensure_ascii=False)
        return f'{text[:-1]}, "state": {state_json_text(self.game)}}}'

    def _summary_json(self) -> dict[str, Any]:
        """The report object but its last key, ``state``."""
        g = self.game
        return {
            "game": None if self.log.code is None else self.log.code.canonical,
            "deal_id": self.log.deal.deal_id,
            "rules": self.ruleset.name,
            **self.figures(),
            "deals_left": g.deals_left,
            "actions": self.actions,
            "illegal": [i.to_json() for i in self.illegal],
            "expect": None
            if self.mismatches is None
            else {"ok": not self.mismatches, "mismatches": [m.to_json() for m in self.mismatches]},
        }


def figures(result: str, game: Game) -> dict[str, object]:
    """The figures of a game that an ``expect`` block states, in its order."""
    return {"result": result, "moves": game.moves, "score": game.score, "runs": game.runs}


def state_json(game: Game) -> dict[str, Any]:
    """The contract's ``state`` object."""
    return {
        "columns": [
            {
                "down": [card_str(c) for c in game.face_down(i)],
                "up": [card_str(c) for c in game.face_up(i)],
            }
            for i in range(game.kind.columns)
        ],
        "stock": [card_str(c) for c in game.stock_left],
        "removed": [SUITS[s] for s in game.removed],
    }


# Each card as a JSON string ("5S"), for state_json_text.
_CARD_JSON = {card: json.dumps(card_str(card)) for card in range(64) if 1 <= card & 15 <= 13}


def state_json_text(game: Game) -> str:
    """``json.dumps(state_json(game), ensure_ascii=False)``, from ready-made pieces."""
    name = _CARD_JSON.__getitem__
    columns = ", ".join(
        f'{{"down": [{", ".join(map(name, col[:down]))}], '
        f'"up": [{", ".join(map(name, col[down:]))}]}}'
        for col, down in zip(game.cols, game.down, strict=True)
    )
    stock = ", ".join(map(name, game.stock_left))
    removed = ", ".join(f'"{SUITS[suit]}"' for suit in game.removed)
    return f'{{"columns": [{columns}], "stock": [{stock}], "removed": [{removed}]}}'


class Column(NamedTuple):
    """One column of a board: its face-down cards and its face-up ones, bottom to top, each
    card as the JSON writes it (``9H``, ``TS``)."""

    down: tuple[str, ...]
    up: tuple[str, ...]

    def __repr__(self) -> str:
        return f"<Column down {_cards(self.down)}, up {_cards(self.up)}>"


def _cards(cards: tuple[str, ...], most: int = 13) -> str:
    """Cards for a ``repr``: ``5H 4H JS``, ``none``, at most ``most`` of them (``+4 more``)."""
    if not cards:
        return "none"
    more = f" +{len(cards) - most} more" if len(cards) > most else ""
    return " ".join(cards[:most]) + more


@dataclass(frozen=True)
class Board:
    """The starting position a game code deals (``spidercli.deal``): the canonical code
    (``game``), the ``deal_id``, the ``columns``, the ``stock`` in dealing order and the suits of
    the runs ``removed`` (none at the start). ``to_json()`` is ``deal --json``'s object.

    ``setup`` and ``position`` are the deal and the engine's position (internal)."""

    setup: Setup
    position: Game = field(repr=False)

    def __repr__(self) -> str:
        g = self.position
        down = sum(g.down)
        return (
            f"<Board {self.game}: {counted(g.kind.columns, 'column')}, {down} face down, "
            f"{sum(map(len, g.cols)) - down} face up, {len(g.stock_left)} in stock>"
        )

    @classmethod
    def start(cls, setup: Setup) -> Board:
        """The deal's starting position (the same under every ruleset that plays it)."""
        return cls(setup, Game.from_setup(setup, CLASSIC))

    @property
    def game(self) -> str:
        """The canonical game code."""
        return str(self.setup.name)

    @property
    def deal_id(self) -> str:
        """16 hex digits naming the dealt cards."""
        return self.setup.deal_id

    @property
    def columns(self) -> tuple[Column, ...]:
        """Each column's cards, left to right."""
        g = self.position
        return tuple(
            Column(tuple(map(card_str, g.face_down(i))), tuple(map(card_str, g.face_up(i))))
            for i in range(g.kind.columns)
        )

    @property
    def stock(self) -> tuple[str, ...]:
        """The undealt cards, in the order they will be dealt."""
        return tuple(map(card_str, self.position.stock_left))

    @property
    def removed(self) -> tuple[str, ...]:
        """The suit of each removed run, in order (``S``, ``H``, ``D``, ``C``)."""
        return tuple(SUITS[s] for s in self.position.removed)

    def to_json(self) -> dict[str, Any]:
        """``deal --json``'s object: the contract's ``state``, the code and deal ID in front."""
        return {"game": self.setup.name, "deal_id": self.deal_id, **state_json(self.position)}


def choose_rules(log: MoveLog, override: str | None = None) -> Ruleset:
    """The ruleset: the command line's, else the log's, else classic; checked against the game."""
    if override is not None:
        try:
            rules = ruleset_named(override)
        except ValueError as err:
            raise RulesError(message_of(err), path=log.path) from err
        line = log.game_line
    else:
        rules = RULESETS[log.rules] if log.rules else CLASSIC
        line = log.rules_line or log.game_line
    try:
        check_playable(rules, log.deal)
    except ValueError as err:
        raise RulesError(
            N_("{error} ({deal})", error=message_of(err), deal=log.deal.name),
            path=log.path,
            line=line,
        ) from err
    return rules


class ReplayVisitor:
    """What a replay shows, in order (python-chess's ``BaseVisitor`` is the model): ``begin``
    with the starting position; for each entry, ``applied`` once it is played or ``refused``
    before the position changes; ``end`` with the position reached. Each method does nothing
    here: a visitor overrides the ones it needs."""

    def begin(self, game: Game) -> None:
        """The starting position, before any entry."""

    def applied(self, game: Game, entry: Entry) -> None:
        """``entry`` was played: ``game`` is the position after it."""

    def refused(self, game: Game, entry: Entry, refusal: Refusal) -> None:
        """``entry`` was refused: ``game`` is the position before it (unchanged)."""

    def end(self, game: Game) -> None:
        """The replay is over: ``game`` is the position reached."""


def replay(
    log: MoveLog,
    *,
    rules: Ruleset | None = None,
    on_illegal: str = STOP,
    visitor: ReplayVisitor | None = None,
) -> Report:
    """Replay ``log``, showing each step to ``visitor`` (see ``ReplayVisitor``)."""
    if rules is None:
        rules = choose_rules(log)
    game = Game.from_setup(log.deal, rules)
    if visitor is not None:
        visitor.begin(game)
    illegal: list[Illegal] = []
    applied = 0
    halted = False
    entries = log.entries
    if visitor is None:  # nothing to show between entries: the engine plays them in one loop
        actions = log.actions
        record = log.has_undo  # without an undo in the log, no move needs its undo record
        at = 0
        while True:
            stop, refusal = game.play_all(actions, at, record=record)
            applied += stop - at
            if refusal is None:
                break
            illegal.append(Illegal(entries[stop], refusal))
            if on_illegal == STOP:
                halted = True
                break
            at = stop + 1
    else:
        play = game.play
        for entry in entries:
            refusal = play(entry.action)
            if refusal is None:
                applied += 1
                visitor.applied(game, entry)
                continue
            illegal.append(Illegal(entry, refusal))
            visitor.refused(game, entry, refusal)
            if on_illegal == STOP:
                halted = True
                break
        visitor.end(game)
    mismatches = None
    if log.expect is not None:
        actual = figures(game.result, game)
        mismatches = tuple(
            Mismatch(key, want, actual[key])
            for key, want in log.expect.items()
            if actual[key] != want
        )
    return Report(log, rules, game, game.result, applied, tuple(illegal), mismatches, halted)
