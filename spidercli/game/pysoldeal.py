"""PySolFC's Spider deals: a PySol game number and suit count turned into cards.

PySolFC numbers its games; the number chooses the random generator and seeds it. This module
deals exactly the cards PySolFC (3.x, with the ``pysol_cards`` generators it imports) deals for a
number in its games "Spider (1 Suit)", "Spider (2 Suits)" and "Spider", as its source has it:

1. The number (``pysolrandom.construct_random``): ``ms<n>`` (1 to 2^33-1) is always Microsoft
   FreeCell's generator, ``LCRandom31``; a plain number below 32000 is that generator too, and a
   plain number from 32000 on is the Mersenne Twister of Python's ``random`` module, ``MTRandom``.
2. The deck (``Game.createCards``): two decks, each suit slot of the game in turn, Ace to King
   within a slot. The slots are clubs x4 for one suit, clubs, clubs, hearts, hearts for two, and
   clubs, spades, hearts, diamonds for four (PySolFC's own suit order).
3. The shuffle (``RandomBase.shuffle``): for ``n`` from 103 down to 1, swap card ``n`` with card
   ``randint(0, n)``. ``LCRandom31.randint(0, n)`` is ``draw % (n + 1)``, its draw 15 bits of
   FreeCell's ``seed = 214013 * seed + 2531011`` (with the top bit set from 2^31 on, and 16 bits
   plus one from 2^32 on); ``MTRandom.randint(0, n)`` is ``int(random() * (n + 1))``.
4. The deal (``Spider.startGame``, ``TalonStack.dealRow``): cards come off the END of the shuffled
   list; four face-down rows round all ten columns, one more face-down card to columns 1, 4, 7
   and 10, and a face-up row round all ten. The 50 left are the stock, ten a deal, the next card
   to column 1, the one after to column 2, and so on (``DealRowTalonStack.dealCards``).

spidercli's 1-suit deck is spades and its 2-suit deck spades and hearts; PySolFC's clubs are dealt
as spades in those two games (hearts stay hearts). No rule of Spider looks at a suit's name, so
the game is the same; the 4-suit game shows every card as PySolFC does.
"""

from __future__ import annotations

import random

from spidercli.game.cards import make_card

PYSOL_MAX_NUMBER = 10**20  # MTRandom.MAX_SEED: random games are below it, "Next number" stops at it
PYSOL_MAX_MS = 2**33 - 1  # LCRandom31.MAX_SEED: ms1 to ms8589934591
PYSOL_LC_BELOW = 32000  # a plain number below this is dealt by LCRandom31, from it on by MTRandom

# PySolFC's suit numbers (pysollib/util.py: clubs, spades, hearts, diamonds).
PYSOL_CLUBS, PYSOL_SPADES, PYSOL_HEARTS, PYSOL_DIAMONDS = 0, 1, 2, 3

# The games' suit slots (GameInfo ``suits``): 1 suit is "Spider (1 Suit)" (game 269), 2 suits
# "Spider (2 Suits)" (270), 4 suits "Spider" (11).
PYSOL_SUIT_SLOTS: dict[int, tuple[int, ...]] = {
    1: (PYSOL_CLUBS,) * 4,
    2: (PYSOL_CLUBS, PYSOL_CLUBS, PYSOL_HEARTS, PYSOL_HEARTS),
    4: (PYSOL_CLUBS, PYSOL_SPADES, PYSOL_HEARTS, PYSOL_DIAMONDS),
}

# spidercli's suit index (S H D C) for PySolFC's suit in a game of 1, 2 or 4 suits: clubs are
# spades in spidercli's 1- and 2-suit decks.
_OUR_SUIT: dict[int, dict[int, int]] = {
    1: {PYSOL_CLUBS: 0},
    2: {PYSOL_CLUBS: 0, PYSOL_HEARTS: 1},
    4: {PYSOL_CLUBS: 3, PYSOL_SPADES: 0, PYSOL_HEARTS: 1, PYSOL_DIAMONDS: 2},
}

_MASK33 = (1 << 33) - 1

# Spider.startGame's rows: four rows round all ten columns face-down, one more face-down card to
# columns 1, 4, 7 and 10, then a face-up row round all ten.
_ROWS = ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9),) * 4 + ((0, 3, 6, 9),) + ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9),)
PYSOL_COLUMN_SIZES = tuple(sum(c in row for row in _ROWS) for c in range(10))  # 6 5 5 6 5 5 6 5 5 6


