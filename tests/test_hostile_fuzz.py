"""A fixed sample of tests/fuzz_hostile.py's campaigns (the public API on random bytes, the two
YAML readers against each other, ``import kpat`` on hostile XML, ``record`` while the file is
swapped), and a regression test for each fault the campaigns found."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import spidercli
from spidercli.errors import InputError
from spidercli.logs import yamlreader
from spidercli.logs.reader import parse_log
from spidercli.logs.yamlreader import PureLoader
from tests import fuzz_hostile as fuzz
from tests.helpers import run

LIBYAML = getattr(yaml, "CSafeLoader", None)
needs_libyaml = pytest.mark.skipif(LIBYAML is None, reason="PyYAML was built without libyaml")


def refusal(text: str, loader: object, monkeypatch: pytest.MonkeyPatch) -> tuple[int | None, str]:
    monkeypatch.setattr(yamlreader, "LOADER", loader)
    with pytest.raises(InputError) as caught:
        parse_log(text, "t.yaml")
    return caught.value.line, caught.value.message


# ------------------------------------------------------------------------------ regressions


@pytest.mark.parametrize("encoding", ["UTF-32", "cp932", "big5", "utf-7"])
def test_a_save_in_a_multibyte_encoding_expat_cannot_read_is_refused(
    encoding: str, tmp_path: Path
) -> None:
    """expat raises ValueError for these: it was an internal error ("please report it")."""
    data = f'<?xml version="1.0" encoding="{encoding}"?>\n<kpat-game game-type="spider"/>\n'
    with pytest.raises(InputError, match="cannot be read as XML: multi-byte encodings"):
        spidercli.import_kpat(data.encode(), name="save.xml")
    save = tmp_path / "save.xml"
    save.write_text(data)
    result = run("import", "kpat", str(save))
    assert result.exit_code == 2
    assert result.stderr == (
        f"spidercli: error: {save}: cannot be read as XML: multi-byte encodings are not supported\n"
    )


@needs_libyaml
def test_a_character_yaml_refuses_after_non_ascii_text_is_placed_on_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """libyaml gives the place of a character it refuses in bytes, PyYAML in characters: read
    as characters, libyaml's count of a Czech name's bytes put the fault lines too far on."""
    text = "game: SD1-S1-AAAABIW\nplayer: " + "Ž" * 100 + "\n\n\nmoves: [7>1]\n# \x1d\n"
    for loader in (LIBYAML, PureLoader):
        assert refusal(text, loader, monkeypatch) == (
            6,
            "not valid YAML: the character \\x1d (U+001D) is not allowed in YAML",
        )


# A last line without its line break: libyaml refuses on the line after it.
END_OF_STREAM = [
    ("game: SD1-S1-AAAABIW\nmoves: [7>1", 3),
    ("game: SD1-S1-AAAABIW\nmoves: [7>1]\nplayer", 4),
    ("{", 2),
    # a '{' where a key must stand, and no ':' after it: libyaml looks at the keys once more
    ("game: SD1-S1-AAAABIW\nmoves: [7>1]\n{", 4),
    ("game: SD1-S1-AAAABIW\nmoves:\n- 7>1\n[a", 5),
]
# A byte order mark at the start of a line that is not the first: libyaml skips it (and counts
# it as a column), PyYAML took it as the start of a key.
BOMS = [
    ("game: SD1-S1-AAAABIW\n\ufeffmoves: [7>1]\n", "refused", 2),
    ("game: SD1-S1-AAAABIW\nmoves:\n  - 7>1\n# c\n\ufeff# d\n", "ok", None),
    ("game: SD1-S1-AAAABIW\nmoves: [7>1,\n\ufeff8>2]\n", "ok", None),
    # Three marks in a file: decoding drops one, libyaml's reader the next, the third is a column.
    ("\ufeff\ufeffgame: SD1-S1-AAAABIW\nmoves: [7>1]\n", "refused", 2),
]


@needs_libyaml
@pytest.mark.parametrize(("text", "line"), END_OF_STREAM)
def test_a_refusal_at_the_end_of_a_text_without_a_last_line_break_is_on_one_line(
    text: str, line: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert refusal(text, LIBYAML, monkeypatch)[0] == line
    assert refusal(text, PureLoader, monkeypatch)[0] == line


@needs_libyaml
@pytest.mark.parametrize(("text", "verdict", "line"), BOMS)
def test_a_byte_order_mark_starting_a_line_is_read_alike(
    text: str, verdict: str, line: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    both = [fuzz.verdict(text, loader) for loader in (LIBYAML, PureLoader)]
    assert both[0][0] == verdict
    if verdict == "ok":
        assert both[0] == both[1]
    else:
        assert both[0][1] == both[1][1] == line


# In a flow collection libyaml ends a plain value at ',[]{}' but not at '?', and refuses a ':'
# followed by one of ',?[]{}'; PyYAML ended it at '?' and took 'a:' as a one-pair mapping.
FLOW = [
    "game: SD1-S1-AAAABIW\nmoves: [7>1?]\n",
    "game: SD1-S1-AAAABIW\nmoves: [deal, tap 3 ? x]\n",
    "game: SD1-S1-AAAABIW\nplayer: {a?b: c}\nmoves: [7>1]\n",
    "game: SD1-S1-AAAABIW\nmoves: [7>1:]\n",
    "game: SD1-S1-AAAABIW\nmoves: [deal,\n  7>1:, 8>2]\n",
    "game: SD1-S1-AAAABIW\nexpect: {result: open:}\nmoves: [7>1]\n",
]


@needs_libyaml
@pytest.mark.parametrize("text", FLOW)
def test_a_question_mark_or_a_colon_in_a_flow_value_is_read_alike(text: str) -> None:
    c, pure = (fuzz.verdict(text, loader) for loader in (LIBYAML, PureLoader))
    assert c[0] == "refused"
    assert c == pure


# --------------------------------------------------------------------------- the campaigns


@pytest.mark.parametrize(("campaign", "cases"), [("api", 40), ("kpat", 10)])
def test_a_fixed_sample_of_each_campaign(campaign: str, cases: int) -> None:
    stats, failures = fuzz.run_campaign(campaign, cases, seed=18, seconds=0, out=None, progress=0)
    assert stats["cases"] == cases
    assert not failures, failures


def test_a_fixed_sample_of_record_while_the_file_is_swapped() -> None:
    stats, failures = fuzz.run_campaign("record", 25, seed=18, seconds=0, out=None, progress=0)
    assert stats["interfered"] > 12  # most interferences happen (are not refused before)
    assert not failures, failures


@needs_libyaml
def test_a_fixed_sample_of_the_yaml_readers_compared() -> None:
    stats, failures = fuzz.run_campaign("yaml", 120, seed=18, seconds=0, out=None, progress=0)
    assert stats["read as logs"] > 8  # the sample reaches valid logs, not only refusals
    assert not failures, failures
