"""The refusal sentences of the 16 rules, worded once, in every language.

The engine's ``Refusal`` carries facts only: its rule ID, the cards it names and the few other
facts its sentence needs (a column, a count, the ruleset; see ``engine.Refusal``). Here they
become a sentence, the one sentence of each refusal: ``sentence(refusal)`` is a
``messages.Text``, whose string is the English sentence (the JSON report's ``message``,
``verify``'s machine formats, ``refusal.message``) and which ``said()`` says in the language in
use (the text report, the HTML page, ``verify``'s table, ``hint``). The message ids are the
English sentences; the Czech and Finnish catalogs translate them, with the card words of
``spidercli.text.words``.

Importing this module installs its English as the engine's ``Refusal.message``
(``engine.word_refusals``): the engine itself imports no words.
"""

from __future__ import annotations

from spidercli.game import engine
from spidercli.game.cards import card_str, cards_str
from spidercli.game.engine import Refusal
from spidercli.text.i18n import _, language
from spidercli.text.languages.en import RANK_NAMES
from spidercli.text.messages import N_, Nn_, Text
from spidercli.text.words import rank_name


class _Needs(Text):
    """The rank a card takes: ``an 8``, ``a Queen`` in English; said as the catalog's
    ``only {rank}`` with the rank's word in the language in use."""

    def __new__(cls, rank: int) -> _Needs:
        name = RANK_NAMES[rank]
        made = str.__new__(cls, f"{'an' if name[0] in '8A' else 'a'} {name}")
        made.msgid = str(made)
        made.fields = {"rank": rank}
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[int], dict[str, object]]:  # type: ignore[override]
        return (self.fields["rank"],), {}

    def said(self) -> str:
        if language() == "en":
            return str(self)
        return _("only {rank}").format(rank=rank_name(self.fields["rank"]))


def _needs(card: int) -> Text:
    """What ``card`` takes: 'an 8', 'a Queen'; 'nothing: nothing goes on an Ace'."""
    rank = card & 15
    if rank == 1:
        return N_("nothing: nothing goes on an Ace")
    return _Needs(rank - 1)


def sentence(refusal: Refusal) -> Text:
    """``refusal`` in words: English as a string, said in the language in use."""
    rule = refusal.rule
    cards = refusal.cards
    facts = refusal.facts
    if rule == engine.GAME_OVER:
        if facts[0] == engine.WON:
            return N_("the game is already won; no action can follow")
        return N_("the game is already finished; no action can follow")
    if rule == engine.NO_SUCH_COLUMN:
        number, columns = facts
        return N_(
            "there is no column {number}: columns are 1 to {columns}",
            number=number,
            columns=columns,
        )
    if rule == engine.SAME_COLUMN:
        return N_("column {column} is both the source and the target", column=facts[0])
    if rule == engine.EMPTY_SOURCE:
        column, down = facts
        if not down:
            return N_("column {column} is empty: nothing to move", column=column)
        return N_("column {column} has no face-up card: nothing to move", column=column)
    if rule == engine.FACE_DOWN_CARD:
        column, count = facts
        if int(count) < 1:
            return N_("a move takes at least 1 card")
        up = len(cards)
        return Nn_(
            "column {column} has {up} face-up card ({cards}); {count} asked for",
            "column {column} has {up} face-up cards ({cards}); {count} asked for",
            up,
            column=column,
            up=up,
            cards=cards_str(cards),
            count=count,
        )
    if rule == engine.GROUP_NOT_DESCENDING:
        i = next(i for i in range(len(cards) - 1) if cards[i + 1] & 15 != (cards[i] & 15) - 1)
        return N_(
            "{group} does not descend by one: {card} follows {previous}",
            group=cards_str(cards),
            card=card_str(cards[i + 1]),
            previous=card_str(cards[i]),
        )
    if rule == engine.GROUP_MIXED_SUITS:
        return N_(
            "{group} holds more than one suit: "
            "the classic move rule moves a group only when it is all one suit",
            group=cards_str(cards),
        )
    if rule == engine.BUILD_ONE_HIGHER:
        last = cards[-1]
        if facts:  # ``S>T``: no card of the source's run fits
            if last & 15 == 1:
                why = N_("nothing goes on an Ace")
            else:
                why = N_(
                    "it needs {needs}, and the descending run {run} has none",
                    needs=_needs(last),
                    run=cards_str(cards[:-1]),
                )
            return N_(
                "nothing from column {column} can go on {card}: {why}",
                column=facts[0],
                card=card_str(last),
                why=why,
            )
        first = cards[0]
        if first & 15 == 13:
            return N_(
                "{card} cannot go on {target}: a King goes only to an empty column",
                card=card_str(first),
                target=card_str(last),
            )
        return N_(
            "{card} cannot go on {target}: it needs {needs}",
            card=card_str(first),
            target=card_str(last),
            needs=_needs(last),
        )
    if rule == engine.NO_TARGET:
        return N_(
            "no column can take {group}: none ends one rank higher than {card}, and none is empty",
            group=cards_str(cards),
            card=card_str(cards[0]),
        )
    if rule == engine.STOCK_EMPTY:
        return N_("the stock is empty: no deals left")
    if rule == engine.DEAL_EMPTY_COLUMN:
        return N_("column {column} is empty: fill every column before dealing", column=facts[0])
    if rule == engine.FLIP_AUTOMATIC:
        return N_(
            "under {rules} rules a face-down card turns up by itself; there is no flip action",
            rules=facts[0],
        )
    if rule == engine.NOTHING_TO_FLIP:
        if not cards:
            return N_("column {column} is empty: nothing to flip", column=facts[0])
        return N_(
            "column {column} already ends face-up ({card})",
            column=facts[0],
            card=card_str(cards[0]),
        )
    if rule == engine.NOTHING_TO_UNDO:
        if not facts:
            return N_("nothing to undo: no action has been played")
        rules, depth = facts
        return Nn_(
            "nothing left to undo: {rules} rules undo at most the last {depth} action",
            "nothing left to undo: {rules} rules undo at most the last {depth} actions",
            int(depth),
            rules=rules,
            depth=depth,
        )
    if rule == engine.UNDO_AFTER_FLIP:
        return N_("{rules} rules allow no undo right after a flip", rules=facts[0])
    if rule == engine.UNDO_AFTER_DEAL:
        return N_("{rules} rules allow no undo right after a deal", rules=facts[0])
    raise ValueError(f"no sentence for the rule {rule!r}")


def english(refusal: Refusal) -> str:
    """``refusal``'s English sentence (``Refusal.message``)."""
    return str(sentence(refusal))


engine.word_refusals(english)

__all__ = ["english", "sentence"]
