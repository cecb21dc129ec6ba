"""A typo gets "did you mean": a log's keys, a ruleset, an expected result and a language, each
answered with the closest name, in the one-line message that names the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

import spidercli
from spidercli.game.rules import RULESETS
from spidercli.play.logtypes import EXPECT_KEYS, RESULTS, TOP_KEYS
from spidercli.text.suggest import close_match
from tests.helpers import run


@pytest.mark.parametrize(
    ("word", "choices", "guess"),
    [
        ("exepct", TOP_KEYS, "expect"),
        ("plyer", TOP_KEYS, "player"),
        ("Moves", TOP_KEYS, "moves"),
        ("scor", EXPECT_KEYS, "score"),
        ("clasic", tuple(RULESETS), "classic"),
        ("DUAL", tuple(RULESETS), "duel"),
        ("wom", RESULTS, "won"),
        ("cz", ("en", "cs", "fi"), "cs"),
        ("fin", ("en", "cs", "fi"), "fi"),
        # nothing close: no guess rather than a wild one
        ("freecell", tuple(RULESETS), None),
        ("victory", RESULTS, None),
        ("de", ("en", "cs", "fi"), None),
        ("", TOP_KEYS, None),
        ("x" * 1000, TOP_KEYS, None),
    ],
)
def test_close_match(word: str, choices: tuple[str, ...], guess: str | None) -> None:
    assert close_match(word, choices) == guess


def _log(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "game: SD1-S1-AAAAABD\nexepct:\n  result: won\nmoves: []\n",
            ":2: the log: unknown key 'exepct' (did you mean 'expect'?); expected game, deal, "
            "rules, player, time, expect, moves",
        ),
        (
            "game: SD1-S1-AAAAABD\nexpect:\n  scroe: 500\nmoves: []\n",
            ":3: expect: unknown key 'scroe' (did you mean 'score'?); expected result, moves, "
            "score, runs",
        ),
        (
            "game: SD1-S1-AAAAABD\nrules: Clasic\nmoves: []\n",
            ":2: rules: unknown ruleset 'clasic' (did you mean 'classic'?); expected one of "
            "classic, duel, pavouk, kpat",
        ),
        (
            "game: SD1-S1-AAAAABD\nexpect:\n  result: wom\nmoves: []\n",
            ":3: expect.result: 'wom' is not a result (did you mean 'won'?); expected one of won, "
            "open, blocked, resigned",
        ),
    ],
)
def test_a_typo_in_a_log_gets_the_closest_name(tmp_path: Path, text: str, message: str) -> None:
    path = _log(tmp_path, text)
    result = run("replay", path)
    assert result.exit_code == 2
    assert result.stderr == f"spidercli: error: {path}{message}\n"  # one line, file and line


def test_a_key_far_from_every_name_gets_no_guess(tmp_path: Path) -> None:
    path = _log(tmp_path, "game: SD1-S1-AAAAABD\nscore: 500\nmoves: []\n")
    result = run("replay", path)
    assert result.exit_code == 2
    assert "unknown key 'score'; expected game," in result.stderr
    assert "did you mean" not in result.stderr


def test_a_typo_in_rules_on_the_command_line(tmp_path: Path) -> None:
    result = run("replay", "fixtures/spider-1suit-win.yaml", "--rules", "clasic")
    assert result.exit_code == 2
    assert result.stderr == (
        "spidercli: error: fixtures/spider-1suit-win.yaml: --rules: unknown ruleset 'clasic' "
        "(did you mean 'classic'?); expected one of classic, duel, pavouk, kpat\n"
    )
    log = spidercli.read_log("fixtures/spider-1suit-win.yaml")
    with pytest.raises(spidercli.InputError, match=r"\(did you mean 'classic'\?\)"):
        spidercli.replay(log, rules="clasic")


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "fixtures/batch", "--rules", "clasic"],
        ["solve", "SP1-S1C-AAAAAAA", "--rules", "clasic"],
        ["hint", "fixtures/spider-1suit-win.yaml", "--rules", "clasic"],
    ],
)
def test_a_typo_in_rules_on_every_command(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "--rules: unknown ruleset 'clasic' (did you mean 'classic'?); expected one of" in (
        result.stderr
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name: Cup\ndeels: [SD1-S1-AAAABIW]\n", ":2: the manifest: unknown key 'deels' (did you "),
        ("rules: clasic\ndeals: [SD1-S1-AAAABIW]\n", ":1: rules: unknown ruleset 'clasic' (did "),
    ],
)
def test_a_typo_in_a_manifest(tmp_path: Path, text: str, words: str) -> None:
    manifest = tmp_path / "cup.yaml"
    manifest.write_text(text)
    result = run("tournament", "fixtures/batch", "-m", str(manifest))
    assert result.exit_code == 2
    assert f"spidercli: error: {manifest}{words}" in result.stderr


def test_a_typo_in_lang() -> None:
    result = run("deal", "SD1-S1-AAAAABD", "--lang", "cz")
    assert result.exit_code == 2
    assert "'cz' is not a language spidercli speaks (did you mean 'cs'?)" in result.stderr


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("cs", "záznam: neznámý klíč 'exepct' (myslíte 'expect'?); očekáváno game,"),
        ("fi", " (tarkoititko 'expect'?); odotettiin game,"),
    ],
)
def test_the_guess_is_said_in_the_language(tmp_path: Path, lang: str, words: str) -> None:
    path = _log(tmp_path, "game: SD1-S1-AAAAABD\nexepct:\n  result: won\nmoves: []\n")
    result = run("replay", path, "--lang", lang)
    assert result.exit_code == 2
    assert words in result.stderr
    json = run("replay", path, "--lang", lang, "--json")  # the JSON error stays English
    assert "(did you mean 'expect'?)" in json.stdout
