"""Every command's text for people in Czech and Finnish, the errors' two forms (English for
machines, the chosen language for people), and the machine formats that never change."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from spidercli.errors import InputError
from spidercli.game.cards import make_card
from spidercli.game.codes import CodeError, parse_code
from spidercli.game.engine import BUILD_ONE_HIGHER, NOTHING_TO_UNDO, SAME_COLUMN, Refusal
from spidercli.game.kpatdeal import kpat_deal_ids
from spidercli.judging.formats import DEFAULT_FORMAT, FORMATS
from spidercli.logs.reader import load_log
from spidercli.play.refusals import sentence
from spidercli.text import i18n
from spidercli.text.messages import N_, Joined, Nn_, Text, located, message_of, prefixed, said
from tests.helpers import BAD, FIXTURES, ILLEGAL, TRANSLATED, run
from tests.kpat_saves import card_xml, save_xml

OTHER = TRANSLATED
SAME_COLUMN_3 = Refusal(SAME_COLUMN, (), (3,))


@pytest.fixture
def czech() -> object:
    i18n.use("cs")
    yield
    i18n.use("en")


# ------------------------------------------------------------------------- the error form


def test_a_text_is_its_english_string(czech: object) -> None:
    text = N_("{what} must be text, not {kind}", what="player", kind=N_("an integer"))
    assert text == "player must be text, not an integer"
    assert json.dumps(text) == '"player must be text, not an integer"'
    assert said(text) == "player: musí být text, ne celé číslo"  # the field is said too


def test_said_in_english_is_the_string_itself() -> None:
    text = Nn_("{n} point", "{n} points", 2, n=2)
    assert said(text) == "2 points" and said("plain") == "plain"


@pytest.mark.parametrize(
    "text",
    [
        N_("{what}: {value} is out of range", what="rules", value="'x'"),
        Nn_("{n:,} byte", "{n:,} bytes", 5, n=5),
        located("a.yaml", 3, N_("a list")),
        prefixed(N_("moves, entry {i}", i=2), N_("a list")),
        Joined("; ", [N_("a list"), "plain", N_("a number")]),
        prefixed(N_("entry {index} `{text}`", index=2, text="3>3"), sentence(SAME_COLUMN_3)),
        sentence(Refusal(BUILD_ONE_HIGHER, (make_card(7, 1), make_card(9, 0)))),  # '... an 8'
        sentence(Refusal(NOTHING_TO_UNDO, (), ("duel", 1))),  # a plural
    ],
)
def test_a_text_survives_pickling(text: Text, czech: object) -> None:
    """verify's workers send their verdicts to the parent, which says them."""
    back = pickle.loads(pickle.dumps(text))
    assert type(back) is type(text)
    assert back == text and said(back) == said(text) and said(back) != str(text)


def test_an_input_error_keeps_both_forms(czech: object) -> None:
    with pytest.raises(InputError) as caught:
        load_log(str(FIXTURES / "bad" / "wrong-type.yaml"))
    err = caught.value
    assert err.message == (
        "moves, entry 2: expected an action such as '3>7' or 'deal', not an integer"
    )
    assert str(err).endswith(":4: " + err.message)
    assert err.said().endswith(
        ":4: moves, položka 2: očekávána akce jako '3>7' nebo 'deal', ne celé číslo"
    )


def test_message_of_keeps_the_text(czech: object) -> None:
    with pytest.raises(CodeError) as caught:
        parse_code("SP3-S1C-AAAAAAD")
    message = message_of(caught.value)
    assert message == str(caught.value)
    assert said(message).startswith("'SP3-S1C-AAAAAAD' není kód hry")
    assert message_of(ValueError("plain")) == "plain"


# ------------------------------------------------------------ every bad fixture, every language


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", BAD)
def test_bad_fixture_error(name: str, lang: str, snapshot: SnapshotAssertion) -> None:
    english = run("replay", f"fixtures/bad/{name}")
    result = run("replay", f"fixtures/bad/{name}", "--lang", lang)
    assert result.exit_code == english.exit_code == 2
    assert result.stderr != english.stderr  # said in the language, not left in English
    assert result.stderr.startswith(f"spidercli: error: fixtures/bad/{name}")
    assert result.stderr == snapshot


