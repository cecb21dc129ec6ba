"""The language machinery: choosing the language, the plural forms, and what never changes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from spidercli.game.actions import DEAL
from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, SPIDERETTE
from spidercli.report.page import script_json
from spidercli.report.text import describe
from spidercli.text import i18n
from tests.browser import Browser, dom
from tests.helpers import BAD, FIXTURES, GAMES, ILLEGAL, ROOT, TRANSLATED, position, run

LANGS = i18n.LANGUAGES


# ----------------------------------------------------------------------- choosing the language


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "cs_CZ.UTF-8"}, "cs"),
        ({"LANG": "fi_FI"}, "fi"),
        ({"LANG": "fi"}, "fi"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "cs_CZ@euro"}, "cs"),
        ({"LC_MESSAGES": "fi_FI.UTF-8", "LANG": "cs_CZ.UTF-8"}, "fi"),
        ({"LC_ALL": "cs_CZ.UTF-8", "LC_MESSAGES": "fi_FI", "LANG": "fi_FI"}, "cs"),
        # the first non-empty one decides, even when it names a language spidercli lacks
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "cs_CZ.UTF-8"}, "en"),
        ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "fi_FI.UTF-8"}, "fi"),
    ],
)
def test_language_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert i18n.from_environment(env) == lang
    assert i18n.choose(None, env) == lang
    assert i18n.language() == lang


def test_lang_beats_the_environment() -> None:
    assert i18n.choose("fi", {"LC_ALL": "cs_CZ.UTF-8"}) == "fi"
    assert i18n.choose("CS", {}) == "cs"


@pytest.mark.parametrize("bad", ["de", "", "cz", "en_US", "finnish"])
def test_bad_lang_value(bad: str) -> None:
    with pytest.raises(i18n.LanguageError, match="expected one of en, cs, fi"):
        i18n.choose(bad)


@pytest.mark.parametrize(
    "command", [("replay", "fixtures/spider-1suit-win.yaml"), ("deal", "SD1-S1-AAAAABD")]
)
def test_bad_lang_is_exit_2(command: tuple[str, str]) -> None:
    result = run(*command, "--lang", "de")
    assert result.exit_code == 2
    assert "Invalid value for '--lang': 'de' is not a language spidercli speaks" in result.output
    assert "Traceback" not in result.output


def test_cli_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    assert run("deal", "SD1-S1-AAAAABD").output.startswith("Hra ")
    monkeypatch.setenv("LC_MESSAGES", "fi_FI.UTF-8")
    assert run("deal", "SD1-S1-AAAAABD").output.startswith("Peli ")
    assert run("deal", "SD1-S1-AAAAABD", "--lang", "en").output.startswith("Game ")


def test_catalog_loads_only_when_a_text_needs_it() -> None:
    i18n.choose("cs")
    assert i18n._catalog is None
    assert i18n._("Start") == "Začátek"
    assert i18n._catalog is not None


def test_importing_the_cli_loads_no_catalog() -> None:
    code = (
        "import sys, spidercli.cli.app, spidercli.text.i18n as i; "
        "print(i._catalog is None, any('render' in m for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split() == ["True", "False"]


# ------------------------------------------------------------------------------- plural forms


def _czech_form(n: int) -> str:
    return "karta" if n == 1 else "karty" if 2 <= n <= 4 else "karet"


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 11, 21, 22, 24, 100, 104])
def test_plural_forms(n: int) -> None:
    i18n.use("cs")
    assert i18n.ngettext("{n} card", "{n} cards", n).format(n=n) == f"{n} {_czech_form(n)}"
    i18n.use("fi")
    word = "kortti" if n == 1 else "korttia"
    assert i18n.ngettext("{n} card", "{n} cards", n).format(n=n) == f"{n} {word}"
    i18n.use("en")
    assert i18n.ngettext("{n} card", "{n} cards", n).format(n=n) == f"{n} card{'s' * (n != 1)}"


# ----------------------------------------------------------- machine formats and exit statuses


def _json_runs() -> list[tuple[str, ...]]:
    runs: list[tuple[str, ...]] = [("replay", f"fixtures/{name}", "--json") for name in GAMES]
    runs += [("replay", f"fixtures/illegal/{rule}.yaml", "--json") for rule in ILLEGAL]
    runs += [
        ("replay", f"fixtures/illegal/{rule}.yaml", "--json", "--on-illegal", "skip")
        for rule in ILLEGAL
    ]
    runs += [("replay", f"fixtures/bad/{name}", "--json") for name in BAD]
    runs += [("deal", code, "--json") for code in ("SD1-S1-AAAAABD", "SP4-S1P-AAAAAAD", "XX")]
    return runs


@pytest.mark.parametrize("args", _json_runs(), ids=lambda a: " ".join(a[:2]))
def test_lang_never_changes_json_or_exit_status(args: tuple[str, ...]) -> None:
    english = run(*args)
    for lang in TRANSLATED:
        other = run(*args, "--lang", lang)
        assert other.exit_code == english.exit_code
        assert other.stdout_bytes == english.stdout_bytes
        json.loads(other.stdout)


@pytest.mark.parametrize("name", GAMES + [f"illegal/{r}" for r in ILLEGAL])
def test_lang_never_changes_the_text_report_exit_status(name: str) -> None:
    path = f"fixtures/{name}" if name.endswith(".yaml") else f"fixtures/{name}.yaml"
    statuses = {run("replay", path, "--lang", lang).exit_code for lang in LANGS}
    assert len(statuses) == 1


# ------------------------------------------------------------------------- translated reports


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("rule", ILLEGAL)
def test_illegal_report(rule: str, lang: str, snapshot: SnapshotAssertion) -> None:
    result = run("replay", f"fixtures/illegal/{rule}.yaml", "--lang", lang)
    assert result.exit_code == 1
    assert re.search(rf"[ (]{rule}[\n)]", result.stdout)  # the rule ID is never translated
    assert result.stdout == snapshot


@pytest.mark.parametrize("lang", TRANSLATED)
def test_report_with_boards_and_skipped_refusals(lang: str, snapshot: SnapshotAssertion) -> None:
    result = run("replay", "fixtures/spider-2suit-open.yaml", "--show", "0,3,final", "--lang", lang)
    assert result.stdout == snapshot
    skipped = run(
        "replay",
        "fixtures/illegal/build-one-higher.yaml",
        "--on-illegal",
        "skip",
        "--show",
        "none",
        "--lang",
        lang,
    )
    assert skipped.stdout == snapshot


@pytest.mark.parametrize("lang", TRANSLATED)
def test_deal_text(lang: str, snapshot: SnapshotAssertion) -> None:
    assert run("deal", "SP2-S1P-AAAAABD", "--lang", lang).stdout == snapshot
    assert run("deal", "SD1-S1-AAAAABD", "--describe", "--lang", lang).stdout == snapshot


def test_english_report_does_not_change_with_lang_en() -> None:
    for name in GAMES:
        assert (
            run("replay", f"fixtures/{name}", "--lang", "en").stdout
            == run("replay", f"fixtures/{name}").stdout
        )


def test_unmet_expectation_in_czech(tmp_path: Path) -> None:
    log = tmp_path / "game.yaml"
    text = (FIXTURES / "spiderette-1suit-win.yaml").read_text()
    log.write_text(re.sub(r"(?m)^(\s*score:\s*)\d+", r"\g<1>1", text))
    result = run("replay", str(log), "--lang", "cs")
    assert result.exit_code == 1
    assert "Kontrola score: očekáváno 1, skutečnost " in result.stdout
    assert "NEPLATNÝ: očekávání nesplněna" in result.stdout


# ------------------------------------------------------------------------------ descriptions


def _described(game: Game, lang: str) -> str:
    i18n.use(lang)
    return describe(game)


POSITIONS = {
    # several face-up cards, a one-suit run King to 9, a mixed group, an empty column, a column
    # of face-down cards only
    "mixed": position(
        "5H 3C | KS QS JS TS 9S 4H",
        "",
        "2D 7C 8C |",
        "| QH JC TD",
        "AS | 8D 7D 6D 5D",
        "| KD QD JD",
    ),
    "ranks": position("| AS", "| JH", "| QD", "| KC", "| TS 9H", "| 2C", "7S 7S | 3D AH 9C"),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_positions_the_pages_do_not_show(name: str, lang: str, snapshot: SnapshotAssertion) -> None:
    assert _described(POSITIONS[name], lang) == snapshot


def _spiderette_dealt(deals: int) -> Game:
    game = Game.from_setup(Setup.from_code(parse_code("SD4-S1-AAAAABD")), CLASSIC)
    for _ in range(deals):
        assert game.play(DEAL) is None
    return game


@pytest.mark.parametrize("lang", LANGS)
def test_spiderette_last_deal(lang: str, snapshot: SnapshotAssertion) -> None:
    before_last = _described(_spiderette_dealt(3), lang)
    after_last = _described(_spiderette_dealt(4), lang)
    assert (before_last, after_last) == snapshot
    if lang == "cs":
        assert before_last.startswith("Dobírací balíček: 3 karty, zbývající rozdání: 1; ")
        assert after_last.startswith("Dobírací balíček: 0 karet, zbývající rozdání: 0; ")
        assert "Tahy: 4; skóre: 496." in after_last
    if lang == "fi":
        assert before_last.startswith("Nostopakka: 3 korttia, 1 jako jäljellä; ")
        assert after_last.startswith("Nostopakka: 0 korttia, 0 jakoa jäljellä; ")


@pytest.mark.parametrize(
    ("runs", "czech", "finnish"),
    [
        (1, "1 postupka z 8 byla odebrána (piková)", "poistetut sarjat: 1/8 (pata)"),
        (
            2,
            "2 postupky z 8 byly odebrány (piková, srdcová)",
            "poistetut sarjat: 2/8 (pata, hertta)",
        ),
        (4, "4 postupky z 8 byly odebrány (piková, srdcová, kárová, křížová)", "4/8"),
        (5, "5 postupek z 8 bylo odebráno (piková, srdcová, kárová, křížová, piková)", "5/8"),
    ],
)
def test_runs_removed_plural_forms(runs: int, czech: str, finnish: str) -> None:
    game = position("| KS", "| KH")
    game.removed = [s % 4 for s in range(runs)]
    assert f"; {czech}. Sloupec 1:" in _described(game, "cs")
    assert finnish in _described(game, "fi")
    english = _described(game, "en")
    assert f"; {runs} of 8 runs removed (spades" in english  # not "a run of 8" (cards)


@pytest.mark.parametrize(
    ("card", "czech", "finnish"),
    [
        ("AS", "pikové eso", "pataässä"),
        ("2H", "srdcová 2", "hertta-2"),
        ("TD", "kárová 10", "ruutu-10"),
        ("JC", "křížový kluk", "ristisotilas"),
        ("QH", "srdcová dáma", "herttakuningatar"),
        ("KD", "kárový král", "ruutukuningas"),
    ],
)
def test_card_names(card: str, czech: str, finnish: str) -> None:
    game = position(f"| {card}")
    # Czech keeps its app's "skryté karty: 0"; Finnish and English say only what is there
    assert f"Sloupec 1: skryté karty: 0, dále {czech};" in _described(game, "cs")
    assert f"Sarake 1: {finnish};" in _described(game, "fi")


@pytest.mark.parametrize(
    ("run_cards", "czech", "finnish"),
    [
        ("KS QS JS TS 9S", "piková řada od krále po 9", "patasarja kuninkaasta 9:ään"),
        ("QH JH TH", "srdcová řada od dámy po 10", "herttasarja kuningattaresta 10:een"),
        ("JD TD 9D 8D", "kárová řada od kluka po 8", "ruutusarja sotilaasta 8:aan"),
        ("4C 3C 2C AC", "křížová řada od 4 po eso", "ristisarja 4:stä ässään"),
        ("7S 6S 5S 4S", "piková řada od 7 po 4", "patasarja 7:stä 4:ään"),
        ("TC 9C 8C 7C 6C", "křížová řada od 10 po 6", "ristisarja 10:stä 6:een"),
    ],
)
def test_one_suit_runs(run_cards: str, czech: str, finnish: str) -> None:
    game = position(f"| {run_cards}")
    assert f"dále {czech};" in _described(game, "cs")
    assert f"Sarake 1: {finnish};" in _described(game, "fi")


def test_the_seed_description_is_the_english_one_in_other_words() -> None:
    # The same position in three languages: the same numbers in the same order.
    # (Czech alone counts a column's 0 face-down cards, as its app's paragraph does.)
    game = _spiderette_dealt(2)
    cs = _described(game, "cs").replace("skryté karty: 0, ", "")
    numbers = {lang: re.findall(r"\d+", _described(game, lang)) for lang in LANGS}
    assert re.findall(r"\d+", cs) == numbers["en"] == numbers["fi"]


# --------------------------------------------------------------------------------- HTML page


@pytest.mark.parametrize("lang", TRANSLATED)
def test_html_page_follows_lang(lang: str, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    result = run(
        "replay", "fixtures/illegal/build-one-higher.yaml", "--html", str(page), "--lang", lang
    )
    assert result.exit_code == 1
    text = page.read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in text
    assert "{{" not in text
    data = json.loads(re.search(r'id="data">(.*?)</script>', text).group(1))  # type: ignore[union-attr]
    i18n.use(lang)  # the language's own words, from its catalog (a new language needs no row here)
    start, stock = (
        i18n._("Start position"),
        describe(Game.from_code(parse_code("SP1-S1C-AAAAABD"), CLASSIC)),
    )
    i18n.use("en")
    assert data["text"]["start"] == start != "Start position"
    # the paragraph's stock phrase begins as the text report's --describe says it in the language
    assert data["words"]["stock"][0].startswith(re.split(r"\d", stock)[0])
    assert not stock.startswith("Stock")
    assert len(data["stock"]) == len(data["words"]["stock"])  # one for each number of deals left
    (refused,) = data["refusals"]
    assert refused[0] == "build-one-higher"
    report = json.loads(run("replay", "fixtures/illegal/build-one-higher.yaml", "--json").stdout)
    assert refused[1] != report["illegal"][0]["message"]  # in the page's language
    for english in ("Move log", "Step through the game", "Start position", "Verdict"):
        assert english not in text


def test_html_page_in_english_keeps_its_words(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    run("replay", "fixtures/illegal/build-one-higher.yaml", "--html", str(page))
    text = page.read_text(encoding="utf-8")
    assert '<html lang="en">' in text
    assert "Move log <code>" in text
    report = json.loads(run("replay", "fixtures/illegal/build-one-higher.yaml", "--json").stdout)
    assert script_json(report["illegal"][0]["message"]) in text


def test_spiderette_rules_is_spiderette() -> None:
    assert SPIDERETTE.title == "Spiderette"


@pytest.mark.parametrize(
    ("lang", "start", "entry", "refused", "note", "stock"),
    [
        (
            "cs",
            "Počáteční pozice",
            "Položka 1: 4>1 (řádek 5)",
            "Odmítnuto, build-one-higher: nic ze sloupce 4 nelze položit na 6S",
            "Zobrazena je pozice před touto položkou; karty",
            "50 karet, zbývající rozdání: 5",
        ),
        (
            "fi",
            "Alkuasema",
            "Merkintä 1: 4>1 (rivi 5)",
            "Hylätty, build-one-higher: mitään sarakkeesta 4 ei voi asettaa kortin 6S päälle",
            "Pöytä näyttää aseman ennen tätä merkintää; säännön",
            "50 korttia, 5 jakoa jäljellä",
        ),
    ],
)
def test_html_page_script_speaks_the_language(
    browser: Browser,
    tmp_path: Path,
    lang: str,
    start: str,
    entry: str,
    refused: str,
    note: str,
    stock: str,
) -> None:
    """In a real browser: the page's script writes its captions in the page's language."""
    page = tmp_path / "page.html"
    run("replay", "fixtures/illegal/build-one-higher.yaml", "--html", str(page), "--lang", lang)
    browser.open(f"{page.as_uri()}#0")
    seen = dom(browser)
    assert seen["action"] == start
    assert seen["refusal"] is None
    browser.open(f"{page.as_uri()}#1")
    seen = dom(browser)
    assert seen["action"] == entry
    assert seen["refusal"].startswith(refused)
    assert note in seen["refusal"]
    assert browser.evaluate("document.getElementById('stock').textContent") == stock


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        (
            "cs",
            "SP1-S1C-AAAAAAD, před odmítnutou položkou 1 `4&gt;1` (řádek 5)",
            "Dobírací balíček",
        ),
        ("fi", "SP1-S1C-AAAAAAD, ennen hylättyä merkintää 1 `4&gt;1` (rivi 5)", "Nostopakka"),
    ],
)
def test_svg_title_and_description_follow_lang(
    lang: str, title: str, words: str, tmp_path: Path
) -> None:
    picture = tmp_path / "board.svg"
    args = ("fixtures/illegal/build-one-higher.yaml", "--svg", str(picture), "--show", "1")
    result = run("replay", *args, "--lang", lang)
    assert result.exit_code == 1
    text = picture.read_text(encoding="utf-8")
    assert f"<title>{title}</title>" in text
    assert f"<desc>{words}: " in text
