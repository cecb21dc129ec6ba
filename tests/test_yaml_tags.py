"""Explicit YAML tags on every value of the log format and of a tournament manifest (issue 29,
item 10): whatever PyYAML's constructors raise on a tagged scalar, and a standard tag on a node
of another kind, is an ``InputError`` with the line, with libyaml's loader and the pure one.
The property test draws from the ``tags`` campaign of tests/fuzz_hostile.py (``make fuzz``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import spidercli
from spidercli.errors import InputError
from tests import fuzz_hostile as fuzz
from tests.helpers import run

# Every test runs with libyaml's loader and with the pure-Python one (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("yaml_loader")

HEAD = "game: SP1-S1C-AAAAAAD\nmoves: []\n"
# The cases and their kin: PyYAML's int and float constructors index the first
# character of what is left after dropping underscores and a sign (IndexError), or pass ""
# to int() (ValueError).
BROKEN_NUMBERS = ["!!int _", '!!float ""', "!!int ''", "!!int +_", "!!float _", "!!float '-'",
                  "!!int '-'", "!!int 0x", "!!int 0b", "!!int 0x_",
                  '!<tag:yaml.org,2002:int> ""']  # fmt: skip


@pytest.mark.parametrize("value", BROKEN_NUMBERS)
def test_a_number_yaml_cannot_construct_is_an_input_error_on_its_line(
    value: str, tmp_path: Path
) -> None:
    """It was an IndexError from parse_log, read_log and record_text ("internal error" on the
    command line)."""
    for text, line, what in [
        (HEAD + f"time: {value}\n", 3, "time"),
        (HEAD + f"expect:\n  moves: {value}\n", 4, "expect.moves"),
    ]:
        with pytest.raises(InputError) as caught:
            spidercli.parse_log(text, name="t.yaml")
        assert (caught.value.path, caught.value.line) == ("t.yaml", line)
        assert caught.value.message.startswith(what)
        if "int" in value or what == "time":
            assert caught.value.message.endswith("is not a usable number")
        log = tmp_path / "t.yaml"
        log.write_text(text)
        with pytest.raises(InputError) as again:
            spidercli.read_log(log)
        assert again.value.line == line
        with pytest.raises(InputError):
            spidercli.record_text(text)
        result = run("replay", str(log))
        assert result.exit_code == 2
        assert result.stderr.startswith(f"spidercli: error: {log}:{line}: {what}")
        assert "internal error" not in result.stderr


def test_a_number_of_a_written_out_deal_yaml_cannot_construct_is_refused_on_its_line() -> None:
    text = fuzz.tagged("log with a deal", {"deal.suits": "!!int _"})
    line = text.splitlines().index("  suits: !!int _") + 1
    with pytest.raises(InputError, match=r"deal\.suits: '_' is not a usable number") as caught:
        spidercli.parse_log(text)
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("!!seq abc", "!!seq does not match its value: a single value cannot be a list"),
        ("!!map abc", "!!map does not match its value: a single value cannot be a mapping"),
        ("!!str [deal]", "!!str does not match its value: a list cannot be text"),
        ("!!int {a: 1}", "!!int does not match its value: a mapping cannot be an integer"),
        ("!!map [deal]", "!!map does not match its value: a list cannot be a mapping"),
        ("!!seq\n  - deal", "!!seq does not match its value: a single value cannot be a list"),
    ],
)
def test_a_standard_tag_on_a_node_of_another_kind_is_refused(value: str, message: str) -> None:
    """``moves: !!str [deal]`` was read as a list of one deal, though YAML's constructors refuse
    it; ``moves: !!seq abc`` said "must be a list ..., not a list"."""
    text = "game: SP1-S1C-AAAAAAD\nmoves: " + value + "\n"
    if value.startswith("!!seq\n"):
        text = "game: SP1-S1C-AAAAAAD\nmoves:\n  - !!seq deal\n"
    with pytest.raises(InputError) as caught:
        spidercli.parse_log(text)
    assert caught.value.message == "the YAML tag " + message
    assert caught.value.line == (3 if "\n" in value else 2)


def test_the_right_standard_tags_are_still_read() -> None:
    text = (
        "game: !!str SP1-S1C-AAAAAAD\ntime: !!float 1_0.5\nexpect: !!map\n  moves: !!int 0x1\n"
        "moves: !!seq\n  - !!str deal\n"
    )
    log = spidercli.parse_log(text)
    assert (log.time, log.expect and log.expect.moves, log.entries[0].text) == (10.5, 1, "deal")


def test_a_manifest_refuses_a_tag_on_a_node_of_another_kind(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("name: !!str [cup]\ndeals: [KP1-1]\n")
    with pytest.raises(InputError, match="a list cannot be text") as caught:
        spidercli.standings(["fixtures/batch"], manifest)
    assert caught.value.line == 1


_SLOTS = {kind: fuzz.slots_of(*fuzz.TEMPLATES[kind]) for kind in fuzz.TEMPLATES}


@st.composite
def _tagged_documents(draw: st.DrawFn) -> tuple[str, str]:
    kind = draw(st.sampled_from(sorted(fuzz.TEMPLATES)))
    slots = draw(st.lists(st.sampled_from(_SLOTS[kind]), min_size=1, max_size=3, unique=True))
    attacks = {}
    for slot in slots:
        tag = draw(st.sampled_from(fuzz.TAGS))
        scalar = draw(st.one_of(st.none(), st.sampled_from(fuzz.ODD_SCALARS)))
        attacks[slot] = fuzz.tag_value(slot, tag, scalar)
    return kind, fuzz.tagged(kind, attacks)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(document=_tagged_documents())
@example(document=("log", fuzz.tagged("log", {"time": '!!float ""'})))
@example(document=("log", fuzz.tagged("log", {"expect.moves": "!!int _"})))
@example(document=("log with a deal", fuzz.tagged("log with a deal", {"deal.suits": "!!int 0x"})))
@example(document=("log", fuzz.tagged("log", {"moves": " !!str [deal]"})))
@example(document=("manifest", fuzz.tagged("manifest", {"deals": " !!set {a, b}"})))
def test_tagged_values_anywhere_are_read_or_refused_with_their_line(
    document: tuple[str, str], tmp_path: Path
) -> None:
    """Both loaders read the document or refuse it on the same line with an ``InputError``
    (nothing else raised); a log also through ``record_text`` and ``replay``; a document taken
    holds no standard tag on a node of another kind."""
    kind, text = document
    found, _ = fuzz.check_tags(kind, text, tmp_path)
    assert found == []
