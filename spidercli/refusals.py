"""The refusal sentences of the 16 rules, in the language in use, for the text report.

The engine's ``Refusal`` carries its rule ID, an English sentence and the cards; the JSON report
keeps that sentence as it is. Here the sentence is built again from facts, not from the English
words: the rule, the cards, the refused action (its columns and card count) and the position it
was refused in (the ruleset, the columns, the history). In English the result is the engine's
sentence exactly (a test replays every refusal the fixtures and random games produce and compares).
"""

from __future__ import annotations

from spidercli import engine
from spidercli.actions import Action, Flip, Move, Tap
from spidercli.cards import card_str, cards_str
from spidercli.engine import Game, Refusal
from spidercli.i18n import _, language, ngettext
from spidercli.movelog import Entry


def _needs(card: int) -> str:
    """What ``card`` takes: 'an 8', 'a Queen'; 'nothing: nothing goes on an Ace'."""
    from spidercli.render import rank_name

    rank = card & 15
    if rank == 1:
        return _("nothing: nothing goes on an Ace")
    if language() == "en":
        name = rank_name(rank - 1)
        return f"{'an' if name[0] in '8A' else 'a'} {name}"
    return _("only {rank}").format(rank=rank_name(rank - 1))


def _columns(action: Action) -> tuple[int, ...]:
    if isinstance(action, Move):
        return (action.source, action.target)
    if isinstance(action, Tap):
        return (action.source,)
    if isinstance(action, Flip):
        return (action.column,)
    return ()


def refusal_sentence(refusal: Refusal, game: Game, entry: Entry) -> str:
    """``refusal`` of ``entry``'s action in ``game`` (the position before it) in words."""
    rule = refusal.rule
    cards = refusal.cards
    action = entry.action
    ncols = game.kind.columns
    source = _columns(action)[0] if _columns(action) else 0
    rules = game.rules.name
    if rule == engine.GAME_OVER:
        if game.over == engine.WON:
            return _("the game is already won; no action can follow")
        return _("the game is already finished; no action can follow")
    if rule == engine.NO_SUCH_COLUMN:
        number = next(c for c in _columns(action) if not 1 <= c <= ncols)
        return _("there is no column {number}: columns are 1 to {columns}").format(
            number=number, columns=ncols
        )
    if rule == engine.SAME_COLUMN:
        return _("column {column} is both the source and the target").format(column=source)
    if rule == engine.EMPTY_SOURCE:
        if not game.cols[source - 1]:
            return _("column {column} is empty: nothing to move").format(column=source)
        return _("column {column} has no face-up card: nothing to move").format(column=source)
    if rule == engine.FACE_DOWN_CARD:
        count = getattr(action, "count", None) or 0
        if count < 1:
            return _("a move takes at least 1 card")
        up = len(cards)
        return ngettext(
            "column {column} has {up} face-up card ({cards}); {count} asked for",
            "column {column} has {up} face-up cards ({cards}); {count} asked for",
            up,
        ).format(column=source, up=up, cards=cards_str(cards), count=count)
    if rule == engine.GROUP_NOT_DESCENDING:
        i = next(i for i in range(len(cards) - 1) if cards[i + 1] & 15 != (cards[i] & 15) - 1)
        return _("{group} does not descend by one: {card} follows {previous}").format(
            group=cards_str(cards), card=card_str(cards[i + 1]), previous=card_str(cards[i])
        )
    if rule == engine.GROUP_MIXED_SUITS:
        return _(
            "{group} holds more than one suit: "
            "the classic move rule moves a group only when it is all one suit"
        ).format(group=cards_str(cards))
    if rule == engine.BUILD_ONE_HIGHER:
        last = cards[-1]
        if isinstance(action, Move) and action.count is None:
            if last & 15 == 1:
                why = _("nothing goes on an Ace")
            else:
                why = _("it needs {needs}, and the descending run {run} has none").format(
                    needs=_needs(last), run=cards_str(cards[:-1])
                )
            return _("nothing from column {column} can go on {card}: {why}").format(
                column=source, card=card_str(last), why=why
            )
        first = cards[0]
        if first & 15 == 13:
            return _("{card} cannot go on {target}: a King goes only to an empty column").format(
                card=card_str(first), target=card_str(last)
            )
        return _("{card} cannot go on {target}: it needs {needs}").format(
            card=card_str(first), target=card_str(last), needs=_needs(last)
        )
    if rule == engine.NO_TARGET:
        return _(
            "no column can take {group}: none ends one rank higher than {card}, and none is empty"
        ).format(group=cards_str(cards), card=card_str(cards[0]))
    if rule == engine.STOCK_EMPTY:
        return _("the stock is empty: no deals left")
    if rule == engine.DEAL_EMPTY_COLUMN:
        column = next(c for c, col in enumerate(game.cols, 1) if not col)
        return _("column {column} is empty: fill every column before dealing").format(column=column)
    if rule == engine.FLIP_AUTOMATIC:
        return _(
            "under {rules} rules a face-down card turns up by itself; there is no flip action"
        ).format(rules=rules)
    if rule == engine.NOTHING_TO_FLIP:
        if not cards:
            return _("column {column} is empty: nothing to flip").format(column=source)
        return _("column {column} already ends face-up ({card})").format(
            column=source, card=card_str(cards[0])
        )
    if rule == engine.NOTHING_TO_UNDO:
        if not game.history:
            return _("nothing to undo: no action has been played")
        depth = game.rules.undo_depth
        return ngettext(
            "nothing left to undo: {rules} rules undo at most the last {depth} action",
            "nothing left to undo: {rules} rules undo at most the last {depth} actions",
            depth,
        ).format(rules=rules, depth=depth)
    if rule == engine.UNDO_AFTER_FLIP:
        return _("{rules} rules allow no undo right after a flip").format(rules=rules)
    if rule == engine.UNDO_AFTER_DEAL:
        return _("{rules} rules allow no undo right after a deal").format(rules=rules)
    return refusal.message  # a rule this module does not know yet: the engine's own words


def refusal_words(refusal: Refusal, game: Game, entry: Entry) -> str:
    """The sentence a reader sees for ``refusal``: the engine's own in English, else
    ``refusal_sentence`` in the language in use."""
    return refusal.message if language() == "en" else refusal_sentence(refusal, game, entry)


def refusal_summary(named: str, refusal: Refusal, game: Game, entry: Entry) -> str:
    """``entry 2 `3>3`: column 3 is both the source and the target``, the one-line form
    ``verify``'s table quotes: English as a string (the machine formats carry it), said in the
    language in use (built now, while ``game`` is the position the entry was refused in)."""
    english = f"{named}: {refusal.message}"
    lang = language()
    if lang == "en":
        return english
    from spidercli.messages import Prepared, said

    return Prepared(english, lang, f"{said(named)}: {refusal_sentence(refusal, game, entry)}")


__all__ = ["refusal_sentence", "refusal_summary", "refusal_words"]
