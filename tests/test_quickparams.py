"""The quick coercion of plain command-line values (spidercli/cli/quickparams.py) against Typer's
own: every value it takes is coerced to exactly what Typer's pydantic path returns, and everything
else is left to that path; ``replay`` runs without importing pydantic."""

from __future__ import annotations

import subprocess
import sys
from enum import Enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer._adapters import try_build_adapter
from typer.models import ArgumentInfo, OptionInfo

from spidercli.cli.quickparams import _NOT_QUICK, quick_annotation, quick_value
from tests.helpers import ROOT


class Colour(str, Enum):
    red = "red"
    green = "green"


class Plain(Enum):
    one = "one"
    two = "2"


INFOS: list[tuple[Any, OptionInfo | ArgumentInfo]] = [
    (list[str], ArgumentInfo()),
    (str, OptionInfo()),
    (bool, OptionInfo()),
    (int, OptionInfo()),
    (int, OptionInfo(min=1)),
    (int, OptionInfo(min=-3, max=40)),
    (int, OptionInfo(min=0, max=9, clamp=True)),
    (float, OptionInfo()),
    (float, OptionInfo(min=0.01)),
    (float, OptionInfo(min=-1.5, max=2)),
    (Colour, OptionInfo()),
    (Colour, OptionInfo(case_sensitive=False)),
    (Plain, OptionInfo()),
]

values = st.one_of(
    st.text(),
    st.sampled_from(
        [
            "0",
            "-0",
            "007",
            "12",
            "-5",
            " 7",
            "7 ",
            "1_000",
            "+3",
            "1e3",
            "0.01",
            "0.009",
            "60",
            "60.0",
            "-1.5",
            "2.0000000000000001",
            ".5",
            "5.",
            "nan",
            "inf",
            "99999999999999999999",
            "red",
            "RED",
            "green",
            "one",
            "2",
            "two",
            "true",
            "",
            "\udcff",
            "caf\xe9",
        ]
    ),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.none(),
    st.sampled_from(list(Colour) + list(Plain)),
    st.lists(st.text(max_size=3), max_size=2),
    st.lists(st.text(max_size=3), max_size=3).map(tuple),
    st.lists(
        st.sampled_from(["a.yaml", "logs/", "\udcff", "caf\xe9", 7, b"x", None]), max_size=3
    ).map(tuple),
)


def typers_own(annotation: Any, info: OptionInfo | ArgumentInfo, value: Any) -> tuple[str, Any]:
    from pydantic import ValidationError

    adapter = try_build_adapter(annotation, info)
    assert adapter is not None
    try:
        return "ok", adapter.validate_python(value, context={})
    except ValidationError:
        return "refused", None


@pytest.mark.parametrize(("annotation", "info"), INFOS, ids=lambda x: getattr(x, "__name__", ""))
@given(value=values)
def test_a_quick_value_is_typers_own(
    annotation: Any, info: OptionInfo | ArgumentInfo, value: Any
) -> None:
    quick = quick_value(annotation, info, value, None)
    if quick is _NOT_QUICK:
        return  # Typer's own path decides, message and all
    assert typers_own(annotation, info, value) == ("ok", quick)
    assert type(quick) is type(typers_own(annotation, info, value)[1])


def test_the_quick_path_takes_the_common_values() -> None:
    """Not everything falls back: the plain spellings are taken (else pydantic is imported)."""
    assert quick_value(str, OptionInfo(), "game.yaml", None) == "game.yaml"
    assert quick_value(int, OptionInfo(min=1), "4096", None) == 4096
    assert quick_value(bool, OptionInfo(), True, None) is True
    assert quick_value(Colour, OptionInfo(), "green", None) is Colour.green
    assert quick_value(Colour, OptionInfo(), Colour.red, None) is Colour.red
    paths = quick_value(list[str], ArgumentInfo(), ("logs/", "a.yaml"), None)
    assert paths == ["logs/", "a.yaml"]
    assert type(paths) is list
    assert quick_value(list[str], ArgumentInfo(), ("a.yaml", "\udcff"), None) is _NOT_QUICK
    assert quick_value(list[str], ArgumentInfo(), "a.yaml", None) is _NOT_QUICK
    for odd in [(int, "007"), (int, "0x10"), (str, "\udcff"), (Colour, "blue"), (bool, "yes")]:
        assert quick_value(odd[0], OptionInfo(), odd[1], None) is _NOT_QUICK
    assert quick_value(int, OptionInfo(min=1), "0", None) is _NOT_QUICK
    assert quick_value(float, OptionInfo(min=0.01), "0.5", None) == 0.5
    assert quick_value(float, OptionInfo(min=0.01), 60.0, None) == 60.0
    assert quick_value(float, OptionInfo(min=0.01), "0", None) is _NOT_QUICK
    assert quick_annotation(complex, OptionInfo()) is False
    assert quick_annotation(str, OptionInfo(parser=str)) is False


def test_replay_imports_no_pydantic_and_bad_values_are_refused_plainly() -> None:
    program = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from spidercli.cli.app import app\n"
        "r = CliRunner().invoke(app, ['replay', 'fixtures/example-spider-1suit-117.yaml',"
        " '--max-log-bytes', '100000', '--on-illegal', 'stop'])\n"
        "print(r.exit_code, 'pydantic' in sys.modules)\n"
        "r = CliRunner().invoke(app, ['replay', 'x.yaml', '--max-log-bytes', '0'])\n"
        "print(r.exit_code, 'pydantic' in sys.modules)\n"
        "print(r.output)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "0 False"
    assert out[1] == "2 True"  # a refused value: Typer's own path, our sentence
    assert "--max-log-bytes': '0' is not a whole number of 1 or more\n" in "\n".join(out[2:])


def test_verify_imports_no_pydantic() -> None:
    """``verify``'s paths (a list of text) take the quick path too."""
    program = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from spidercli.cli.app import app\n"
        "r = CliRunner().invoke(app, ['verify', 'fixtures/batch/a-valid.yaml',"
        " 'fixtures/example-spider-1suit-117.yaml', '-f', 'jsonl', '-j', '1'])\n"
        "print(r.exit_code, 'pydantic' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["0 False"]


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (
            ["verify", "x", "-j", "0"],
            "Invalid value for '--jobs' / '-j': '0' is not a whole number of 1 or more",
        ),
        (["verify", "x", "-j", "two"], "'two' is not a whole number of 1 or more"),
        (
            ["verify", "x", "-f", "jsno"],
            "Invalid value for '--format' / '-f': 'jsno' is not one of table, json, jsonl, csv, "
            "junit, github, concise (did you mean 'json'?)",
        ),
        (["replay", "x", "--on-illegal", "maybe"], "'maybe' is not one of stop, skip"),
        (["solve", "SP1-S1C-AAAAAAA", "--timeout", "0"], "'0' is not a number of 0.01 or more"),
        (["tournament", "x", "-f", "xml"], "'xml' is not one of table, json, csv"),
    ],
)
def test_a_refused_value_is_said_plainly(args: list[str], sentence: str) -> None:
    """No validation library's words (``Input should be``, ``Value error,``): a plain sentence
    naming the value and what is expected, with the closest choice when one is close."""
    from tests.helpers import run

    result = run(*args)
    assert result.exit_code == 2
    assert sentence in result.stderr
    assert "Input should" not in result.stderr and "Value error" not in result.stderr
