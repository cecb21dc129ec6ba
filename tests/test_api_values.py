"""The public API's values as a library's users expect them (docs/api.md, "Values that do not
change"): every type in ``spidercli.__all__`` has a ``repr`` of one short line naming the game or
file, the status and the counts, and no value can be changed after the call that made it
(frozen fields; tuples and read-only mappings, never a list or a dict). Each value here is made
by a real call, as a program would make it: a fixture replayed, a folder verified, a small deal
solved, a tournament judged.

The types are those ``__all__`` names: a public type added without a value made here fails
``test_every_public_type_is_tried``.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

import spidercli

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
LONGEST = 120  # a repr's most characters

# A player's name and a file name as a stranger may write them: long, with a terminal escape.
HOSTILE = "Mallory \x1b[2J" + "x" * 5000
HOSTILE_FILE = "submissions/" + "very-long-folder-name/" * 20 + "game\u202e.yaml"

PUBLIC_TYPES = sorted(
    name
    for name in spidercli.__all__
    if isinstance(getattr(spidercli, name), type)
    and not issubclass(getattr(spidercli, name), BaseException)
)


def _tournament(folder: Path, manifest: str | None) -> spidercli.TournamentResult:
    def player(src: str, dest: str, who: str) -> None:
        text = (FIXTURES / src).read_text(encoding="utf-8")
        (folder / dest).write_text(text.replace("game:", f"player: {who}\ngame:", 1))

    player("example-spiderette-53.yaml", "alice-sd.yaml", "alice")
    player("example-spider-1suit-117.yaml", "alice-sp.yaml", "alice")
    player("example-spider-1suit-117.yaml", "bob-sp-2.yaml", "bob")
    (folder / "bob-sp-1.yaml").write_text("game: SP1-S1C-AAAAABD\nplayer: bob\nmoves: [finish]\n")
    player("illegal/stock-empty.yaml", "dave.yaml", "dave")
    player("example-spiderette-53.yaml", "mallory.yaml", repr(HOSTILE).replace("'", '"'))
    if manifest is None:
        return spidercli.standings([folder])
    plan = folder / "manifest.yml"
    plan.write_text(manifest)
    return spidercli.standings([folder], plan)


@pytest.fixture(scope="module")
def values(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[object]]:
    """Each public type's name and real values of it, the usual and the awkward ones."""
    tmp = tmp_path_factory.mktemp("values")
    found: dict[str, list[object]] = {}

    def add(*made: object) -> None:
        for value in made:
            found.setdefault(type(value).__name__, []).append(value)

    log = spidercli.read_log("fixtures/example-spider-1suit-117.yaml")  # as docs/api.md reads it
    bad = spidercli.read_log(FIXTURES / "illegal" / "build-one-higher.yaml")
    explicit = spidercli.read_log(FIXTURES / "spiderette-1suit-win-explicit.yaml")
    unmet = spidercli.parse_log(
        "game: SD1-S1-AAAABIW\nexpect: {result: won, moves: 3}\nmoves: [7>1]\n", name="unmet.yaml"
    )
    hostile = spidercli.parse_log(
        f"game: SD1-S1-AAAABIW\nplayer: {HOSTILE!r}\nmoves: [7>1, '  7  >  1  ']\n".replace(
            "'", '"'
        ),
        name=HOSTILE_FILE,
    )
    add(log, bad, explicit, unmet, hostile, *log.entries[:3], *hostile.entries)
    add(log.expect, unmet.expect)
    reports = [
        spidercli.replay(log),
        spidercli.replay(bad),
        spidercli.replay(bad, on_illegal="skip"),
        spidercli.replay(explicit),
        spidercli.replay(unmet),
        spidercli.replay(hostile, on_illegal="skip"),
        spidercli.replay(log, rules="kpat"),
    ]
    add(*reports)
    for report in reports:
        add(*report.illegal, *(report.mismatches or ()))
    board = spidercli.deal("SD2-S1-AAAAAAA")
    add(board, spidercli.deal("KP4-17"), *board.columns)

    pages = tmp / "pages"
    verdicts = list(spidercli.verify([FIXTURES / "batch", FIXTURES / "illegal"], html_dir=pages))
    add(*verdicts, *(v.replayed for v in verdicts if v.replayed is not None))
    long_named = tmp / HOSTILE_FILE
    long_named.parent.mkdir(parents=True)
    shutil.copyfile(FIXTURES / "example-spider-1suit-117.yaml", long_named)
    add(*spidercli.verify(long_named))

    def hint(text: str, states: int) -> spidercli.Hint:
        return spidercli.hint(spidercli.parse_log(text), max_states=states)

    add(
        spidercli.hint(log),  # the game is over
        hint("game: SD1-S1-AAAAAAC\nmoves: []\n", 200_000),  # a move, and the win it starts
        hint("game: SP4-S1C-AAAAAAB\nmoves: []\n", 300),  # the best move found
        hint("game: SD1-S1-AAAABIW\nmoves: [7>1]\n", 2000),  # no move helps
        spidercli.hint(log, fair=True),
        spidercli.hint(spidercli.parse_log("game: SD1-S1-AAAAAAC\nmoves: []\n"), fair=True),
    )
    add(
        spidercli.solve("SD1-S1-AAAAAAC"),
        spidercli.solve(explicit, max_states=300),
        spidercli.solve("SP4-S1C-AAAAAAB", max_states=300),
        spidercli.solve("PS4-14934"),
    )

    (tmp / "plain").mkdir()
    (tmp / "cup").mkdir()
    (tmp / "wins").mkdir()
    plain = _tournament(tmp / "plain", None)
    cup = _tournament(
        tmp / "cup",
        f"name: {HOSTILE!r}\nrules: classic\ndeals:\n  - SD1-S1-AAAABIW\n  - sp1-s1c-aaaaabd\n"
        "  - SP4-S1C-AAAAAAB\n".replace("'", '"'),
    )
    wins = _tournament(
        tmp / "wins", "ranking: wins\ndeals:\n  - {game: SD1-S1-AAAABIW, grade: easy}\n"
    )
    for result in (plain, cup, wins):
        add(result, *result.standings, *result.best.values(), *result.superseded)

    add(
        spidercli.duel(
            spidercli.read_log(FIXTURES / "duel-1suit-win.yaml"),
            spidercli.read_log(FIXTURES / "duel-finish.yaml"),
        ),
        spidercli.duel(
            spidercli.read_log(FIXTURES / "duel-finish.yaml"),
            spidercli.read_log(FIXTURES / "duel-finish.yaml"),
        ),
    )
    written = tmp / "record.yaml"
    written.write_text("game: SD1-S1-AAAABIW\nmoves: [7>1]\n")
    add(spidercli.record_file(written), spidercli.record_file(written))
    for save in sorted((FIXTURES / "kpat").glob("*.xml"))[:4]:
        add(spidercli.import_kpat(save))
    table = spidercli.deals("PS4")
    add(table, spidercli.settled("PS4-17"), spidercli.settled("PS4-14934"), table.get(32000))
    # One deal: each deal a pick draws is graded by the fair player's playouts (seconds each).
    add(spidercli.pick_deals("PS4", 1, seed=5, title=HOSTILE, ranking="wins"))
    return found