@pytest.mark.parametrize("lang", OTHER)
def test_bad_fixtures_json_error_stays_english(lang: str) -> None:
    for name in BAD:
        english = run("replay", f"fixtures/bad/{name}", "--json")
        other = run("replay", f"fixtures/bad/{name}", "--json", "--lang", lang)
        assert other.stdout_bytes == english.stdout_bytes
        assert json.loads(other.stdout)["error"]["message"].isascii() or name == "binary.yaml"


# --------------------------------------------------------------------------- the commands


@pytest.mark.parametrize("lang", OTHER)
def test_verify_table(lang: str, snapshot: SnapshotAssertion) -> None:
    result = run("verify", "fixtures/batch", "--lang", lang)
    assert result.exit_code == run("verify", "fixtures/batch").exit_code == 2
    assert "INVALID-INPUT" in result.stdout and "ILLEGAL" in result.stdout  # status words
    assert result.stdout == snapshot


@pytest.mark.parametrize("lang", OTHER)
def test_duel_text(lang: str, snapshot: SnapshotAssertion) -> None:
    result = run(
        "duel", "fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml", "--lang", lang
    )
    assert result.exit_code == 0
    assert result.stdout == snapshot


@pytest.mark.parametrize("lang", OTHER)
def test_duel_with_a_refused_action(lang: str, snapshot: SnapshotAssertion) -> None:
    args = ("duel", "fixtures/duel-finish.yaml", "fixtures/illegal/undo-after-flip.yaml")
    result = run(*args, "--lang", lang)
    assert result.exit_code == run(*args).exit_code
    assert "undo-after-flip" in result.stdout
    assert result.stdout == snapshot


def _submissions(tmp_path: Path) -> Path:
    for player, name in (
        ("alice", "example-spiderette-53.yaml"),
        ("bob", "example-spiderette-53.yaml"),
    ):
        text = (FIXTURES / name).read_text()
        (tmp_path / f"{player}.yaml").write_text(
            text.replace("game:", f"player: {player}\ngame:", 1)
        )
    (tmp_path / "carol.yaml").write_text(
        (FIXTURES / "spider-1suit-win.yaml").read_text().replace("game:", "player: carol\ngame:", 1)
    )
    (tmp_path / "dave.yaml").write_text("player: dave\ngame: SD1-S1-AAAABIW\nmoves: [5 to 7]\n")
    (tmp_path / "manifest.yml").write_text(
        "name: Pohár\nrules: classic\ndeals:\n  - SD1-S1-AAAABIW\n"
    )
    return tmp_path


@pytest.mark.parametrize("lang", OTHER)
def test_tournament_text(
    lang: str, tmp_path: Path, snapshot: SnapshotAssertion, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_submissions(tmp_path))
    args = ("tournament", ".", "-m", "manifest.yml")
    result = run(*args, "--lang", lang)
    assert result.exit_code == run(*args).exit_code
    assert result.stdout == snapshot


RESULT_WORDS = {"cs": ("vyhraná", "rozehraná"), "fi": ("voitettu", "kesken")}


