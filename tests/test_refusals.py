"""Refusals are facts, worded once: the engine's ``Refusal`` carries the rule, the cards and a
few facts; ``spidercli.play.refusals`` words them in English (its message ids) and in every other
language, and the engine holds no sentence of its own."""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from spidercli.game import engine
from spidercli.game.actions import Move
from spidercli.game.engine import Refusal
from spidercli.play import refusals
from spidercli.play.refusals import sentence
from spidercli.text import i18n
from spidercli.text.messages import said
from tests.helpers import TRANSLATED, cards, position

ROOT = Path(__file__).resolve().parents[1]


def refusal(rule: str, card_text: str = "", *facts: int | str) -> Refusal:
    return Refusal(rule, tuple(cards(card_text)), facts)


# Every sentence each rule can say, from its facts (the engine's words before they moved here).
SENTENCES = [
    (refusal(engine.GAME_OVER, "", "won"), "the game is already won; no action can follow"),
    (
        refusal(engine.GAME_OVER, "", "resigned"),
        "the game is already finished; no action can follow",
    ),
    (refusal(engine.NO_SUCH_COLUMN, "", 11, 10), "there is no column 11: columns are 1 to 10"),
    (refusal(engine.SAME_COLUMN, "", 3), "column 3 is both the source and the target"),
    (refusal(engine.EMPTY_SOURCE, "", 2, 0), "column 2 is empty: nothing to move"),
    (refusal(engine.EMPTY_SOURCE, "", 2, 4), "column 2 has no face-up card: nothing to move"),
    (refusal(engine.FACE_DOWN_CARD, "9H", 4, 0), "a move takes at least 1 card"),
    (
        refusal(engine.FACE_DOWN_CARD, "9H", 4, 3),
        "column 4 has 1 face-up card (9H); 3 asked for",
    ),
    (
        refusal(engine.FACE_DOWN_CARD, "9H 8H", 4, 3),
        "column 4 has 2 face-up cards (9H 8H); 3 asked for",
    ),
    (
        refusal(engine.GROUP_NOT_DESCENDING, "9S 8S 6S"),
        "9S 8S 6S does not descend by one: 6S follows 8S",
    ),
    (
        refusal(engine.GROUP_MIXED_SUITS, "9S 8H"),
        "9S 8H holds more than one suit: "
        "the classic move rule moves a group only when it is all one suit",
    ),
    (refusal(engine.BUILD_ONE_HIGHER, "7H 9S"), "7H cannot go on 9S: it needs an 8"),
    (refusal(engine.BUILD_ONE_HIGHER, "7H QS"), "7H cannot go on QS: it needs a Jack"),
    (refusal(engine.BUILD_ONE_HIGHER, "7H 2S"), "7H cannot go on 2S: it needs an Ace"),
    (
        refusal(engine.BUILD_ONE_HIGHER, "7H AS"),
        "7H cannot go on AS: it needs nothing: nothing goes on an Ace",
    ),
    (
        refusal(engine.BUILD_ONE_HIGHER, "KH QS"),
        "KH cannot go on QS: a King goes only to an empty column",
    ),
    (
        refusal(engine.BUILD_ONE_HIGHER, "5H 4H 9S", 2),
        "nothing from column 2 can go on 9S: it needs an 8, and the descending run 5H 4H has none",
    ),
    (
        refusal(engine.BUILD_ONE_HIGHER, "5H AS", 2),
        "nothing from column 2 can go on AS: nothing goes on an Ace",
    ),
    (
        refusal(engine.NO_TARGET, "8D 7D"),
        "no column can take 8D 7D: none ends one rank higher than 8D, and none is empty",
    ),
    (refusal(engine.STOCK_EMPTY), "the stock is empty: no deals left"),
    (
        refusal(engine.DEAL_EMPTY_COLUMN, "", 5),
        "column 5 is empty: fill every column before dealing",
    ),
    (
        refusal(engine.FLIP_AUTOMATIC, "", "classic"),
        "under classic rules a face-down card turns up by itself; there is no flip action",
    ),
    (refusal(engine.NOTHING_TO_FLIP, "", 6), "column 6 is empty: nothing to flip"),
    (refusal(engine.NOTHING_TO_FLIP, "JC", 6), "column 6 already ends face-up (JC)"),
    (refusal(engine.NOTHING_TO_UNDO), "nothing to undo: no action has been played"),
    (
        refusal(engine.NOTHING_TO_UNDO, "", "duel", 1),
        "nothing left to undo: duel rules undo at most the last 1 action",
    ),
    (
        refusal(engine.NOTHING_TO_UNDO, "", "kpat", 100),
        "nothing left to undo: kpat rules undo at most the last 100 actions",
    ),
    (
        refusal(engine.UNDO_AFTER_FLIP, "", "pavouk"),
        "pavouk rules allow no undo right after a flip",
    ),
    (
        refusal(engine.UNDO_AFTER_DEAL, "", "duel"),
        "duel rules allow no undo right after a deal",
    ),
]