def _all(values: dict[str, list[object]]) -> Iterator[tuple[str, object]]:
    for name in PUBLIC_TYPES:
        for value in values.get(name, []):
            yield name, value


def test_every_public_type_is_tried(values: dict[str, list[object]]) -> None:
    """Each class of ``__all__`` has values made here (a new one needs its own)."""
    assert PUBLIC_TYPES  # the enumeration finds the classes
    assert [name for name in PUBLIC_TYPES if not values.get(name)] == []


def test_reprs_are_one_short_line(values: dict[str, list[object]]) -> None:
    for name, value in _all(values):
        shown = repr(value)
        assert shown.isprintable(), shown  # no newline, no escape from a log
        assert len(shown) <= LONGEST, shown
        assert shown.startswith(f"<{name} ") and shown.endswith(">"), shown


def test_reprs_name_the_game_status_and_counts(values: dict[str, list[object]]) -> None:
    """The reprs of the docs' examples, exactly; and each value's game code in its repr."""
    first = {name: repr(found[0]) for name, found in values.items()}
    assert first["Report"] == (
        "<Report SP1-S1C-AAAAABD classic: valid, won, 117 moves, score 1183, 8 runs>"
    )
    assert first["MoveLog"] == (
        "<MoveLog fixtures/example-spider-1suit-117.yaml: SP1-S1C-AAAAABD classic, 117 entries, "
        "expect>"
    )
    shown = [repr(v) for v in values["Report"]]
    assert shown[1] == (
        "<Report SP1-S1C-AAAAAAD classic: illegal, halted at entry 1, open, 0 moves, score 500, "
        "0 runs>"
    )
    assert shown[2] == (
        "<Report SP1-S1C-AAAAAAD classic: illegal, 1 of 2 entries refused, open, 1 move, "
        "score 499, 0 runs>"
    )
    assert shown[3].startswith("<Report deal ")  # a written-out deal: its ID
    assert shown[4] == (
        "<Report SD1-S1-AAAABIW classic: expect-failed, 2 unmet, open, 1 move, score 499, 0 runs>"
    )
    assert first["Illegal"] == "<Illegal entry 1 (line 5) `4>1`: build-one-higher>"
    assert first["Expect"] == "<Expect line 6: won, 117 moves, score 1183, 8 runs>"
    columns = [repr(c) for c in values["Column"]]
    assert columns[0] == "<Column down none, up KS>"
    assert columns[-1] == "<Column down KH JS 2S 5H 8H 8H, up QS>"
    assert first["Board"] == (
        "<Board SD2-S1-AAAAAAA: 7 columns, 21 face down, 7 face up, 24 in stock>"
    )
    assert first["Solution"].startswith("<Solution SD1-S1-AAAAAAC classic: won, 44 moves, ")
    assert first["Judgement"] == (
        "<Judgement SP1-S1C-AAAAAAD duel: A wins, higher score (4278 to 38)>"
    )
    assert first["Settled"] == "<Settled PS4-17: won, 174 moves>"
    for name, value in _all(values):
        game = getattr(value, "game", None)
        if isinstance(game, str):
            assert game in repr(value), (name, repr(value))


