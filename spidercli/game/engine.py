"""The rules engine: a game position, each action's legality, its effects, and undo.

It knows nothing of YAML, files or the command line. ``Game.play(action)`` either applies the
action and returns ``None``, or changes nothing and returns the ``Refusal`` naming the one rule
that blocks it (the first, in the rule book's order, where several apply).

Columns are 0-based in every method of ``Game`` (``check_move(s, t, k)``, ``move``, ``flip``,
``face_up``, ``legal_moves`` ...); only the actions (``Move``, ``Flip``, ``Tap``) carry the log's
1-based numbers, as written. Columns are lists of cards, bottom to top, and ``down[c]`` counts the
face-down cards at the bottom of column ``c``. Cards are ints (see ``cards``): the rank is
``card & 15``, and ``b == a - 1`` says that ``b`` goes on ``a`` in a one-suit run.

A refusal is facts, not words (``Refusal``: the rule, the cards, a column or a count);
``spidercli.play.refusals`` words them, in every language.

The reference path, and its two copies. Each action has one general check and one effect:
``check_move`` (``_check_group``, ``_check_target``, ``_infer_count``) then ``move``;
``check_deal`` then ``deal``; ``check_flip`` then ``flip``; ``check_undo`` then ``undo``; ``play``
dispatches to them and names every refusal. What a group may move is asked of
``groups.movable_length`` (its one Python home, which the solver asks too); which column takes a
group, of ``_takes``, which a move (``_check_target``) and a tap (``tap_target``) both ask. Two
copies of the accepting path of a move buy measured speed (``make bench``), and each is kept
equal to its general twin by a test (and both to ``groups.movable_length`` by
``tests/test_groups.py``, over random columns):

- ``_plainly_legal``: ``check_move``'s accepting path in one function, used by ``play`` for a
  ``Move``; it returns the card count, or 0 for any doubt (then ``check_move`` decides and names
  the refusal). Kept equal by ``tests/test_fused_move.py`` (against ``check_move`` then
  ``move``, every move from random positions under every ruleset).
- ``play_all``: ``check_move``'s accepting path and ``move``'s effects inlined in one loop (and
  ``check_deal``'s test before ``deal``), for a whole log; anything doubtful goes through
  ``play``. Kept equal by ``tests/test_play_all.py`` (against ``play`` one action at a time:
  the same refusals, position, score, history) and the differential fuzzer
  (``tests/fuzz_fastpaths.py``, whose ``general_paths()`` swaps both copies out at once).

A change to what a move may do changes ``groups.movable_length``, ``_takes``, ``_infer_count``
or ``move``, then both copies, and those tests tell whether they still agree. The solver has its
own move generators and compiled passes (``solver/search.py``, ``solver/beam.py``, ``_beam.c``,
``_proof.c``): see docs/architecture.md, "Change a legality rule".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from spidercli.game.actions import Action, Deal, Finish, Flip, Move, Tap, Undo
from spidercli.game.cards import card_str, make_card
from spidercli.game.codes import GameCode, Layout, Setup, deal_layout
from spidercli.game.groups import movable_length
from spidercli.game.rules import GameKind, Ruleset

# Rule IDs, in the rule book's order of precedence.
GAME_OVER: Final = "game-over"
NO_SUCH_COLUMN: Final = "no-such-column"
SAME_COLUMN: Final = "same-column"
EMPTY_SOURCE: Final = "empty-source"
FACE_DOWN_CARD: Final = "face-down-card"
GROUP_NOT_DESCENDING: Final = "group-not-descending"
GROUP_MIXED_SUITS: Final = "group-mixed-suits"
BUILD_ONE_HIGHER: Final = "build-one-higher"
NO_TARGET: Final = "no-target"
STOCK_EMPTY: Final = "stock-empty"
DEAL_EMPTY_COLUMN: Final = "deal-empty-column"
FLIP_AUTOMATIC: Final = "flip-automatic"
NOTHING_TO_FLIP: Final = "nothing-to-flip"
NOTHING_TO_UNDO: Final = "nothing-to-undo"
UNDO_AFTER_FLIP: Final = "undo-after-flip"
UNDO_AFTER_DEAL: Final = "undo-after-deal"

RULE_IDS: Final = (
    GAME_OVER,
    NO_SUCH_COLUMN,
    SAME_COLUMN,
    EMPTY_SOURCE,
    FACE_DOWN_CARD,
    GROUP_NOT_DESCENDING,
    GROUP_MIXED_SUITS,
    BUILD_ONE_HIGHER,
    NO_TARGET,
    STOCK_EMPTY,
    DEAL_EMPTY_COLUMN,
    FLIP_AUTOMATIC,
    NOTHING_TO_FLIP,
    NOTHING_TO_UNDO,
    UNDO_AFTER_FLIP,
    UNDO_AFTER_DEAL,
)

WON: Final = "won"
RESIGNED: Final = "resigned"
BLOCKED: Final = "blocked"
OPEN: Final = "open"

# The cards of a complete run, King to Ace, for each suit.
_RUNS: Final = tuple([make_card(r, s) for r in range(13, 0, -1)] for s in range(4))
# _RUN_FROM[card][k]: the k cards of one suit descending from ``card`` (None past its Ace); k
# from 0 to 13 (no run is longer).
_RUN_FROM: Final = [
    [[card - i for i in range(k)] if 1 <= k <= card & 15 else None for k in range(14)]
    for card in range(64)
]


class RunRecord(NamedTuple):
    """A run removed after an action: its column (0-based), its suit, and whether the card it
    uncovered turned up by itself."""

    column: int
    suit: int
    flipped: bool


class MoveRecord(NamedTuple):
    """A move in the history: the score and counter before it, and what undoing it needs."""

    score: int
    moves: int
    source: int  # 0-based columns
    target: int
    size: int  # cards moved
    flipped: bool  # the source's new last card turned up by itself
    run: RunRecord | None


class DealRecord(NamedTuple):
    """A deal in the history: the score and counter before it, the cards dealt, the runs."""

    score: int
    moves: int
    dealt: int
    runs: list[RunRecord]


class FlipRecord(NamedTuple):
    """A manual flip in the history: the score and counter before it, the column (0-based)."""

    score: int
    moves: int
    column: int


HistoryRecord = MoveRecord | DealRecord | FlipRecord
_new_record = tuple.__new__


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse an action, as facts: the rule ID, the cards it names, and the few
    other facts its sentence needs. The engine holds no sentence: ``spidercli.play.refusals``
    words a refusal from these facts, in every language (English included), and ``message`` is
    its English (see ``word_refusals``).

    ``facts`` by rule (columns as the log numbers them, from 1):

    ========================  =================================  ===============================
    rule                      cards                              facts
    ========================  =================================  ===============================
    ``game-over``                                                the result (``won``, ``resigned``)
    ``no-such-column``                                           the number, the columns there are
    ``same-column``                                              the column
    ``empty-source``                                             the column, its face-down cards
    ``face-down-card``        the column's face-up cards         the column, the count asked for
    ``group-not-descending``  the group                          (none)
    ``group-mixed-suits``     the group                          (none)
    ``build-one-higher``      the group's first card, the        (none); for ``S>T`` (the count
                              target's last; for ``S>T``: the    inferred): the source column
                              source's run, the target's last
    ``no-target``             the group                          (none)
    ``stock-empty``                                              (none)
    ``deal-empty-column``                                        the first empty column
    ``flip-automatic``                                           the ruleset's name
    ``nothing-to-flip``       the column's last card (none when  the column
                              it is empty)
    ``nothing-to-undo``                                          (none) when nothing was played;
                                                                 else the ruleset, its undo depth
    ``undo-after-flip``                                          the ruleset's name
    ``undo-after-deal``                                          the ruleset's name
    ========================  =================================  ===============================
    """

    rule: str
    cards: tuple[int, ...] = ()
    facts: tuple[int | str, ...] = ()

    @property
    def message(self) -> str:
        """The refusal's English sentence, as the words module installed by ``word_refusals``
        says it (``spidercli.play.refusals`` installs itself when imported); without one, the cards
        and the facts (``cards 7H 9S``)."""
        if _wording is None:
            parts = [f"cards {' '.join(map(card_str, self.cards))}"] if self.cards else []
            parts += [f"facts {', '.join(map(str, self.facts))}"] if self.facts else []
            return "; ".join(parts) or "-"
        return _wording(self)

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


