"""No English word inside a Czech or Finnish sentence: verify's status words (valid, illegal,
expect-failed, invalid-input) and a game's result words (won, open...) stay English only where
they are the machine contract: the JSON, CSV and other machine formats, verify's status column,
and a value quoted from the log (``expect.result``, the result a log expects)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import TRANSLATED, run

STATUS_WORDS = re.compile(r"\b(valid|illegal|expect-failed|invalid-input)\b", re.IGNORECASE)
RESULT_WORDS = re.compile(r"\b(won|open|blocked|resigned)\b")
PATH = re.compile(r"\S*[/.]y(?:a)?ml\b\S*|\S*/\S*")  # file names: fixtures/batch/b-illegal.yaml


def _prose(text: str) -> str:
    """``text`` without what is quoted, not said: file names, and the values a log's
    ``expect.result`` names (``result: očekáváno won, skutečnost open``)."""
    text = PATH.sub("", text)
    return re.sub(r"\bresult: [^;\n]*", "", text)


def _verify_table(lang: str) -> list[str]:
    result = run("verify", "fixtures/batch", "--lang", lang)
    assert result.exit_code == 2
    # a row wrapped to the width goes on under the status column: read each row whole
    lines: list[str] = result.stdout.replace("\n" + " " * 15, " ").splitlines()
    return lines


@pytest.mark.parametrize("lang", TRANSLATED)
def test_verify_table_says_statuses_and_results_in_the_language(lang: str) -> None:
    lines = _verify_table(lang)
    rows = [line for line in lines[:-1] if line]
    assert len(rows) == 5
    for row in rows:
        status, rest = row[:15], row[15:]
        # the status column: the machine's word, as every format writes it
        assert status.strip() in ("valid", "ILLEGAL", "EXPECT-FAILED", "INVALID-INPUT")
        assert not STATUS_WORDS.search(_prose(rest)), row
        assert not RESULT_WORDS.search(_prose(rest)), row
    summary = lines[-1]
    assert not STATUS_WORDS.search(summary), summary
    assert re.fullmatch(r"5 \w+: 2 .+, 1 .+, 1 .+, 1 .+", summary)


@pytest.mark.parametrize(
    ("lang", "summary"),
    [
        ("cs", "5 záznamů: 2 platné, 1 odmítnutý, 1 s nesplněným očekáváním, 1 nepoužitelný"),
        ("fi", "5 lokia: 2 kelvollista, 1 hylätty, 1 odotuksista poikkeava, 1 käyttökelvoton"),
        ("en", "5 logs: 2 valid, 1 illegal, 1 expect-failed, 1 invalid-input"),
    ],
)
def test_verify_summary(lang: str, summary: str) -> None:
    assert _verify_table(lang)[-1] == summary
    # the other formats write it on stderr, in the same words; their stdout stays English
    result = run("verify", "fixtures/batch", "--format", "jsonl", "--lang", lang)
    assert result.stderr.strip() == f"spidercli: {summary}"
    english = run("verify", "fixtures/batch", "--format", "jsonl")
    assert result.stdout == english.stdout
    assert {json.loads(line)["status"] for line in result.stdout.splitlines()} == {
        "valid",
        "illegal",
        "expect-failed",
        "invalid-input",
    }


@pytest.mark.parametrize("lang", TRANSLATED)
def test_tournament_says_why_a_log_is_not_counted_in_the_language(lang: str) -> None:
    text = run("tournament", "fixtures/batch", "--lang", lang).stdout
    not_counted = text[text.rindex("\n\n", 0, len(text) - 2) :]
    assert "same-column" in not_counted  # the rule ID stays as it is
    prose = _prose(not_counted)
    assert not STATUS_WORDS.search(prose), not_counted
    assert "expect not met" not in prose and "unusable" not in prose


@pytest.mark.parametrize(("lang", "said"), [("cs", "(vyhraná)"), ("fi", "(voitettu)")])
def test_hint_on_a_finished_game_says_the_result_in_the_language(lang: str, said: str) -> None:
    text = run("hint", "fixtures/spider-1suit-win.yaml", "--lang", lang).stdout
    assert text.rstrip().endswith(f"{said}.")
    assert not RESULT_WORDS.search(text)
    english = run("hint", "fixtures/spider-1suit-win.yaml", "--json", "--lang", lang).stdout
    assert english == run("hint", "fixtures/spider-1suit-win.yaml", "--json").stdout


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize(
    "log",
    [
        "fixtures/illegal/build-one-higher.yaml",
        "fixtures/illegal/game-over.yaml",
        "fixtures/spider-2suit-open.yaml",
        "fixtures/batch/c-expect-failed.yaml",
    ],
)
def test_the_report_has_no_status_word(lang: str, log: str, tmp_path: Path) -> None:
    text = run("replay", log, "--lang", lang, "--show", "none").stdout
    assert not STATUS_WORDS.search(_prose(text)), text
    page = tmp_path / "page.html"
    run("replay", log, "--lang", lang, "--html", str(page))
    body = page.read_text(encoding="utf-8")
    body = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", body, flags=re.S)
    assert not STATUS_WORDS.search(_prose(body)), body


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("cs", "Výsledek rozehraná (open)  tahy 83  skóre 417"),
        ("fi", "Tulos    kesken (open)  siirrot 83  pisteet 417"),
        ("en", "Result   open  moves 83  score 417"),
    ],
)
def test_the_result_line_says_the_result_and_the_log_s_word(lang: str, start: str) -> None:
    text = run("replay", "fixtures/spider-2suit-open.yaml", "--show", "none", "--lang", lang)
    assert start in text.stdout


@pytest.mark.parametrize(
    ("lang", "row"),
    [
        ("cs", "Výsledek vyhraná (won)                  ukončená (resigned)"),
        ("fi", "Tulos    voitettu (won)                 luovutettu (resigned)"),
        ("en", "Result   won                            resigned"),
    ],
)
def test_duel_says_the_results_and_the_log_s_words(lang: str, row: str) -> None:
    logs = ("fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml")
    assert row in run("duel", *logs, "--lang", lang).stdout.splitlines()


@pytest.mark.parametrize(
    ("lang", "rules", "result"),
    [
        ("cs", "classic (pravidla aplikací Spider a Spiderette)", "rozehraná (open): 0 tahů"),
        ("fi", "classic (Spider- ja Spiderette-sovellusten säännöt)", "kesken (open): 0 siirtoa"),
        ("en", "classic (the Spider and Spiderette apps&#x27; rules)", "open: 0 moves"),
    ],
)
def test_the_page_says_the_rules_and_the_result_in_the_language(
    lang: str, rules: str, result: str, tmp_path: Path
) -> None:
    page = tmp_path / "page.html"
    run("replay", "fixtures/illegal/same-column.yaml", "--lang", lang, "--html", str(page))
    body = page.read_text(encoding="utf-8")
    assert f"<dd>{rules}</dd>" in body
    assert f"<dd>{result}," in body