def _frozen(value: object, where: str, seen: set[int]) -> Iterator[str]:
    """Where something that can be changed is held in ``value`` (a list, a dict, a set, a
    dataclass that is not frozen), field by field, item by item."""
    if id(value) in seen or isinstance(value, str | bytes | int | float | bool | type(None)):
        return
    seen.add(id(value))
    if isinstance(value, list | dict | set | bytearray):
        yield f"{where}: a {type(value).__name__}"
    elif isinstance(value, tuple):  # a named tuple too (Column)
        for i, item in enumerate(value):
            yield from _frozen(item, f"{where}[{i}]", seen)
    elif isinstance(value, MappingProxyType):
        for key, item in value.items():
            yield from _frozen(key, f"{where} key {key!r}", seen)
            yield from _frozen(item, f"{where}[{key!r}]", seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__name__ in _MUTABLE_INSIDE:
            return
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            yield f"{where}: {type(value).__name__} is not frozen"
        for f in dataclasses.fields(value):
            yield from _frozen(getattr(value, f.name), f"{where}.{f.name}", seen)


# Internal values that change by design, never a public field: the engine's position (a
# report's ``game``, a board's ``position``: a hint plays on it and takes the move back).
_MUTABLE_INSIDE = {"Game"}


def test_no_value_can_be_changed(values: dict[str, list[object]]) -> None:
    for name, value in _all(values):
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(value, f.name, getattr(value, f.name))
            # (a frozen dataclass with slots raises TypeError here before Python 3.12)
            with pytest.raises((AttributeError, TypeError)):
                value.new_field = 1  # type: ignore[union-attr]
        else:  # Column, a named tuple
            with pytest.raises(AttributeError):
                value.down = ()  # type: ignore[attr-defined]
        assert list(_frozen(value, name, set())) == [], name


def test_what_a_program_might_try(values: dict[str, list[object]]) -> None:
    """The changes docs/api.md says are refused, as a program would try them."""
    report = spidercli.replay(spidercli.read_log(FIXTURES / "illegal" / "build-one-higher.yaml"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.illegal = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):  # a tuple
        report.illegal.append(report.illegal[0])  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.rules = "duel"  # type: ignore[misc]
    result = values["TournamentResult"][1]
    assert isinstance(result, spidercli.TournamentResult)
    with pytest.raises(TypeError):
        result.best[("mallory", "0" * 16)] = result.best[next(iter(result.best))]  # type: ignore[index]
    with pytest.raises(TypeError):
        result.rejected[0]["reason"] = "fine"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.standings[0].rank = 1  # type: ignore[misc]
    for hint in (*values["Hint"], *values["FairHint"]):
        with pytest.raises(AttributeError):
            hint.reasons.append("why not")  # type: ignore[attr-defined]
    recorded = values["Recorded"][0]
    with pytest.raises(TypeError):
        recorded.expect["score"] = 0  # type: ignore[attr-defined]
    # A changed copy is the caller's: to_json() is a new dict each time.
    record = report.to_json()
    record["illegal"].clear()
    assert report.to_json()["illegal"] != []


def test_rules_is_a_name_and_ruleset_the_rules(values: dict[str, list[object]]) -> None:
    for report in values["Report"]:
        assert isinstance(report, spidercli.Report)
        assert isinstance(report.rules, str) and report.rules == report.ruleset.name
        assert report.to_json()["rules"] == report.rules
    kpat = values["Report"][-1]
    assert isinstance(kpat, spidercli.Report)
    assert kpat.rules == "kpat" and kpat.ruleset.app.startswith("KDE KPatience")


def test_a_tournament_names_its_manifest_file(values: dict[str, list[object]]) -> None:
    plain, cup, wins = values["TournamentResult"]
    assert isinstance(plain, spidercli.TournamentResult)
    assert isinstance(wins, spidercli.TournamentResult)
    assert plain.manifest_file is None
    assert wins.manifest_file is not None and wins.manifest_file.endswith("manifest.yml")
    assert repr(plain).startswith("<TournamentResult (no manifest): ")
    assert repr(wins).startswith(f"<TournamentResult {wins.manifest_file[:15]}...")
    assert repr(wins).endswith(", by wins>")
    assert repr(cup) == (
        "<TournamentResult 'Mallory \\x1b[2Jxx...' classic: 3 players, 3 deals, 4 counted, "
        "1 superseded, 1 rejected>"
    )
