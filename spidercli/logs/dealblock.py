"""Explicit deals: a log's ``deal:`` block (every column and the stock written out), read and
written. Each card keeps its line, so a card given twice or missing is reported where it stands.
"""

from __future__ import annotations

import re
from collections import Counter

import yaml

from spidercli.game.cards import SPELLINGS, card_str, parse_card
from spidercli.game.codes import Layout, Setup, ordered_deck
from spidercli.game.pysoldeal import PYSOL_COLUMN_SIZES
from spidercli.game.rules import GAMES, GameKind
from spidercli.logs.yamlreader import STR_TAG, Checker, LogError, line_of, node_kind
from spidercli.text.messages import N_, Nn_, ascii_note, message_of, prefixed, quoted
from spidercli.text.words import CardWords

DEAL_KEYS = ("game", "rule", "suits", "columns", "stock")
# Column sizes other than the game's own that an explicit deal may have: PySol deals Spider's six
# cards to columns 1, 4, 7 and 10, so a PS code's cards can be written out too.
OTHER_COLUMN_SIZES: dict[str, tuple[tuple[int, ...], ...]] = {"spider": (PYSOL_COLUMN_SIZES,)}
MOVE_RULES = ("classic", "permissive")

_CARD_SEPARATORS = re.compile(r"[ \t\r\n,]+")


def _cards(c: Checker, node: yaml.Node, what: str) -> list[tuple[int, int]]:
    """A list of cards, as blank-separated text or a YAML list: each card with its line."""
    out: list[tuple[int, int]] = []
    if isinstance(node, yaml.SequenceNode):
        items = node.value
    elif isinstance(node, yaml.ScalarNode) and node.tag == STR_TAG:
        items = [node]
    else:
        raise c.fail(
            N_(
                "{what} must be cards, as text ('9S 8H KD') or a list ([9S, 8H, KD]), not {kind}",
                what=what,
                kind=node_kind(node),
            ),
            node,
        )
    by_name = SPELLINGS
    for item in items:
        if type(item) is not yaml.ScalarNode or item.tag != STR_TAG:
            c.text(item, N_("{what}: a card", what=what))  # raises: the message names the item
        line = line_of(item)
        for token in _CARD_SEPARATORS.split(item.value):
            card = by_name.get(token)  # the usual spelling (TS, 10S); any other is parsed
            if card is None:
                if not token:
                    continue
                try:
                    card = parse_card(token)
                except ValueError as err:
                    raise c.fail(prefixed(what, message_of(err)), item) from err
            out.append((card, line))
    return out


