"""KDE KPatience's Spider deals: a KPat deal number and suit count turned into cards.

KPat (KDE's patience games) numbers its deals 1 to 2^31-1. This module deals exactly the cards
KPat 22.12 to 23.04 deals for a number (the algorithm did not change between them), as its
source has it:

1. The deck (``DealerScene::setDeckContents`` with ``Spider::createDeck``): two copies, each one
   rank after another (Ace to King) and, within a rank, one card of each of four suit slots. The
   slots are spades x4 for one suit, hearts/spades/hearts/spades for two, and clubs, diamonds,
   hearts, spades for four. Card ``n`` of that order has KPat's id ``n << 16 | suit << 8 | rank``
   with KPat's suit numbers (clubs 0, diamonds 1, hearts 2, spades 3).
2. The shuffle (``KpatShuffle::shuffled``, Microsoft FreeCell's generator): for ``i`` from the deck
   size down to 2, ``seed = 214013 * seed + 2531011`` (32 bits), swap card ``i - 1`` with card
   ``((seed >> 16) & 0x7fff) % i``.
3. The deal (``Spider::restart``): cards are taken from the END of the shuffled list; 44 face-down
   cards go round the ten columns from the first, then 10 face-up cards continue round from where
   that stopped (columns 5-10, then 1-4); the last 50 make five stock piles of ten, and a deal from
   the stock (``Spider::newCards``) gives each pile's last-placed card to column 1 and its first to
   column 10.
"""

from __future__ import annotations

from spidercli.game.cards import make_card

KPAT_MAX_DEAL = 2**31 - 1  # KPat's deal numbers: 1 to INT_MAX

# KPat's suit numbers (KCardDeck::Suit) and spidercli's suit index for each.
KPAT_CLUBS, KPAT_DIAMONDS, KPAT_HEARTS, KPAT_SPADES = 0, 1, 2, 3
KPAT_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_OUR_SUIT = {KPAT_CLUBS: 3, KPAT_DIAMONDS: 2, KPAT_HEARTS: 1, KPAT_SPADES: 0}

# Spider::createDeck's four suit slots for each suit count it offers (3 is KPat's own 3-suit game,
# a deck spidercli has no code or rules for).
KPAT_SUIT_SLOTS: dict[int, tuple[int, int, int, int]] = {
    1: (KPAT_SPADES, KPAT_SPADES, KPAT_SPADES, KPAT_SPADES),
    2: (KPAT_HEARTS, KPAT_SPADES, KPAT_HEARTS, KPAT_SPADES),
    3: (KPAT_CLUBS, KPAT_SPADES, KPAT_HEARTS, KPAT_SPADES),
    4: (KPAT_CLUBS, KPAT_DIAMONDS, KPAT_HEARTS, KPAT_SPADES),
}


def kpat_card(kpat_suit: int, rank: int) -> int:
    """spidercli's card for KPat's suit number and rank (1 Ace to 13 King)."""
    return make_card(rank, _OUR_SUIT[kpat_suit])


def kpat_ids(suits: int) -> list[int]:
    """KPat's card ids of the Spider deck with ``suits`` suits, in its unshuffled order."""
    slots = KPAT_SUIT_SLOTS[suits]
    ids = []
    number = 0
    for _copy in range(2):
        for rank in range(1, 14):
            for suit in slots:
                ids.append(number << 16 | suit << 8 | rank)
                number += 1
    return ids


def card_of_id(card_id: int) -> int:
    """spidercli's card for a KPat card id (its low 16 bits are the suit and the rank)."""
    return kpat_card((card_id >> 8) & 0xFF, card_id & 0xFF)


def kpat_shuffle(items: list[int], seed: int) -> list[int]:
    """``KpatShuffle::shuffled``: Fisher-Yates from the end, by FreeCell's generator."""
    out = list(items)
    seed &= 0xFFFFFFFF
    for i in range(len(out), 1, -1):
        seed = (214013 * seed + 2531011) & 0xFFFFFFFF
        j = ((seed >> 16) & 0x7FFF) % i
        out[i - 1], out[j] = out[j], out[i - 1]
    return out


def kpat_deal_ids(number: int, suits: int) -> tuple[list[list[int]], list[list[int]]]:
    """KPat's ids as ``Spider::restart`` places them: the ten columns bottom to top, and the five
    stock piles in the order KPat deals them, each pile in the order its cards reach columns
    1 to 10."""
    if not 1 <= number <= KPAT_MAX_DEAL:
        raise ValueError(f"KPat deal numbers run from 1 to {KPAT_MAX_DEAL}, not {number}")
    taken = kpat_shuffle(kpat_ids(suits), number)[::-1]  # takeLast() order
    columns: list[list[int]] = [[] for _ in range(10)]
    for i, card in enumerate(taken[:54]):  # 44 face-down then 10 face-up, round and round
        columns[i % 10].append(card)
    piles = [taken[54 + 10 * p : 64 + 10 * p][::-1] for p in range(5)]
    return columns, piles


def kpat_cards(number: int, suits: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """KPat's Spider deal ``number`` with 1, 2 or 4 suits as spidercli's cards: the ten columns
    bottom to top, and the stock in dealing order."""
    if suits not in (1, 2, 4):
        raise ValueError(f"spidercli plays KPat's Spider with 1, 2 or 4 suits, not {suits}")
    columns, piles = kpat_deal_ids(number, suits)
    return (
        tuple(tuple(card_of_id(c) for c in col) for col in columns),
        tuple(card_of_id(c) for pile in piles for c in pile),
    )
