"""``spidercli import kpat``: a KDE KPatience saved Spider game turned into a move log.

The save is read by ``saves.read_save`` (its XML by ``xml.read_xml``, hardened). The importer
rebuilds each state's position, then finds the one action (a card move or a deal) of the ``kpat``
ruleset that turns the position before into it, so every imported log replays by construction;
automatic flips and run removals are not actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spidercli.game.actions import Action, Deal, Move
from spidercli.game.codes import GameCode, Layout, Setup, deal_layout
from spidercli.game.engine import Game
from spidercli.game.kpatdeal import card_of_id
from spidercli.game.rules import KPAT, SPIDER
from spidercli.kpat.saves import KPatSave, SaveState, read_save
from spidercli.kpat.xml import SaveError
from spidercli.logs.reader import parse_log
from spidercli.logs.writer import format_log
from spidercli.text.messages import N_, counted, shown_path

if TYPE_CHECKING:
    from spidercli.play.logtypes import MoveLog

MAX_DOUBLE_STEPS = 50  # states holding two actions (two quick moves KPat recorded together)


@dataclass(frozen=True)
class SavedPosition:
    """A position as the engine holds it: columns, face-down counts, deals made, runs removed."""

    cols: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    deals_done: int
    runs: int


# A column as the engine holds it: its cards, how many are face-down, the run cards taken off.
SavedColumn = tuple[tuple[int, ...], int, int]


def saved_position(
    save: KPatSave, index: int, seen: dict[int, tuple[object, SavedColumn]] | None = None
) -> SavedPosition:
    """State ``index`` of the save as spidercli's engine would hold it: a complete face-up run
    that KPat's demo left on a column (it removes runs as a step of its own) is taken off, and a
    face-down card left on top is turned up, as the ``kpat`` rules do at once. ``seen`` keeps
    each pile already read (a state shares the piles it did not change with the one before)."""
    state = save.states[index]
    cols: list[tuple[int, ...]] = []
    down: list[int] = []
    runs = sum(len(state.piles.get(f"legs{i}", ())) for i in range(8))
    for c in range(10):
        saved = state.piles.get(f"stack{c}", ())
        known = seen.get(id(saved)) if seen is not None else None
        if known is not None and known[0] is saved:
            column = known[1]
        else:
            column = _column(save, state, c, saved)
            if seen is not None:
                seen[id(saved)] = (saved, column)  # the pile kept alive: its id stays its own
        cols.append(column[0])
        down.append(column[1])
        runs += column[2]
    stock = [len(state.piles.get(f"redeals{p}", ())) for p in range(5)]
    if any(n not in (0, 10) for n in stock) or stock != sorted(stock):
        raise SaveError(
            N_(
                "the stock piles hold {stock} cards: KPat's stock is five piles of 10, dealt "
                "from the first",
                stock=stock,
            ),
            path=save.path,
            line=state.line,
        )
    if runs % 13:
        raise SaveError(
            N_("the completed runs do not hold a multiple of 13 cards"),
            path=save.path,
            line=state.line,
        )
    return SavedPosition(tuple(cols), tuple(down), stock.count(0), runs // 13)


def _column(
    save: KPatSave, state: SaveState, c: int, saved: tuple[tuple[int, bool], ...]
) -> SavedColumn:
    pile = [(card_of_id(cid), up) for cid, up in saved]
    runs = 0
    while len(pile) >= 13 and _is_run(pile[-13:]):
        del pile[-13:]
        runs += 13
    if pile and not pile[-1][1]:
        pile[-1] = (pile[-1][0], True)
    d = 0
    while d < len(pile) and not pile[d][1]:
        d += 1
    if any(not up for _, up in pile[d:]):
        raise SaveError(
            N_(
                "column {column} has a face-down card above a face-up one: not a position of "
                "Spider",
                column=c + 1,
            ),
            path=save.path,
            line=state.line,
        )
    return tuple(card for card, _ in pile), d, runs


def _is_run(cards: list[tuple[int, bool]]) -> bool:
    """Thirteen face-up cards King to Ace of one suit."""
    return (
        all(up for _, up in cards)
        and [c for c, _ in cards] == list(range(cards[0][0], cards[0][0] - 13, -1))
        and cards[0][0] & 15 == 13
    )


def engine_position(game: Game) -> SavedPosition:
    return SavedPosition(
        tuple(tuple(c) for c in game.cols), tuple(game.down), game.deals_done, game.runs
    )


def starting_setup(save: KPatSave) -> tuple[Setup, str | None]:
    """The deal the save starts from: KPat's deal number as a code when the first state is that
    deal, else the first state written out. The second value is a warning, or None."""
    state = save.states[0]
    cols = []
    for c in range(10):
        pile = state.piles.get(f"stack{c}", ())
        if pile and all(up for _, up in pile) and len(pile) > 1:
            raise SaveError(
                N_(
                    "was dealt with KPat's 'Face Up' stack option (every card face-up): "
                    "spidercli's Spider deals the columns face-down",
                ),
                path=save.path,
                line=state.line,
            )
        if len(pile) != SPIDER.column_sizes[c] or [up for _, up in pile] != [False] * (
            len(pile) - 1
        ) + [True]:
            fields = {
                "column": c + 1,
                "cards": len(pile),
                "up": sum(up for _, up in pile),
                "size": SPIDER.column_sizes[c],
            }
            raise SaveError(
                N_(
                    "the position on the table is not a fresh deal (column {column} holds "
                    "{cards} cards, {up} face-up; a deal gives it {size}, the last face-up): "
                    "KPat's older save format keeps only the position, not the moves that led "
                    "to it, so spidercli cannot import a game in progress from it",
                    **fields,
                )
                if save.legacy
                else N_(
                    "the first state is not a fresh deal (column {column} holds {cards} cards, "
                    "{up} face-up; a deal gives it {size}, the last face-up)",
                    **fields,
                ),
                path=save.path,
                line=state.line,
            )
        cols.append(tuple(card_of_id(cid) for cid, _ in pile))
    stock: list[int] = []
    for p in range(5):
        pile = state.piles.get(f"redeals{p}", ())
        if len(pile) != 10:
            raise SaveError(
                N_(
                    "the first state's stock pile {pile} holds {cards} cards, not 10",
                    pile=p + 1,
                    cards=len(pile),
                ),
                path=save.path,
                line=state.line,
            )
        stock.extend(card_of_id(cid) for cid, _ in reversed(pile))  # KPat deals the top first
    layout = Layout(SPIDER, tuple(cols), tuple(stock))
    if save.number is not None:
        code = GameCode(SPIDER, save.suits, False, save.number, "KP")
        if deal_layout(code) == layout:
            return Setup.from_code(code), None
        return Setup(layout, save.suits, False), (
            N_(
                "the save names deal {number}, but its cards are not KPat's deal {code}: "
                "written out as an explicit deal",
                number=save.number,
                code=code.canonical,
            )
        )
    return Setup(layout, save.suits, False), None


@dataclass(frozen=True)
class KPatImport:
    """A KPat save turned into a move log: the ``actions`` (log text, in order), a ``warning``
    when the save's deal could not be checked (else None), and ``log_text``, the log itself."""

    save: KPatSave
    setup: Setup
    actions: tuple[str, ...]
    warning: str | None

    def __repr__(self) -> str:
        code = self.setup.code
        game = f"deal {self.setup.deal_id}" if code is None else code.canonical
        warned = ", warning" if self.warning is not None else ""
        return (
            f"<KPatImport {shown_path(self.save.path, 40)}: {game} {KPAT.name}, "
            f"{counted(len(self.actions), 'action')}{warned}>"
        )

    @property
    def log_text(self) -> str:
        """The move log, as ``spidercli import kpat`` writes it (``kpat`` rules)."""
        s = self.save
        kind = "older-format save" if s.legacy else "saved game"
        steps = (
            "the position only"
            if s.legacy
            else f"{s.current + 1} of its {len(s.states)} states, up to the current one"
        )
        suits = f"{s.suits} suit{'s' * (s.suits > 1)}"
        comment = (
            f"Imported from KPat's {kind} {Path(s.path).name} (Spider, {suits}): {steps}.\n"
            "Automatic flips and run removals are not actions."
        )
        return format_log(self.setup, list(self.actions), rules=KPAT.name, comment=comment)

    @property
    def log(self) -> MoveLog:
        """``log_text`` read as a ``MoveLog`` (its ``path`` is the save's)."""
        return parse_log(self.log_text, self.save.path)


