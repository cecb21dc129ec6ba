"""The quick coercion of plain command-line values (spidercli/quickparams.py) against Typer's own:
every value it takes is coerced to exactly what Typer's pydantic path returns, and everything else
is left to that path; ``replay`` runs without importing pydantic."""

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

from spidercli.quickparams import _NOT_QUICK, quick_annotation, quick_value
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
    assert quick_annotation(float, OptionInfo()) is False
    assert quick_annotation(str, OptionInfo(parser=str)) is False


def test_replay_imports_no_pydantic_and_bad_values_keep_typers_message() -> None:
    program = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from spidercli.cli import app\n"
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
    assert out[1] == "2 True"  # a refused value: Typer's own path and message
    assert "--max-log-bytes': Input should be greater than or equal to 1" in "\n".join(out[2:])


def test_verify_imports_no_pydantic() -> None:
    """``verify``'s paths (a list of text) take the quick path too."""
    program = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from spidercli.cli import app\n"
        "r = CliRunner().invoke(app, ['verify', 'fixtures/batch/a-valid.yaml',"
        " 'fixtures/example-spider-1suit-117.yaml', '-f', 'jsonl', '-j', '1'])\n"
        "print(r.exit_code, 'pydantic' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["0 False"]