def pysol_deck(suits: int) -> list[tuple[int, int]]:
    """PySolFC's unshuffled Spider deck as ``(suit, rank)`` pairs, PySolFC's suit numbers and
    ranks 1 (Ace) to 13 (King); the card's PySolFC id is its index."""
    return [
        (suit, rank)
        for _deck in range(2)
        for suit in PYSOL_SUIT_SLOTS[suits]
        for rank in range(1, 14)
    ]


def lc31_draws(seed: int, count: int) -> list[int]:
    """``count`` draws of PySolFC's ``LCRandom31`` seeded with ``seed`` (1 to 2^33-1): 15 bits
    below 2^31 (Microsoft FreeCell's), the top bit set from 2^31 to 2^32-1, 16 bits plus one from
    2^32 on (the seed less 2^32 starting the recurrence)."""
    if not 1 <= seed <= PYSOL_MAX_MS:
        raise ValueError(f"LCRandom31 seeds run from 1 to {PYSOL_MAX_MS}, not {seed}")
    x = seed if seed < 1 << 32 else seed - (1 << 32)
    draws = []
    for _ in range(count):
        x = (x * 214013 + 2531011) & _MASK33
        if seed < 1 << 31:
            draws.append((x >> 16) & 0x7FFF)
        elif seed < 1 << 32:
            draws.append((x >> 16) & 0x7FFF | 0x8000)
        else:
            draws.append(((x >> 16) & 0xFFFF) + 1)
    return draws


def generator_of(number: int, ms: bool) -> str:
    """``LCRandom31`` or ``MTRandom``: the generator PySolFC deals game ``number`` with."""
    return "LCRandom31" if ms or number < PYSOL_LC_BELOW else "MTRandom"


def pysol_shuffle(items: list[int], number: int, ms: bool = False) -> list[int]:
    """``Game.shuffle`` of a 104-card list for game ``number`` (``ms``: typed as ``ms<number>``)."""
    out = list(items)
    top = len(out) - 1
    if generator_of(number, ms) == "LCRandom31":
        for n, draw in zip(range(top, 0, -1), lc31_draws(number, top), strict=True):
            j = draw % (n + 1)
            out[n], out[j] = out[j], out[n]
    else:
        if not PYSOL_LC_BELOW <= number <= PYSOL_MAX_NUMBER:
            raise ValueError(f"PySol's plain game numbers run from 1 to {PYSOL_MAX_NUMBER}")
        # Python's own Mersenne Twister, as PySolFC's MTRandom is: random.Random seeded with an
        # int, then random(), is guaranteed the same in every Python version.
        uniform = random.Random(number).random
        for n in range(top, 0, -1):
            j = int(uniform() * (n + 1))
            out[n], out[j] = out[j], out[n]
    return out


def pysol_deal_ids(number: int, suits: int, ms: bool = False) -> tuple[list[list[int]], list[int]]:
    """PySolFC's card ids as its Spider deals them: the ten columns bottom to top, and the
    stock in dealing order (each ten cards one deal, to columns 1 to 10)."""
    if suits not in PYSOL_SUIT_SLOTS:
        raise ValueError(f"spidercli plays PySol's Spider with 1, 2 or 4 suits, not {suits}")
    taken = pysol_shuffle(list(range(104)), number, ms)[::-1]  # dealt from the top: the end
    columns: list[list[int]] = [[] for _ in range(10)]
    pos = 0
    for row in _ROWS:
        for c in row:
            columns[c].append(taken[pos])
            pos += 1
    return columns, taken[pos:]


def pysol_cards(
    number: int, suits: int, ms: bool = False
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """PySol's Spider game ``number`` (``ms``: typed as ``ms<number>``) with 1, 2 or 4 suits as
    spidercli's cards: the ten columns bottom to top, and the stock in dealing order."""
    columns, stock = pysol_deal_ids(number, suits, ms)
    deck = pysol_deck(suits)
    ours = _OUR_SUIT[suits]
    cards = [make_card(rank, ours[suit]) for suit, rank in deck]
    return tuple(tuple(cards[i] for i in col) for col in columns), tuple(cards[i] for i in stock)
