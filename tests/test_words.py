"""People's words for cards: each language's in its module (``spidercli/text/languages/``), said
in the language in use by one room (``spidercli.text.words``): adding a language is its module
and its catalog, and no other module names a language."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from spidercli.text import i18n
from spidercli.text.languages import Words, language_named
from spidercli.text.messages import N_, said
from spidercli.text.words import CardWords, card_name, rank_name, run_words, suit_word
from tests.helpers import TRANSLATED, cards

PACKAGE = Path(__file__).resolve().parents[1] / "spidercli"


def test_every_language_has_its_card_words() -> None:
    """The languages are the modules of ``spidercli/text/languages/``, English first."""
    modules = sorted(p.stem for p in (PACKAGE / "text" / "languages").glob("[!_]*.py"))
    assert sorted(i18n.LANGUAGES) == modules and i18n.LANGUAGES[0] == "en"
    for lang in i18n.LANGUAGES:
        assert isinstance(language_named(lang).words, Words), lang


def test_every_language_but_english_has_a_catalog() -> None:
    for lang in TRANSLATED:
        assert (PACKAGE / "locale" / lang / "LC_MESSAGES" / "spidercli.po").is_file(), lang


def test_no_module_but_the_languages_names_a_language() -> None:
    """The text report, the HTML page, the refusal sentences and every other module take
    their words from the catalogs and ``words``: none tells the languages apart itself (not
    even ``i18n``: it knows the languages by their modules)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[:2] == ("text", "languages"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in TRANSLATED:
                pytest.fail(f"{path.name}:{node.lineno} names the language {node.value!r}")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("the 10 of spades", "Queen", "the King down to the 9 of hearts", "clubs")),
        ("cs", ("piková 10", "dáma", "srdcová řada od krále po 9", "křížová")),
        ("fi", ("pata-10", "kuningatar", "herttasarja kuninkaasta 9:ään", "risti")),
    ],
)
def test_the_words_of_each_language(lang: str, words: tuple[str, ...]) -> None:
    i18n.use(lang)
    ten, king, nine = cards("TS KH 9H")
    assert (card_name(ten), rank_name(12), run_words(king, nine), suit_word(3)) == words


def test_card_words_in_a_message_are_english_and_said_in_the_language() -> None:
    """One ``CardWords`` for an explicit deal's messages and a KPat save's (which keeps KPat's
    own English words); both survive pickling (verify's workers)."""
    (ace,) = cards("AH")
    ours = N_("deal: {words} is here", words=CardWords(ace))
    kpats = N_("deal: {words} is here", words=CardWords(ace, "the ace of hearts"))
    assert (ours, kpats) == ("deal: the Ace of hearts is here", "deal: the ace of hearts is here")
    i18n.use("cs")
    for text in (ours, kpats, pickle.loads(pickle.dumps(ours)), pickle.loads(pickle.dumps(kpats))):
        assert "srdcové eso" in said(text)