@pytest.mark.parametrize("lang", OTHER)
def test_tournament_says_each_result_in_the_language(lang: str, tmp_path: Path) -> None:
    """The results per deal and the superseded logs say a game's result as verify's table does
    (vyhraná, kesken), not the log's English word; the JSON and CSV keep the English."""
    won = (FIXTURES / "example-spiderette-53.yaml").read_text()
    (tmp_path / "a-best.yaml").write_text(won.replace("game:", "player: alice\ngame:", 1))
    (tmp_path / "a-other.yaml").write_text("player: alice\ngame: SD1-S1-AAAABIW\nmoves: [deal]\n")
    (tmp_path / "b.yaml").write_text("player: bob\ngame: SD1-S1-AAAABIW\nmoves: [deal]\n")
    result = run("tournament", str(tmp_path), "--lang", lang)
    assert result.exit_code == 0, result.output
    per_deal = result.stdout.split("\n\n")[2].splitlines()
    superseded = " ".join(result.stdout.split("\n\n")[3].split())  # wrapped to the width
    won_word, open_word = RESULT_WORDS[lang]
    assert f"  {won_word} " in per_deal[2] and "a-best.yaml" in per_deal[2]  # alice
    assert f"  {open_word} " in per_deal[3] and "b.yaml" in per_deal[3]
    assert superseded.endswith(f"alice, SD1-S1-AAAABIW: 499, {open_word}")  # her other log
    for line in [*per_deal, superseded]:
        assert not re.search(r"\b(won|open)\b", line), line
    english = run("tournament", str(tmp_path), "-f", "json", "--lang", lang)
    assert [r["result"] for r in json.loads(english.stdout)["results"]] == ["won", "open"]


@pytest.mark.parametrize(
    ("lang", "head", "medians"),
    [
        ("en", "3 deals: 2 won, 1 unwinnable, 0 gave up", "median 71 moves, median gap 31.5"),
        (
            "cs",
            "3 rozdání: vyhraných 2, nevyhratelných 1, bez výsledku 0",
            "medián 71 tahů, medián rozdílu 31,5",
        ),
        (
            "fi",
            "3 jakoa: voitettuja 2, ei voitettavissa 1, keskeytettyjä 0",
            "mediaani 71 siirtoa, erotuksen mediaani 31,5",
        ),
    ],
)
def test_sweep_summary_says_results_and_numbers_in_the_language(
    lang: str, head: str, medians: str
) -> None:
    """The sweep's summary counts its results in words of the language (the glossary's
    *voitettavissa* in Finnish), and writes a median as the language writes numbers."""
    from spidercli.sweeps.records import SweepTally as Tally

    tally = Tally()
    tally.add("A", {"result": "won", "moves": 70, "lower_bound": 39})
    tally.add("B", {"result": "won", "moves": 72, "lower_bound": 40})
    tally.add("C", {"result": "unwinnable"})
    i18n.use(lang)
    try:
        summary = tally.summary()
    finally:
        i18n.use("en")
    assert summary.startswith(f"{head}; {medians}; "), summary


@pytest.mark.parametrize("lang", OTHER)
def test_hint_reasons(lang: str, snapshot: SnapshotAssertion) -> None:
    result = run("hint", "fixtures/spider-1suit-win.yaml", "--lang", lang)
    assert result.exit_code == 0
    assert result.stdout == snapshot


@pytest.mark.parametrize("lang", OTHER)
def test_solve_gives_up_in_the_language(lang: str) -> None:
    result = run("solve", "SP4-S1C-AAAAAAA", "--max-states", "50", "--lang", lang)
    assert result.exit_code == run("solve", "SP4-S1C-AAAAAAA", "--max-states", "50").exit_code
    i18n.use(lang)  # the catalog's words after the last field: "...; hledání skončilo předčasně..."
    words = i18n._(
        "no win found for {deal} within the budget ({searched}); the search gave up, which "
        "proves nothing"
    ).split("}")[-1]
    i18n.use("en")
    assert words in result.stderr and "SP4-S1C-AAAAAAA" in result.stderr
    assert "proves nothing" not in result.stderr


def test_ruleset_line_in_the_report(snapshot: SnapshotAssertion) -> None:
    for lang in OTHER:
        result = run("replay", "fixtures/pavouk-1suit-win.yaml", "--show", "none", "--lang", lang)
        assert result.exit_code == 0
        assert result.stdout == snapshot


# ----------------------------------------------------------- machine formats: the same bytes