def import_save(source: str | Path | bytes, name: str | None = None) -> KPatImport:
    """Read a KPat save (its path, or its bytes called ``name``) and find the kpat-rules action
    behind each of its steps."""
    save = read_save(source, name)
    setup, warning = starting_setup(save)
    game = Game.from_setup(setup, KPAT)
    actions: list[str] = []
    doubles = 0
    seen: dict[int, tuple[object, SavedColumn]] = {}
    for index in range(1, save.current + 1):
        want = saved_position(save, index, seen)
        if engine_position(game) == want:
            continue  # a step that only removed a run or turned a card
        found = _find(game, want, depth=1)
        if found is None and doubles < MAX_DOUBLE_STEPS:
            doubles += 1  # the two-action search is costly: a hostile file gets few of them
            found = _find(game, want, depth=2)
        if found is None:
            raise SaveError(
                N_(
                    "state {state} is not a card move or a deal away from the state before "
                    "(under KPat's Spider rules): the save is corrupt or not KPat's",
                    state=index + 1,
                ),
                path=save.path,
                line=save.states[index].line,
            )
        for action in found:
            game.apply(action)
            actions.append(_action_text(action))
    return KPatImport(save, setup, tuple(actions), warning)


def _find(game: Game, want: SavedPosition, depth: int) -> list[Action] | None:
    """The actions (``depth`` of them) that lead from ``game`` to ``want``; ``game`` is left as
    it was. The first found in ``legal_actions``'s order."""
    actions = game.legal_actions()
    if depth == 1:  # only a move between two columns that differ, or a deal, can lead there
        changed = {c + 1 for c, col in enumerate(game.cols) if tuple(col) != want.cols[c]}
        dealt = want.deals_done != game.deals_done
        actions = [
            a
            for a in actions
            if (isinstance(a, Move) and a.source in changed and a.target in changed)
            or (dealt and isinstance(a, Deal))
        ]
    for action in actions:
        over, undoable = game.over, game.undoable
        if game.play(action) is not None:  # pragma: no cover - legal_actions lists legal ones
            continue
        try:
            if depth == 1:
                if engine_position(game) == want:
                    return [action]
            else:
                rest = _find(game, want, depth - 1)
                if rest is not None:
                    return [action, *rest]
        finally:
            game.undo()  # the exact inverse, even of a winning action
            game.over, game.undoable = over, undoable
    return None


def _action_text(action: Action) -> str:
    if isinstance(action, Deal):
        return "deal"
    assert isinstance(action, Move) and action.count is not None
    return f"{action.source}>{action.target}:{action.count}"


__all__ = [
    "MAX_DOUBLE_STEPS",
    "KPatImport",
    "SavedPosition",
    "engine_position",
    "import_save",
    "saved_position",
    "starting_setup",
]