# The English wording of refusals, installed from above (the engine imports no words module).
_wording: Callable[[Refusal], str] | None = None


def word_refusals(wording: Callable[[Refusal], str]) -> None:
    """Say ``Refusal.message`` (and so ``str`` of a refusal and of ``IllegalActionError``) with
    ``wording``: ``spidercli.play.refusals`` calls this when it is imported."""
    global _wording
    _wording = wording


class IllegalActionError(ValueError):
    """Raised by ``Game.apply`` for an action the rules refuse; its ``str`` is the action and
    the refusal (worded when it is read, not when it is raised)."""

    def __init__(self, action: Action, refusal: Refusal) -> None:
        super().__init__(action, refusal)
        self.action = action
        self.refusal = refusal

    def __str__(self) -> str:
        return f"{self.action}: {self.refusal}"


class Game:
    """A game in progress under one ruleset: the cards, the score, the counter and the history."""

    __slots__ = (
        "_auto_flip",
        "_deal_offsets",
        "_fd_empty",
        "_floor",
        "_ncols",
        "_win_runs",
        "cols",
        "deals_done",
        "down",
        "history",
        "kind",
        "moves",
        "over",
        "permissive",
        "removed",
        "rules",
        "score",
        "stock",
        "suits",
        "undoable",
    )

    def __init__(
        self,
        game: GameKind,
        rules: Ruleset,
        columns: Sequence[Sequence[int]],
        stock: Sequence[int],
        *,
        suits: int,
        permissive: bool = False,
        down: Sequence[int] | None = None,
    ) -> None:
        """A position: ``columns`` bottom to top; ``down`` defaults to all but the last card."""
        if len(columns) != game.columns:
            raise ValueError(f"{game.title} has {game.columns} columns, not {len(columns)}")
        if permissive and suits > 1 and "permissive" not in rules.move_rules:
            # rules.check_playable refuses such a deal as input, with the reason for people.
            raise ValueError(f"ruleset {rules.name!r} plays the classic move rule only")
        self.kind = game
        self.rules = rules
        self.suits = suits
        self.permissive = permissive and suits > 1
        self.cols: list[list[int]] = [list(c) for c in columns]
        self.down: list[int] = (
            [max(len(c) - 1, 0) for c in self.cols] if down is None else list(down)
        )
        self.stock: list[int] = list(stock)
        self.deals_done = 0
        offsets = [0]
        for size in game.deal_sizes:
            offsets.append(offsets[-1] + size)
        self._deal_offsets = tuple(offsets)
        self.removed: list[int] = []
        self.score = rules.start_score
        self.moves = 0
        self.over: str | None = None
        # Every applied action's record, for the exact inverse; ``undoable`` is how many of the
        # latest the player may still undo (the ruleset's undo depth caps it).
        self.history: list[HistoryRecord] = []
        self.undoable = 0
        self._ncols = game.columns
        self._floor = rules.floor_for(game)
        self._auto_flip = rules.auto_flip
        self._fd_empty = rules.face_down_column_is_empty
        self._win_runs = game.runs_to_win

    @classmethod
    def from_layout(
        cls, layout: Layout, rules: Ruleset, *, suits: int, permissive: bool = False
    ) -> Game:
        return cls(
            layout.game,
            rules,
            layout.columns,
            layout.stock,
            suits=suits,
            permissive=permissive,
        )

    @classmethod
    def from_setup(cls, deal: Setup, rules: Ruleset) -> Game:
        """The starting position of a deal (from a code or written out)."""
        return cls.from_layout(deal.layout, rules, suits=deal.suits, permissive=deal.permissive)

    @classmethod
    def from_code(cls, code: GameCode, rules: Ruleset) -> Game:
        """The starting position the code deals (S1, or the app's own deal for KP and PS)."""
        return cls.from_layout(
            deal_layout(code), rules, suits=code.suits, permissive=code.permissive
        )

    # ----------------------------------------------------------------- reading the position

    @property
    def deals_left(self) -> int:
        return len(self.kind.deal_sizes) - self.deals_done

    @property
    def stock_left(self) -> list[int]:
        """The undealt cards, in the order they will be dealt."""
        return self.stock[self._deal_offsets[self.deals_done] :]

    @property
    def runs(self) -> int:
        return len(self.removed)

    def face_up(self, column: int) -> list[int]:
        """Column ``column``'s (0-based) face-up cards, bottom to top."""
        return self.cols[column][self.down[column] :]

    def face_down(self, column: int) -> list[int]:
        return self.cols[column][: self.down[column]]

    @property
    def result(self) -> str:
        """``won``, ``resigned``, ``blocked`` (no move, deal or flip is legal) or ``open``."""
        if self.over is not None:
            return self.over
        return OPEN if self.has_legal_action() else BLOCKED

    def all_cards(self) -> list[int]:
        """Every card still in play or removed, for conservation checks."""
        cards = [c for col in self.cols for c in col]
        cards.extend(self.stock_left)
        for suit in self.removed:
            cards.extend(_RUNS[suit])
        return cards

    def key(self) -> tuple[object, ...]:
        """Everything that defines the position and its future, as a hashable value."""
        return (
            tuple(tuple(c) for c in self.cols),
            tuple(self.down),
            self.deals_done,
            tuple(self.removed),
            self.score,
            self.moves,
            self.over,
        )

    # ---------------------------------------------------------------------- the public API

    def play(self, action: Action) -> Refusal | None:
        """Apply ``action`` and return None, or return why it is refused (nothing changes)."""
        if type(action) is Move:  # the usual action first, checked and applied in one place
            k = self._plainly_legal(action)
            if k:
                self.move(action.source - 1, action.target - 1, k)
                if self.undoable < self.rules.undo_depth:
                    self.undoable += 1
                return None
            # anything doubtful: the whole check below, which names the refusal
        if isinstance(action, Undo):
            refusal = self.check_undo()
            if refusal is None:
                self.undo()
                self.undoable -= 1
            return refusal
        if isinstance(action, Finish):
            if self.over is not None:
                return self._game_over()
            self.over = RESIGNED
            return None
        if isinstance(action, Move):
            refusal = self._play_move(action)
        elif isinstance(action, Deal):
            refusal = self._play_deal()
        elif isinstance(action, Tap):
            refusal = self._play_tap(action)
        elif isinstance(action, Flip):
            refusal = self._play_flip(action)
        else:
            raise TypeError(f"not an action: {action!r}")
        if refusal is None and self.undoable < self.rules.undo_depth:
            self.undoable += 1
        return refusal

    def play_all(
        self, actions: Sequence[Action], start: int = 0, *, record: bool = True
    ) -> tuple[int, Refusal | None]:
        """Play ``actions[start:]`` in order up to the first one refused: return its index and
        its refusal, or ``(len(actions), None)`` when every one was applied. The same as calling
        ``play`` on each in turn, only faster: a plainly legal move is checked and applied here,
        in one loop; every other action (and any move in doubt) goes through ``play``. The loop
        is ``check_move``'s twin: its group check (``groups.movable_length``) and target rule
        (``_takes``) inline, held equal by ``tests/test_play_all.py`` and
        ``tests/test_groups.py``.

        ``record=False`` keeps no undo record of those moves, for a caller that knows no undo
        follows (verifying a log without one): the position, score, counter and everything else
        are the same, but the history lacks these moves, so ``undo`` must not be used after. An
        ``Undo`` among ``actions`` is then a ``ValueError``."""
        cols = self.cols
        down = self.down
        n = self._ncols
        rules = self.rules
        depth = rules.undo_depth
        move_score = rules.move_score
        same_suit_score = rules.same_suit_score
        flip_score = rules.flip_score
        # Without a floor, one below any score a game can reach: the same test serves.
        floor = -(1 << 62) if self._floor is None else self._floor
        auto_flip = self._auto_flip
        fd_empty = self._fd_empty
        permissive = self.permissive
        keep = self.history.append if record else None
        new_record = _new_record
        run_from = _RUN_FROM
        deals = len(self.kind.deal_sizes)
        empty_ok = rules.deal_with_empty_column
        # The score, counter and undo count live in locals here, written back to the game
        # before anything else reads them (play, _take_run, the return).
        score = self.score
        moves = self.moves
        undoable = self.undoable
        over = self.over
        end = len(actions)
        for i in range(start, end):
            action = actions[i]
            if type(action) is Move and over is None:
                # check_move's accepting path (as _plainly_legal), then move's effects inline;
                # anything doubtful goes through play below.
                s = action.source - 1
                t = action.target - 1
                if s != t and 0 <= s < n and 0 <= t < n:
                    src = cols[s]
                    dst = cols[t]
                    m = len(src)
                    ds = down[s]
                    dl = len(dst)
                    k = action.count
                    if permissive or not dl or (fd_empty and down[t] == dl):
                        # The permissive rule (a run of any suits) or a target that takes
                        # anything: the run walked card by card, as movable_length and
                        # _infer_count walk it.
                        anything = not dl or (fd_empty and down[t] == dl)
                        if m == ds:
                            k = 0
                        elif k is None:
                            need = 0 if anything else (dst[-1] & 15) - 1  # 0: the whole run
                            j = m - 1
                            first = src[j]
                            while first & 15 != need and j > ds:
                                below = src[j - 1]
                                if below != first + 1 and (
                                    not permissive or below & 15 != (first & 15) + 1
                                ):
                                    break
                                j -= 1
                                first = below
                            k = m - j if anything or first & 15 == need else 0
                        elif 1 <= k <= m - ds:
                            first = src[m - k]
                            if not anything and dst[-1] & 15 != (first & 15) + 1:
                                k = 0
                            elif permissive:
                                rank = first & 15
                                for j in range(m - k + 1, m):
                                    rank -= 1
                                    if src[j] & 15 != rank:
                                        k = 0
                                        break
                            elif k > 13 or src[m - k :] != run_from[first][k]:
                                k = 0
                        else:
                            k = 0
                        if k:
                            group = src[m - k :]
                    elif k is None:  # S>T: the run down from the card one below the target's
                        k = (dst[-1] & 15) - (src[-1] & 15) if m > ds else 0
                        if 0 < k <= m - ds:
                            first = src[-1] + k - 1  # if it is a one-suit run, as it must be
                            group = src[m - k :]
                            if group != run_from[first][k]:
                                k = 0
                        else:
                            k = 0
                    elif 1 <= k <= m - ds:  # S>T:K
                        first = src[m - k]
                        group = src[m - k :]
                        if (
                            k > 13
                            or dst[-1] & 15 != (first & 15) + 1
                            or group != run_from[first][k]
                        ):
                            k = 0
                    else:
                        k = 0
                    if k:  # move(s, t, k), inline
                        prev_score = score
                        if move_score:
                            score += move_score
                            if score < floor:
                                score = floor
                        if same_suit_score and dl > down[t] and dst[-1] == first + 1:
                            score += same_suit_score * k
                            if score < floor:
                                score = floor
                        dst += group
                        del src[m - k :]
                        if ds == m - k and ds and auto_flip:
                            down[s] = ds - 1
                            flipped = True
                            if flip_score:
                                score += flip_score
                                if score < floor:
                                    score = floor
                        else:
                            flipped = False
                        if group[-1] & 15 == 1 and len(dst) - down[t] >= 13:
                            self.score = score
                            run = self._take_run(t)
                            score = self.score
                            over = self.over
                        else:
                            run = None
                        if keep is not None:
                            keep(new_record(MoveRecord, (prev_score, moves, s, t, k, flipped, run)))
                        moves += 1
                        if undoable < depth:
                            undoable += 1
                        continue
            elif type(action) is Deal:
                if over is None and self.deals_done < deals and (empty_ok or all(cols)):
                    # check_deal passes: deal, as play does, without its dispatch
                    self.score = score
                    self.moves = moves
                    self.deal()
                    score = self.score
                    moves = self.moves
                    over = self.over
                    if undoable < depth:
                        undoable += 1
                    continue
            elif keep is None and type(action) is Undo:
                raise ValueError("an undo among actions played with record=False")
            self.score = score
            self.moves = moves
            self.undoable = undoable
            refusal = self.play(action)
            score = self.score
            moves = self.moves
            undoable = self.undoable
            over = self.over
            if refusal is not None:
                return i, refusal
        self.score = score
        self.moves = moves
        self.undoable = undoable
        return end, None

    def apply(self, action: Action) -> None:
        """Like ``play``, but raise ``IllegalActionError`` for a refused action."""
        refusal = self.play(action)
        if refusal is not None:
            raise IllegalActionError(action, refusal)

    # --------------------------------------------------------------------- checks (refusals)

    def _plainly_legal(self, action: Move) -> int:
        """The card count K that ``check_move`` would return for ``S>T[:K]``, or 0 for any
        doubt (then ``check_move`` decides): its accepting path in one function, its twin's
        group check (``groups.movable_length``) and target rule (``_takes``) inline, held equal
        by ``tests/test_fused_move.py`` and ``tests/test_groups.py``."""
        k = action.count
        s = action.source - 1
        t = action.target - 1
        n = self._ncols
        if self.over is not None or s == t or not (0 <= s < n and 0 <= t < n):
            return 0
        col = self.cols[s]
        m = len(col)
        if k is None:
            if self.down[s] == m:
                return 0
            inferred = self._infer_count(s, t)
            if isinstance(inferred, Refusal):
                return 0
            k = inferred
        if not 1 <= k <= m - self.down[s]:
            return 0
        first = col[m - k]
        rank = first & 15
        if self.permissive:
            for i in range(m - k + 1, m):
                rank -= 1
                if col[i] & 15 != rank:
                    return 0
        else:
            for i in range(m - k + 1, m):
                rank -= 1
                if col[i] & 15 != rank or col[i] >> 4 != first >> 4:
                    return 0
        dst = self.cols[t]
        if not dst or (self._fd_empty and self.down[t] == len(dst)):
            return k
        return k if dst[-1] & 15 == (first & 15) + 1 else 0

    def _game_over(self) -> Refusal:
        return Refusal(GAME_OVER, (), (self.over or RESIGNED,))  # over: won or resigned

    def _no_column(self, number: int) -> Refusal:
        return Refusal(NO_SUCH_COLUMN, (), (number, self._ncols))

    def _takes_anything(self, t: int) -> bool:
        """An empty column (or, where the rules say so, one of only face-down cards)."""
        col = self.cols[t]
        return not col or (self._fd_empty and self.down[t] == len(col))

    def movable_length(self, s: int) -> int:
        """How many cards at the end of column ``s`` (0-based) can move together
        (``groups.movable_length``, the rule's one home)."""
        return movable_length(self.cols[s], self.down[s], self.permissive)

    def _empty_source(self, s: int) -> Refusal:
        return Refusal(EMPTY_SOURCE, (), (s + 1, self.down[s]))

    def _check_group(self, s: int, k: int) -> Refusal | None:
        """The source checks: empty-source, face-down-card, descending, one suit (what a group
        may move: ``groups.movable_length``, asked of the last ``k`` cards alone)."""
        col = self.cols[s]
        up = len(col) - self.down[s]
        if up == 0:
            return self._empty_source(s)
        if k < 1 or k > up:
            return Refusal(FACE_DOWN_CARD, tuple(col[-up:]), (s + 1, k))
        n = len(col)
        if k > 1:
            if movable_length(col, n - k, True) < k:
                return Refusal(GROUP_NOT_DESCENDING, tuple(col[n - k :]))
            if not self.permissive and movable_length(col, n - k, False) < k:
                return Refusal(GROUP_MIXED_SUITS, tuple(col[n - k :]))
        return None

    def _takes(self, t: int, first: int) -> bool:
        """The target rule: column ``t`` takes a group whose first card is ``first`` (its last
        card one rank higher, or a column that takes anything). ``_check_target`` (for a move)
        and ``tap_target`` (for a tap) both ask it."""
        return self._takes_anything(t) or (self.cols[t][-1] & 15) == (first & 15) + 1

    def _check_target(self, s: int, t: int, k: int) -> Refusal | None:
        first = self.cols[s][-k]
        if self._takes(t, first):
            return None
        return Refusal(BUILD_ONE_HIGHER, (first, self.cols[t][-1]))

    def _infer_count(self, s: int, t: int) -> int | Refusal:
        """``S>T``: the contract's inference of K: the card one rank below the target's last,
        looked for in the source's descending run (``groups.movable_length`` under the
        permissive rule: the group's suits are ``_check_group``'s to check)."""
        if self._takes_anything(t):
            return self.movable_length(s)
        col = self.cols[s]
        n = len(col)
        last = self.cols[t][-1]
        k = (last & 15) - (col[-1] & 15)  # the count that puts a card one rank below ``last`` first
        if 1 <= k <= n - self.down[s] and movable_length(col, n - k, True) == k:
            return k
        run = movable_length(col, self.down[s], True)
        return Refusal(BUILD_ONE_HIGHER, (*col[n - run :], last), (s + 1,))

    def check_move(self, s: int, t: int, count: int | None) -> Refusal | int:
        """Check moving the last ``count`` cards of column ``s`` onto column ``t`` (0-based, as
        every public method here; ``count`` None: inferred as ``S>T`` does); return the refusal,
        or the card count. A column out of range is refused under its log number (``s + 1``)."""
        if self.over is not None:
            return self._game_over()
        n = self._ncols
        if not 0 <= s < n:
            return self._no_column(s + 1)
        if not 0 <= t < n:
            return self._no_column(t + 1)
        if s == t:
            return Refusal(SAME_COLUMN, (), (s + 1,))
        if count is None:
            if self.down[s] == len(self.cols[s]):
                return self._empty_source(s)
            inferred = self._infer_count(s, t)
            if isinstance(inferred, Refusal):
                return inferred
            count = inferred
        return self._check_group(s, count) or self._check_target(s, t, count) or count

    def _play_move(self, action: Move) -> Refusal | None:
        checked = self.check_move(action.source - 1, action.target - 1, action.count)
        if isinstance(checked, Refusal):
            return checked
        self.move(action.source - 1, action.target - 1, checked)
        return None

    def tap_target(self, s: int, k: int) -> int | None:
        """The best column (0-based) for the last ``k`` cards of column ``s``, if any: among
        the columns the target rule lets take them (``_takes``, which ``_check_target`` asks for
        a move), the first whose last card is one higher of the same suit, else the first one
        rank higher, else the first that takes anything."""
        cols = self.cols
        first = cols[s][-k]
        any_suit = anything = None
        for t in range(self._ncols):
            if t == s or not self._takes(t, first):
                continue
            if self._takes_anything(t):
                if anything is None:
                    anything = t
            elif cols[t][-1] == first + 1:
                return t
            elif any_suit is None:
                any_suit = t
        return any_suit if any_suit is not None else anything

    def _play_tap(self, action: Tap) -> Refusal | None:
        if self.over is not None:
            return self._game_over()
        if not 1 <= action.source <= self._ncols:
            return self._no_column(action.source)
        s = action.source - 1
        k = action.count
        if k is None:
            k = self.movable_length(s)
            if k == 0:
                k = 1  # let the source check name the reason
        refusal = self._check_group(s, k)
        if refusal is not None:
            return refusal
        t = self.tap_target(s, k)
        if t is None:
            return Refusal(NO_TARGET, tuple(self.cols[s][-k:]))
        self.move(s, t, k)
        return None

    def check_deal(self) -> Refusal | None:
        if self.over is not None:
            return self._game_over()
        if self.deals_done >= len(self.kind.deal_sizes):
            return Refusal(STOCK_EMPTY)
        if not self.rules.deal_with_empty_column:
            for c, col in enumerate(self.cols):
                if not col:
                    return Refusal(DEAL_EMPTY_COLUMN, (), (c + 1,))
        return None

    def _play_deal(self) -> Refusal | None:
        refusal = self.check_deal()
        if refusal is not None:
            return refusal
        self.deal()
        return None

    def check_flip(self, c: int) -> Refusal | None:
        """Check turning column ``c``'s face-down last card (0-based; a column out of range is
        refused under its log number, ``c + 1``)."""
        if self.over is not None:
            return self._game_over()
        if not 0 <= c < self._ncols:
            return self._no_column(c + 1)
        if self._auto_flip:
            return Refusal(FLIP_AUTOMATIC, (), (self.rules.name,))
        col = self.cols[c]
        if not col:
            return Refusal(NOTHING_TO_FLIP, (), (c + 1,))
        if self.down[c] < len(col):
            return Refusal(NOTHING_TO_FLIP, (col[-1],), (c + 1,))
        return None

    def _play_flip(self, action: Flip) -> Refusal | None:
        refusal = self.check_flip(action.column - 1)
        if refusal is not None:
            return refusal
        self.flip(action.column - 1)
        return None

    def check_undo(self) -> Refusal | None:
        if self.over is not None:
            return self._game_over()
        if not self.undoable:
            if not self.history:
                return Refusal(NOTHING_TO_UNDO)
            return Refusal(NOTHING_TO_UNDO, (), (self.rules.name, self.rules.undo_depth))
        last = self.history[-1]
        if isinstance(last, FlipRecord) and not self.rules.undo_after_flip:
            return Refusal(UNDO_AFTER_FLIP, (), (self.rules.name,))
        if isinstance(last, DealRecord) and not self.rules.undo_after_deal:
            return Refusal(UNDO_AFTER_DEAL, (), (self.rules.name,))
        return None

    # ------------------------------------------------------------- effects (no checks made)

    def _add_with_floor(self, delta: int) -> None:
        """Add ``delta`` to the score, which never falls below the ruleset's floor."""
        score = self.score + delta
        floor = self._floor
        if floor is not None and score < floor:
            score = floor
        self.score = score

    def _flip_exposed(self, c: int) -> bool:
        """Automatic flip of column ``c``'s last card, where the rules flip by themselves."""
        d = self.down[c]
        if self._auto_flip and d and d == len(self.cols[c]):
            self.down[c] = d - 1
            if self.rules.flip_score:
                self._add_with_floor(self.rules.flip_score)
            return True
        return False

    def _take_run(self, c: int) -> RunRecord | None:
        """Remove a complete one-suit run K..A from the end of column ``c``, if there is one."""
        col = self.cols[c]
        if len(col) - self.down[c] >= 13:
            last = col[-1]
            if last & 15 == 1 and col[-13:] == _RUNS[last >> 4]:
                del col[-13:]
                suit = last >> 4
                self.removed.append(suit)
                self._add_with_floor(self.rules.run_score)
                flipped = self._flip_exposed(c)
                if len(self.removed) == self._win_runs:
                    self.over = WON
                    if self.rules.win_score:
                        self._add_with_floor(self.rules.win_score)
                return RunRecord(c, suit, flipped)
        return None

    def move(self, s: int, t: int, k: int) -> None:
        """Move the last ``k`` cards of column ``s`` onto column ``t`` (0-based; unchecked)."""
        rules = self.rules
        prev_score = self.score
        prev_moves = self.moves
        src = self.cols[s]
        dst = self.cols[t]
        group = src[-k:]
        del src[-k:]
        same_suit = bool(dst) and self.down[t] < len(dst) and dst[-1] == group[0] + 1
        dst.extend(group)
        self.moves = prev_moves + 1
        if rules.move_score:
            self._add_with_floor(rules.move_score)
        if same_suit and rules.same_suit_score:
            self._add_with_floor(rules.same_suit_score * k)
        flipped = self._flip_exposed(s)
        run = self._take_run(t)
        # tuple.__new__ skips the named tuple's Python-level __new__: moves are the hot path.
        self.history.append(
            _new_record(MoveRecord, (prev_score, prev_moves, s, t, k, flipped, run))
        )

    def deal(self) -> None:
        """Deal the next row from the stock (unchecked)."""
        prev_score = self.score
        prev_moves = self.moves
        start = self._deal_offsets[self.deals_done]
        end = self._deal_offsets[self.deals_done + 1]
        cols = self.cols
        dealt = self.stock[start:end]
        for i, card in enumerate(dealt):
            cols[i].append(card)
        self.deals_done += 1
        self.moves = prev_moves + 1
        if self.rules.deal_score:
            self._add_with_floor(self.rules.deal_score)
        runs = []
        for i, card in enumerate(dealt):
            if card & 15 == 1:  # a run can end only with the Ace just dealt
                run = self._take_run(i)
                if run is not None:
                    runs.append(run)
        self.history.append(DealRecord(prev_score, prev_moves, len(dealt), runs))

    def flip(self, c: int) -> None:
        """Turn column ``c``'s face-down last card face-up (the manual flip; unchecked)."""
        prev_score = self.score
        self.down[c] -= 1
        if self.rules.flip_score:
            self._add_with_floor(self.rules.flip_score)
        self.history.append(FlipRecord(prev_score, self.moves, c))

    def _restore_run(self, run: RunRecord) -> None:
        c, suit, flipped = run
        if flipped:
            self.down[c] += 1
        self.cols[c].extend(_RUNS[suit])
        self.removed.pop()

    def undo(self) -> None:
        """Reverse the last action whole (unchecked)."""
        record = self.history.pop()
        if isinstance(record, MoveRecord):
            if record.run is not None:
                self._restore_run(record.run)
            k = record.size
            dst = self.cols[record.target]
            group = dst[-k:]
            del dst[-k:]
            if record.flipped:
                self.down[record.source] += 1
            self.cols[record.source].extend(group)
        elif isinstance(record, DealRecord):
            for run in reversed(record.runs):
                self._restore_run(run)
            for i in range(record.dealt):
                self.cols[i].pop()
            self.deals_done -= 1
        else:
            self.down[record.column] += 1
        self.score = record.score
        self.moves = record.moves

    # ------------------------------------------------------------------ legal actions

    def legal_moves(self) -> list[tuple[int, int, int]]:
        """Every legal move as ``(source, target, count)``, 0-based columns."""
        out: list[tuple[int, int, int]] = []
        if self.over is not None:
            return out
        cols = self.cols
        ncols = self._ncols
        takes_anything = [self._takes_anything(t) for t in range(ncols)]
        for s in range(ncols):
            m = self.movable_length(s)
            col = cols[s]
            for k in range(1, m + 1):
                need = (col[-k] & 15) + 1
                for t in range(ncols):
                    if t != s and (takes_anything[t] or (cols[t][-1] & 15) == need):
                        out.append((s, t, k))
        return out

    def legal_actions(self) -> list[Action]:
        """Every legal move (with its count), deal and flip; undo and finish left out."""
        actions: list[Action] = [Move(s + 1, t + 1, k) for s, t, k in self.legal_moves()]
        if self.over is None and self.check_deal() is None:
            actions.append(Deal())
        actions.extend(Flip(c + 1) for c in self.flippable())
        return actions

    def flippable(self) -> list[int]:
        """The columns (0-based) a ``flip`` would turn: under rules without automatic flips,
        each non-empty column of only face-down cards; none once the game is over."""
        if self.over is not None or self._auto_flip:
            return []
        return [c for c, col in enumerate(self.cols) if col and self.down[c] == len(col)]

    def has_legal_action(self) -> bool:
        """Is any move, deal or flip legal? (Undo and finish aside.)"""
        if self.over is not None:
            return False
        if self.check_deal() is None:
            return True
        cols = self.cols
        ncols = self._ncols
        if self.flippable():
            return True
        empties = sum(1 for t in range(ncols) if self._takes_anything(t))
        for s in range(ncols):
            m = self.movable_length(s)
            if m == 0:
                continue
            if empties - self._takes_anything(s) > 0:
                return True
            col = cols[s]
            for k in range(1, m + 1):
                need = (col[-k] & 15) + 1
                for t in range(ncols):
                    if t != s and cols[t] and (cols[t][-1] & 15) == need:
                        return True
        return False


def perft(game: Game, depth: int) -> int:
    """Count the sequences of legal actions (moves, deals, flips) of length ``depth``."""
    if depth == 0:
        return 1
    total = 0
    moves = game.legal_moves()
    if depth == 1:
        total = len(moves)
    else:
        for s, t, k in moves:
            game.move(s, t, k)
            total += perft(game, depth - 1)
            game.undo()
    if game.over is None and game.check_deal() is None:
        if depth == 1:
            total += 1
        else:
            game.deal()
            total += perft(game, depth - 1)
            game.undo()
    for c in game.flippable():
        if depth == 1:
            total += 1
        else:
            game.flip(c)
            total += perft(game, depth - 1)
            game.undo()
    return total