@pytest.mark.parametrize(("facts", "english"), SENTENCES, ids=[e for _, e in SENTENCES])
def test_each_refusal_is_worded_from_its_facts(facts: Refusal, english: str) -> None:
    words = sentence(facts)
    assert words == english == facts.message == said(words)
    assert str(facts) == f"{facts.rule}: {english}"
    for lang in TRANSLATED:
        i18n.use(lang)
        saying = said(words)
        assert saying and saying != english and "{" not in saying, (lang, saying)
        back = pickle.loads(pickle.dumps(words))  # verify's workers send it to the parent
        assert back == english and said(back) == saying
        i18n.use("en")


def test_every_rule_and_every_branch_is_in_the_table() -> None:
    assert {facts.rule for facts, _ in SENTENCES} == set(engine.RULE_IDS)
    with pytest.raises(ValueError, match="no sentence"):
        sentence(Refusal("no-such-rule"))


def test_the_czech_sentence_names_the_rank_a_card_needs() -> None:
    i18n.use("cs")
    needs_8 = said(sentence(refusal(engine.BUILD_ONE_HIGHER, "7H 9S")))
    needs_queen = said(sentence(refusal(engine.BUILD_ONE_HIGHER, "JH KS")))
    assert needs_8.endswith(" 8") and needs_queen.endswith(" dáma"), (needs_8, needs_queen)


def _msgids() -> list[str]:
    """The English sentences ``refusals`` words (its message ids)."""
    tree = ast.parse((ROOT / "spidercli" / "play" / "refusals.py").read_text())
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("N_", "Nn_", "_"):
            found.extend(
                a.value for a in node.args if isinstance(a, ast.Constant) and type(a.value) is str
            )
    return found


def test_the_engine_holds_no_sentence() -> None:
    """No refusal sentence, nor any piece of one between its fields, is left in the engine:
    the words live in ``refusals`` alone."""
    source = (ROOT / "spidercli" / "game" / "engine.py").read_text()
    msgids = _msgids()
    assert len(msgids) >= 27
    for msgid in msgids:
        for piece in msgid.replace("{", "}").split("}")[::2]:
            if len(piece.strip(" :;,.()")) >= 12:
                assert piece not in source, piece


def test_an_illegal_action_is_told_without_any_words_module() -> None:
    """The engine alone (no i18n, no refusals imported) still says which rule and cards refuse
    an action; with the words module loaded it says the sentence."""
    code = (
        "import sys\n"
        "from spidercli.game.actions import Move\n"
        "from spidercli.game.engine import IllegalActionError\n"
        "from tests.helpers import position\n"
        "g = position('| 9S', '| 7H')\n"
        "try:\n"
        "    g.apply(Move(2, 1, 1))\n"
        "except IllegalActionError as err:\n"
        "    print(err)\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m in ('spidercli.text.i18n', 'spidercli.play.refusals')))\n"
    )
    plain = subprocess.run(
        [sys.executable, "-c", code.replace("from tests.helpers import position\n", _POSITION)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert plain.stdout == "2>1:1: build-one-higher: cards 7H 9S\n[]\n"
    game = position("| 9S", "| 7H")
    with pytest.raises(engine.IllegalActionError) as caught:
        game.apply(Move(2, 1, 1))
    assert str(caught.value) == "2>1:1: build-one-higher: 7H cannot go on 9S: it needs an 8"
    assert refusals.english(caught.value.refusal) == "7H cannot go on 9S: it needs an 8"


# tests.helpers imports the CLI (and so the words); the subprocess builds its position alone.
_POSITION = (
    "from spidercli.game.cards import parse_card\n"
    "from spidercli.game.engine import Game\n"
    "from spidercli.game.rules import CLASSIC, SPIDER\n"
    "cols = [[parse_card('9S')], [parse_card('7H')]] + [[parse_card('KC')]] * 8\n"
    "g0 = Game(SPIDER, CLASSIC, cols, [parse_card('AC')] * 50, suits=4)\n"
    "position = lambda *a: g0\n"
)