def _machine_runs() -> list[tuple[str, ...]]:
    runs: list[tuple[str, ...]] = [
        ("verify", "fixtures/batch", "-f", f)
        for f in FORMATS
        if f != DEFAULT_FORMAT  # the table is for people, in --lang's language
    ]
    runs += [("verify", f"fixtures/illegal/{rule}.yaml", "-f", "jsonl") for rule in ILLEGAL]
    runs += [("verify", f"fixtures/bad/{name}", "-f", "csv") for name in BAD]
    runs += [("duel", "fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml", "--json")]
    runs += [
        ("duel", "fixtures/duel-finish.yaml", "fixtures/illegal/undo-after-flip.yaml", "--json")
    ]
    runs += [("duel", "fixtures/duel-finish.yaml", "fixtures/spider-2suit-open.yaml", "--json")]
    runs += [("hint", "fixtures/spider-1suit-win.yaml", "--json")]
    runs += [("hint", "fixtures/illegal/stock-empty.yaml", "--json")]
    return runs


def _untimed(out: bytes) -> bytes:
    """JUnit's ``time="0.018"`` attributes are the only bytes that may differ between runs."""
    return re.sub(rb' time="[0-9.]+"', b' time=""', out)


@pytest.mark.parametrize("args", _machine_runs(), ids=lambda a: " ".join(a))
def test_lang_never_changes_a_machine_format(args: tuple[str, ...]) -> None:
    english = run(*args)
    for lang in OTHER:
        other = run(*args, "--lang", lang)
        assert other.exit_code == english.exit_code
        assert _untimed(other.stdout_bytes) == _untimed(english.stdout_bytes)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_lang_never_changes_tournament_formats(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_submissions(tmp_path))
    english = run("tournament", ".", "-m", "manifest.yml", "-f", fmt)
    assert english.exit_code == 0
    for lang in OTHER:
        other = run("tournament", ".", "-m", "manifest.yml", "-f", fmt, "--lang", lang)
        assert other.exit_code == english.exit_code
        assert other.stdout_bytes == english.stdout_bytes


@pytest.mark.parametrize(
    "command",
    [
        ("verify", "fixtures/batch"),
        ("tournament", "fixtures/batch"),
        ("duel", "fixtures/duel-finish.yaml", "fixtures/duel-finish.yaml"),
        ("hint", "fixtures/spider-1suit-win.yaml"),
        ("solve", "SD1-S1-AAAAABD", "--max-states", "10"),
        ("import", "kpat", "missing.save"),
        ("record", "-"),
    ],
)
def test_every_command_takes_lang(command: tuple[str, ...]) -> None:
    bad = run(*command, "--lang", "de")
    assert bad.exit_code == 2 and "'de' is not a language spidercli speaks" in bad.stderr


@pytest.mark.parametrize(("lang", "done"), [("cs", "zapsáno  "), ("fi", "kirjattu  ")])
def test_record_line_in_the_language(lang: str, done: str, tmp_path: Path) -> None:
    log = tmp_path / "game.yaml"
    log.write_text("game: SD1-S1-AAAAABD\nmoves: [deal]\n")
    result = run("record", str(log), "--lang", lang)
    assert result.exit_code == 0
    assert result.stdout.startswith(done)
    again = run("record", str(log), "--lang", lang)
    assert again.stdout.split()[0] == {"cs": "beze", "fi": "ennallaan"}[lang]


def test_the_environment_chooses_verify_s_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "fi_FI.UTF-8")
    result = run("verify", "fixtures/batch")
    assert result.stdout.rstrip().endswith(
        "5 lokia: 2 kelvollista, 1 hylätty, 1 odotuksista poikkeava, 1 käyttökelvoton"
    )
    monkeypatch.setenv("LC_ALL", "C")
    assert (
        run("verify", "fixtures/batch")
        .stdout.rstrip()
        .endswith("5 logs: 2 valid, 1 illegal, 1 expect-failed, 1 invalid-input")
    )


