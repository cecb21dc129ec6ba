"""The project's home, written once (``spidercli.logs.schema.HOME``): the JSON Schemas' ``$id``s are
under it, and pyproject.toml's ``[project.urls]`` name it and pages under it."""

from __future__ import annotations

import json
import sys

import pytest

from spidercli.logs.schema import HOME, log_schema, report_schema, verify_schema
from tests.helpers import ROOT, run

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10: mypy and import-linter bring tomli
    tomllib = pytest.importorskip("tomli")


def test_the_home_is_the_repository_on_github() -> None:
    assert HOME == "https://github.com/spidercli/spidercli"


def test_every_schema_id_is_under_the_home() -> None:
    schemas = {"": log_schema(), "--report": report_schema(), "--verify": verify_schema()}
    ids = [schema["$id"] for schema in schemas.values()]
    assert all(i.startswith(f"{HOME}/schema/") and i.endswith(".json") for i in ids), ids
    assert len(set(ids)) == len(ids)
    for option, schema in schemas.items():
        printed = json.loads(run("schema", *([option] if option else [])).stdout)
        assert printed["$id"] == schema["$id"]


def test_pyproject_names_the_home_and_the_authors() -> None:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    urls = project["urls"]
    assert urls["Homepage"] == HOME
    assert all(url == HOME or url.startswith(f"{HOME}/") for url in urls.values()), urls
    assert project["authors"] == [{"name": "the spidercli authors"}]
    assert "Copyright (c) 2026 the spidercli authors" in (ROOT / "LICENSE").read_text()


def test_the_home_is_written_once_in_the_code() -> None:
    """Only schema.py spells it; everything else uses ``HOME``."""
    spelled = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "spidercli").rglob("*.py"))
        if "github.com/spidercli" in path.read_text(encoding="utf-8")
    ]
    assert spelled == ["spidercli/logs/schema.py"]
    assert (ROOT / "spidercli" / "logs" / "schema.py").read_text().count(HOME) == 1
    for path in (ROOT / "spidercli").rglob("*.py"):
        assert "spidercli.invalid" not in path.read_text(encoding="utf-8"), path
