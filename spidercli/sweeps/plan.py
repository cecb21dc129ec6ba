"""What a sweep solves: game codes, ranges of numbered deals (``KP4-1..1000``, ``PS4-1..32000``:
KPat's and PySol's plain deal numbers, the only codes that are numbers) and random spidercli
codes (``random_codes``), cut into shards (``--shard K/N``). ``plan`` counts them after the shard
(at most ``MAX_DEALS``) and makes none: ``Plan.codes`` makes each code as it is taken.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from spidercli.errors import InputError
from spidercli.game.codes import CodeError, parse_code, seed_letters, splitmix64_output
from spidercli.text.messages import N_, did_you_mean, message_of, quoted

RULES = "classic"  # the ruleset a sweep solves under: every code's own game
MAX_DEALS = 10_000_000  # deals in one sweep (after --shard), at most
_RANGE = re.compile(r"(KP|PS)([0-9])-([0-9]+)\.\.([0-9]+)")
_SHARD = re.compile(r"([0-9]+)/([0-9]+)")


# ------------------------------------------------------------------------------ the deals


@dataclass(frozen=True)
class Span:
    """Numbered deals ``first`` to ``last`` of one app and suit count (``KP4-1..1000``)."""

    prefix: str  # KP or PS
    suits: int
    first: int
    last: int

    @property
    def size(self) -> int:
        """The deals in the span (``len`` cannot say more than ``sys.maxsize``)."""
        return self.last - self.first + 1

    def code(self, i: int) -> str:
        """The code of the ``i``-th deal of the span (from 0)."""
        return f"{self.prefix}{self.suits}-{self.first + i}"


@dataclass(frozen=True)
class Draw:
    """``--random``'s deals: ``count`` codes ``head`` + seven letters, the letters of the
    ``i``-th drawn by the ``i + 1``-th SplitMix64 step from ``seed``. Each code is made when it is
    wanted (SplitMix64's state after n steps is known at once), so a shard of a huge draw costs
    only its own deals."""

    head: str  # the code up to its letters, such as SP4-S1C-
    seed: int
    count: int

    @property
    def size(self) -> int:
        """The deals drawn (``len`` cannot say more than ``sys.maxsize``: ``--random`` can)."""
        return self.count

    def code(self, i: int) -> str:
        """The code of the ``i``-th deal drawn (from 0)."""
        return self.head + seed_letters(splitmix64_output(self.seed, i + 1) % 26**7)


Item = str | Span | Draw  # a canonical game code, a span of numbered deals, or a random draw


def item_size(item: Item) -> int:
    """The deals an item stands for."""
    return 1 if isinstance(item, str) else item.size


def parse_spec(text: str) -> Item:
    """A command-line deal: a game code (its canonical form) or a range; ``InputError`` naming
    it otherwise."""
    upper = text.strip().upper() if text.isascii() else ""
    if ".." in upper:
        m = _RANGE.fullmatch(upper)
        if m is None:
            raise InputError(
                N_(
                    "{spec} is not a range of deals: a range is KP or PS, the suit count, '-' "
                    "and two deal numbers joined by '..', as in KP4-1..1000 or PS4-1..32000 "
                    "(KPat's and PySol's numbered deals are the only ones with ranges)",
                    spec=quoted(text),
                )
            )
        prefix, suits, first, last = m.groups()
        ends = []
        for number in (first, last):
            try:
                ends.append(parse_code(f"{prefix}{suits}-{number}").seed)
            except CodeError as err:
                raise InputError(
                    N_("{spec}: {error}", spec=quoted(text), error=message_of(err))
                ) from err
        if ends[0] > ends[1]:
            raise InputError(
                N_(
                    "{spec} is an empty range: it runs from the smaller number to the larger",
                    spec=quoted(text),
                )
            )
        return Span(prefix, int(suits), ends[0], ends[1])
    try:
        return parse_code(text).canonical
    except CodeError as err:
        raise InputError(message_of(err)) from err


# --game's values: each game's code up to its seed letters (classic move rule; a Spiderette code
# carries its rule letter only when it is P).
RANDOM_GAMES = {"spider": "SP{suits}-S1C-", "spiderette": "SD{suits}-S1-"}


def game_head(game: str) -> str:
    """``--game``'s code head (its ``{suits}`` to fill); ``InputError`` for a game not known."""
    head = RANDOM_GAMES.get(game.lower())
    if head is None:
        raise InputError(
            N_(
                "--game takes spider or spiderette, not {game}{hint}",
                game=quoted(game),
                hint=did_you_mean(game.lower(), RANDOM_GAMES),
            )
        )
    return head


def random_draw(count: int, suits: int, seed: int, game: str = "spider") -> Draw:
    """``count`` codes of ``game`` (``spider`` or ``spiderette``, classic move rule) with
    ``suits`` suits, drawn by SplitMix64 from ``seed``: the same numbers give the same codes on
    every machine (a Spiderette code has the seed letters of the Spider code in its place)."""
    if suits not in (1, 2, 4):
        raise InputError(N_("--suits takes 1, 2 or 4, not {suits}", suits=suits))
    return Draw(game_head(game).format(suits=suits), seed, max(count, 0))


def random_codes(count: int, suits: int, seed: int, game: str = "spider") -> list[str]:
    """``random_draw``'s codes, all of them."""
    draw = random_draw(count, suits, seed, game)
    return [draw.code(i) for i in range(count)]


def parse_shard(text: str) -> tuple[int, int]:
    """``K/N`` (1 <= K <= N): the shard to take; ``InputError`` otherwise."""
    m = _SHARD.fullmatch(text.strip())
    k, n = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    if not m or n < 1 or not 1 <= k <= n:
        raise InputError(
            N_(
                "--shard {shard}: expected K/N with 1 <= K <= N, as in 3/8 (the third of eight "
                "shards)",
                shard=quoted(text),
            )
        )
    return k, n


def shard_codes(items: Iterable[Item], shard: tuple[int, int] = (1, 1)) -> Iterator[str]:
    """The codes of ``items`` in order, every N-th from the K-th (``shard`` ``(K, N)``): the N
    shards of one list of deals partition it."""
    k, n = shard
    base = 0  # the index of the item's first deal in the whole list
    for item in items:
        size = item_size(item)
        start = (k - 1 - base) % n  # the first index of the item that falls to this shard
        if isinstance(item, str):
            if start == 0:
                yield item
        else:
            for i in range(start, size, n):
                yield item.code(i)
        base += size


@dataclass(frozen=True)
class Plan:
    """The deals of a sweep (after ``--shard``): ``size`` of them (a deal given twice counted
    twice), made one by one as they are wanted (``codes``)."""

    items: tuple[Item, ...]
    shard: tuple[int, int]
    size: int

    def codes(self) -> Iterator[str]:
        return shard_codes(self.items, self.shard)


def plan(items: Iterable[Item], shard: tuple[int, int] = (1, 1)) -> Plan:
    """The sweep's deals, none made yet. More than ``MAX_DEALS`` in the shard are refused."""
    kept = tuple(items)
    k, n = shard
    total = sum(item_size(item) for item in kept)
    size = max((total - k) // n + 1, 0)  # the shard's deals: indices k - 1, k - 1 + n, ...
    if size > MAX_DEALS:
        raise InputError(
            N_(
                "a sweep takes at most {limit:,} deals; spread it over shards (--shard K/N)",
                limit=MAX_DEALS,
            )
        )
    return Plan(kept, shard, size)


__all__ = [
    "MAX_DEALS",
    "RANDOM_GAMES",
    "RULES",
    "Draw",
    "Item",
    "Plan",
    "Span",
    "game_head",
    "item_size",
    "parse_shard",
    "parse_spec",
    "plan",
    "random_codes",
    "random_draw",
    "shard_codes",
]