def test_error_page_in_the_language(tmp_path: Path) -> None:
    result = run(
        "verify", "fixtures/batch/d-unusable.yaml", "--html-dir", str(tmp_path), "--lang", "cs"
    )
    assert result.exit_code == 2
    pages = [p for p in tmp_path.rglob("*.html") if p.name != "index.html"]
    assert len(pages) == 1
    page = pages[0].read_text()
    assert '<html lang="cs">' in page
    assert "NEPOUŽITELNÝ VSTUP: řádek 3: fixtures/batch/d-unusable.yaml:3: neplatný YAML" in page
    assert "nešlo přehrát" in page


def test_import_kpat_error_in_the_language(tmp_path: Path) -> None:
    save = tmp_path / "empty.xml"
    save.write_text("  \n")
    result = run("import", "kpat", str(save), "--lang", "fi")
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"spidercli: error: {save}: on tyhjä: odotettiin KPatin tallennettua peliä (XML)\n"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "is the ace of hearts, but its suit says 'spades'"),
        ("cs", "je podle svého id srdcové eso, ale jeho atribut suit říká 'spades'"),
        ("fi", "on tunnisteensa mukaan herttaässä, mutta sen suit-attribuutti sanoo 'spades'"),
    ],
)
def test_import_kpat_card_error_names_the_card_in_the_language(
    tmp_path: Path, lang: str, said: str
) -> None:
    save = tmp_path / "card.xml"
    save.write_text(save_xml().replace('suit="hearts" rank="ace"', 'suit="spades" rank="ace"', 1))
    result = run("import", "kpat", str(save), "--lang", lang)
    assert result.exit_code == 2
    assert result.stderr == f"spidercli: error: {save}:4: <card id='3539457'> {said}\n"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "cs",
            "stav 2 nevznikne z předchozího stavu jedním tahem kartou ani rozdáním (podle "
            "pravidel hry Spider z KPat): uložená hra je poškozená nebo není z KPat",
        ),
        (
            "fi",
            "tila 2 ei synny edellisestä tilasta yhdellä korttisiirrolla tai jaolla (KPatin "
            "Spider-säännöillä): tallennus on vioittunut tai ei ole KPatin",
        ),
    ],
)
def test_import_kpat_step_error_in_the_language(tmp_path: Path, lang: str, said: str) -> None:
    save = tmp_path / "step.xml"
    save.write_text(  # 3H onto 6S: no KPat action does that
        save_xml(
            states='<state><move pile="stack0" position="6">'
            f"{card_xml(kpat_deal_ids(17, 2)[0][2][-1])}</move></state>"
        )
    )
    english = run("import", "kpat", str(save))
    result = run("import", "kpat", str(save), "--lang", lang)
    assert result.exit_code == english.exit_code == 2
    assert english.stderr.endswith(
        ":20: state 2 is not a card move or a deal away from the state "
        "before (under KPat's Spider rules): the save is corrupt or not KPat's\n"
    )
    assert result.stderr == f"spidercli: error: {save}:20: {said}\n"


def test_hint_on_a_refused_entry_in_the_language() -> None:
    args = ("hint", "fixtures/illegal/same-column.yaml")
    english = run(*args)
    czech = run(*args, "--lang", "cs")
    assert czech.exit_code == english.exit_code == 1
    assert czech.stderr == (
        "spidercli: fixtures/illegal/same-column.yaml:5: položka 1 `3>3` je odmítnuta "
        "(same-column): sloupec 3 je zdrojem i cílem zároveň; "
        "k neplatnému záznamu se nápověda nedává\n"
    )
    assert run(*args, "--json", "--lang", "cs").stdout == run(*args, "--json").stdout


def test_record_refusal_in_the_language(tmp_path: Path) -> None:
    log = tmp_path / "bad.yaml"
    log.write_text((FIXTURES / "illegal" / "same-column.yaml").read_text())
    result = run("record", str(log), "--lang", "fi")
    assert result.exit_code == 1
    assert result.stderr.endswith(": merkintä 1 `3>3` hylätään (same-column): ei kirjattu\n")
