"""What a player sees of a game (``View``), for the fair hint (``spidercli.solver.fair``).

Each column's face-up cards, how many cards lie face down in each column and in the stock, the
runs removed, and the cards seen before (a card turned up and put back face down by an undo, a
row dealt and taken back: the player knows where each lies). Face-down cards never move in the
engine (moves take face-up cards, runs leave face-up, deals and moves put cards on top), so a
column's face-down slot holds the same card all game: the cards seen before in column ``c`` are
the slots from the fewest face-down cards that column ever had (``Sight``) up to its face-down
count now, and the stock's are its first cards up to the most rows ever dealt. The cards nobody
has seen are the deck (the game's cards: 1, 2 or 4 suits, 104 or 52) less every card seen, in any
order in the slots nobody has seen.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import blake2b

from spidercli.game.engine import Game
from spidercli.game.rules import GameKind, Ruleset
from spidercli.play.logtypes import Entry
from spidercli.play.replay import ReplayVisitor
from spidercli.solver.search import Problem


def shown_key(cols: Sequence[Sequence[int]], down: Sequence[int], dealt: int, runs: int) -> bytes:
    """A digest of what a position shows (face-up cards, face-down counts, deals, runs): the
    key of a position met, for ``View.met``."""
    h = blake2b(digest_size=12)
    h.update(bytes((dealt, runs)))
    for col, d in zip(cols, down, strict=True):
        h.update(bytes((d, len(col) - d)))
        h.update(bytes(col[d:]))
    return h.digest()


class Sight:
    """What a player has seen so far of a game: the fewest face-down cards each column has had,
    the most rows dealt, and the positions met (as they showed: ``shown_key``). ``saw(game)``
    after every action (undos included)."""

    __slots__ = ("dealt", "low", "met")

    def __init__(self, game: Game) -> None:
        self.low = list(game.down)
        self.dealt = game.deals_done
        self.met: set[bytes] = {shown_key(game.cols, game.down, game.deals_done, game.runs)}

    def saw(self, game: Game) -> None:
        self.met.add(shown_key(game.cols, game.down, game.deals_done, game.runs))
        low = self.low
        for c, d in enumerate(game.down):
            if d < low[c]:
                low[c] = d
        if game.deals_done > self.dealt:
            self.dealt = game.deals_done


class SightVisitor(ReplayVisitor):
    """A replay's visitor that keeps what the player has seen (``sight``), for ``view_of``."""

    sight: Sight

    def begin(self, game: Game) -> None:
        self.sight = Sight(game)

    def applied(self, game: Game, entry: Entry) -> None:
        self.sight.saw(game)