def parse_deal(c: Checker, node: yaml.Node) -> Setup:
    """``deal:``: the game, the move rule, every column bottom to top and the stock, checked."""
    fields = c.mapping(node, "deal", DEAL_KEYS)
    for required in ("game", "columns", "stock"):
        if required not in fields:
            raise c.fail(
                N_(
                    "deal has no {key!r} key: expected game (spider or spiderette), "
                    "rule (classic or permissive, optional), columns (each column's cards bottom "
                    "to top) and stock (in dealing order)",
                    key=required,
                ),
                node,
            )
    game_node = fields["game"][1]
    name = c.word(game_node, "deal.game")
    if name not in GAMES:
        raise c.fail(
            N_(
                "deal.game: {name} is not a game{note}; expected spider or spiderette",
                name=quoted(name),
                note=ascii_note(name),
            ),
            game_node,
        )
    game = GAMES[name]

    permissive = False
    if "rule" in fields:
        rule_node = fields["rule"][1]
        rule = c.word(rule_node, "deal.rule")
        if rule not in MOVE_RULES:
            raise c.fail(
                N_(
                    "deal.rule: {rule} is not a move rule{note}; expected classic or permissive",
                    rule=quoted(rule),
                    note=ascii_note(rule),
                ),
                rule_node,
            )
        permissive = rule == "permissive"

    cols_node = fields["columns"][1]
    if not isinstance(cols_node, yaml.SequenceNode):
        raise c.fail(
            N_(
                "deal.columns must be a list of {n} columns, not {kind}",
                n=game.columns,
                kind=node_kind(cols_node),
            ),
            cols_node,
        )
    if len(cols_node.value) != game.columns:
        raise c.fail(
            N_(
                "deal.columns: {game} has {n} columns, not {given}",
                game=game.title,
                n=game.columns,
                given=len(cols_node.value),
            ),
            fields["columns"][0],
        )
    columns = []
    placed: list[tuple[int, int]] = []
    # The game's column sizes, or another way an app deals them (PySol's Spider), while the
    # columns read so far fit it; a deal that fits none is told the game's own sizes.
    others = list(OTHER_COLUMN_SIZES.get(game.name, ()))
    misfit: tuple[yaml.Node, int, int] | None = None  # the first column off the game's sizes
    for i, (col_node, size) in enumerate(zip(cols_node.value, game.column_sizes, strict=True)):
        cards = _cards(c, col_node, N_("deal.columns, column {column}", column=i + 1))
        others = [sizes for sizes in others if sizes[i] == len(cards)]
        if misfit is None and len(cards) != size:
            misfit = (col_node, i, len(cards))
        if misfit is not None and not others:
            node, column, n = misfit
            raise c.fail(
                Nn_(
                    "deal.columns, column {column} has {n} card; {game} deals {size} to it "
                    "({game}'s columns hold {sizes})",
                    "deal.columns, column {column} has {n} cards; {game} deals {size} to it "
                    "({game}'s columns hold {sizes})",
                    n,
                    column=column + 1,
                    n=n,
                    game=game.title,
                    size=game.column_sizes[column],
                    sizes=", ".join(map(str, game.column_sizes)),
                ),
                node,
            )
        columns.append(tuple(card for card, _ in cards))
        placed.extend(cards)
    stock_node = fields["stock"][1]
    stock = _cards(c, stock_node, "deal.stock")
    want = sum(game.deal_sizes)
    if len(stock) != want:
        raise c.fail(
            Nn_(
                "deal.stock has {n} card; a {game} stock holds {want} ({cards} cards in all)",
                "deal.stock has {n} cards; a {game} stock holds {want} ({cards} cards in all)",
                len(stock),
                n=len(stock),
                game=game.title,
                want=want,
                cards=game.cards,
            ),
            fields["stock"][0],
        )
    placed.extend(stock)

    used = {card >> 4 for card, _ in placed}
    if "suits" in fields:
        suits_node = fields["suits"][1]
        suits = c.integer(suits_node, "deal.suits")
        if suits not in (1, 2, 4):
            raise c.fail(
                N_("deal.suits: {suits} suits; expected 1, 2 or 4", suits=suits), suits_node
            )
    else:
        suits = 1 if used <= {0} else 2 if used <= {0, 1} else 4
    copies = game.cards // (13 * suits)
    if not _deck_fits([card for card, _ in placed], suits, copies):
        _check_deck(c.path, placed, game, suits, copies)  # names the first card out of place
    layout = Layout(game, tuple(columns), tuple(card for card, _ in stock))
    return Setup(layout, suits, permissive and suits > 1)


def _deck_fits(cards: list[int], suits: int, copies: int) -> bool:
    """Whether every card is of the deck's ``suits`` and none is given more than ``copies``
    times (the usual deal: ``_check_deck`` then finds nothing to report)."""
    return max(cards, default=0) >> 4 < suits and max(Counter(cards).values(), default=0) <= copies


def _check_deck(
    path: str, placed: list[tuple[int, int]], game: GameKind, suits: int, copies: int
) -> None:
    """Raise ``LogError`` at the first card, in the file's order, that is not of the deck's
    ``suits`` or is given more than ``copies`` times (``placed``: each card with its line)."""
    deck = N_("a {suits}-suit {game} deck", suits=suits, game=game.title)
    counts: dict[int, int] = {}
    first: dict[int, int] = {}
    for card, line in placed:
        if card >> 4 >= suits:
            names = (
                N_("spades only")
                if suits == 1
                else N_("spades and hearts")
                if suits == 2
                else N_("spades and hearts and diamonds and clubs")
            )
            raise LogError(
                N_(
                    "deal: {card} ({words}) is not in {deck} ({names})",
                    card=card_str(card),
                    words=CardWords(card),
                    deck=deck,
                    names=names,
                ),
                path=path,
                line=line,
            )
        n = counts[card] = counts.get(card, 0) + 1
        first.setdefault(card, line)
        if n > copies:
            # The sizes are right, so a card given too often means another is missing.
            totals = Counter(other for other, _ in placed)
            missing = next(m for m in ordered_deck(game, suits) if totals[m] < copies)
            raise LogError(
                N_(
                    "deal: {card} ({words}) is given {times} times (first on line {first}, "
                    "again here); {deck} holds {copies} of each card, and {missing} "
                    "({missing_words}) is missing",
                    card=card_str(card),
                    words=CardWords(card),
                    times=totals[card],
                    first=first[card],
                    deck=deck,
                    copies=copies,
                    missing=card_str(missing),
                    missing_words=CardWords(missing),
                ),
                path=path,
                line=line,
            )


__all__ = ["DEAL_KEYS", "MOVE_RULES", "parse_deal"]