@dataclass(frozen=True)
class View:
    """What a player sees of a position: ``up`` each column's face-up cards (bottom to top),
    ``hidden`` each column's face-down cards never seen (they are the bottom ones), ``seen_down``
    each column's face-down cards seen before (above the hidden ones), ``stock`` the cards left
    in the stock, ``seen_stock`` the first of them, seen before (dealt, then taken back by an
    undo), ``deals_done``, ``removed`` (each run's suit), the ``deck`` (every card of the game,
    sorted), and the game's ``kind``, ``rules``, ``suits`` and move rule (``permissive``),
    ``over`` (the game's end, None while it goes on), and ``met``, the positions met on the way
    (``shown_key``: what they showed), which the hint does not go back to while it has a
    choice."""

    kind: GameKind
    rules: Ruleset
    suits: int
    permissive: bool
    up: tuple[bytes, ...]
    hidden: tuple[int, ...]
    seen_down: tuple[bytes, ...]
    stock: int
    seen_stock: bytes
    deals_done: int
    removed: tuple[int, ...]
    deck: bytes
    over: str | None = None
    met: frozenset[bytes] = frozenset()

    @property
    def down(self) -> tuple[int, ...]:
        """Each column's face-down count."""
        return tuple(h + len(s) for h, s in zip(self.hidden, self.seen_down, strict=True))

    def unseen(self) -> list[int]:
        """The cards nobody has seen (sorted): the deck less every card seen."""
        left = Counter(self.deck)
        seen = Counter(b"".join(self.up) + b"".join(self.seen_down) + self.seen_stock)
        for suit in self.removed:
            seen.update(range(suit << 4 | 1, suit << 4 | 14))
        left.subtract(seen)
        if any(n < 0 for n in left.values()):
            raise ValueError("the cards seen are not part of the deck")
        return sorted(left.elements())

    def digest(self, salt: int = 0) -> int:
        """A 64-bit digest of everything the view holds (and ``salt``): the samples' seed."""
        h = blake2b(digest_size=8, person=b"spidercli-fair")
        parts: list[bytes] = [
            self.kind.name.encode(),
            self.rules.name.encode(),
            bytes((self.suits, self.permissive, self.deals_done)),
            self.stock.to_bytes(2, "little"),
            self.seen_stock,
            bytes(self.removed),
            bytes(self.hidden),
            self.deck,
            str(salt).encode(),
            (self.over or "").encode(),
        ]
        for up, seen in zip(self.up, self.seen_down, strict=True):
            parts += [up, seen]
        parts += sorted(self.met)
        for part in parts:
            h.update(len(part).to_bytes(4, "little"))
            h.update(part)
        return int.from_bytes(h.digest(), "little")

    def fill(self, rng: random.Random) -> tuple[list[bytes], list[int], list[int]]:
        """One filling of the unseen slots with the unseen cards, in a random order: the
        columns (bottom to top), their face-down counts, and the stock left (in dealing order)."""
        cards = self.unseen()
        rng.shuffle(cards)
        at = 0
        cols: list[bytes] = []
        for h, seen, up in zip(self.hidden, self.seen_down, self.up, strict=True):
            cols.append(bytes(cards[at : at + h]) + seen + up)
            at += h
        stock = list(self.seen_stock) + cards[at:]
        return cols, list(self.down), stock

    def problem(self, rng: random.Random) -> Problem:
        """The solver's problem for one filling (``fill``)."""
        cols, down, stock = self.fill(rng)
        chunks: list[bytes] = []
        for size in self.kind.deal_sizes[self.deals_done :]:
            chunks.append(bytes(stock[:size]))
            del stock[:size]
        return Problem(
            cols,
            down,
            chunks,
            permissive=self.permissive,
            runs=len(self.removed),
            runs_to_win=self.kind.runs_to_win,
        )

    def game(self, rng: random.Random | None = None) -> Game:
        """An engine position with this view (the unseen slots filled, in order, or at random
        with ``rng``): what is legal depends on the face-up cards alone, so any filling tells."""
        cols, down, stock = self.fill(rng or random.Random(0))
        dealt = sum(self.kind.deal_sizes[: self.deals_done])
        g = Game(
            self.kind,
            self.rules,
            [list(c) for c in cols],
            [0] * dealt + stock,  # the rows dealt are never read again
            suits=self.suits,
            permissive=self.permissive,
            down=down,
        )
        g.deals_done = self.deals_done
        g.removed = list(self.removed)
        g.over = self.over
        return g


def view_of(game: Game, sight: Sight | None = None) -> View:
    """What a player sees of ``game``; ``sight``: what was seen on the way there (None: nothing
    but what is face up now, as at the deal)."""
    low = list(game.down) if sight is None else sight.low
    dealt = game.deals_done if sight is None else sight.dealt
    offsets = [0]
    for size in game.kind.deal_sizes:
        offsets.append(offsets[-1] + size)
    left = game.stock_left
    seen_stock = bytes(left[: offsets[dealt] - offsets[game.deals_done]])
    hidden = tuple(min(low[c], d) for c, d in enumerate(game.down))
    return View(
        kind=game.kind,
        rules=game.rules,
        suits=game.suits,
        permissive=game.permissive,
        up=tuple(bytes(game.face_up(c)) for c in range(game.kind.columns)),
        hidden=hidden,
        seen_down=tuple(
            bytes(col[h:d]) for col, h, d in zip(game.cols, hidden, game.down, strict=True)
        ),
        stock=len(left),
        seen_stock=seen_stock,
        deals_done=game.deals_done,
        removed=tuple(game.removed),
        deck=bytes(sorted(game.all_cards())),
        over=game.over,
        met=frozenset() if sight is None else frozenset(sight.met),
    )


__all__ = ["Sight", "SightVisitor", "View", "shown_key", "view_of"]
