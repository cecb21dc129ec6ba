"""``make bench-kpat``'s parts (tests/bench_kpat.py): the deals it takes, the whole-process CPU
time it measures, KPat's printout read, and the per-suit summary with its targets."""

from __future__ import annotations

import sys

import pytest

from tests import bench_kpat
from tests.bench_kpat import Run, kpat_result, parse_deals, run_child, summarize


def test_deals_are_ranges_and_numbers() -> None:
    assert parse_deals(bench_kpat.DEFAULT_DEALS) == list(range(401, 421))
    assert parse_deals("1-3, 7,2-4") == [1, 2, 3, 7, 4]
    for bad in ("", "3-1", "0-2", "a", "1-", "2147483648", "1-20;30"):
        with pytest.raises(ValueError):
            parse_deals(bad)


def test_a_childs_cpu_time_is_its_own() -> None:
    """The kernel's count for the child alone: a child that spins for 0.3 s of CPU shows about
    that, a child that sleeps shows almost none (wall time is not CPU time)."""
    spin = (
        "import time\nt = time.process_time()\n"
        "while time.process_time() - t < 0.3:\n    pass\nprint('done')"
    )
    busy = run_child([sys.executable, "-c", spin])
    assert busy.returncode == 0 and busy.stdout == "done\n"
    assert 0.3 <= busy.cpu < 3
    idle = run_child([sys.executable, "-c", "import time; time.sleep(0.5)"])
    assert idle.cpu < 0.3
    assert busy.peak_mb > 1
    failed = run_child([sys.executable, "-c", "import sys; sys.exit(3)"])
    assert failed.returncode == 3


def test_kpats_printout_is_read_without_the_runs_sent_off() -> None:
    out = "7 won (512 ms) moves=5\nline 7: 0>1@4 11>0@0 2>3@5 3>4@0O 1>2@3\n"
    assert kpat_result(out, 7) == (True, 4, 0.512)
    assert kpat_result("8 unknown (90 ms)\n", 8) == (False, None, 0.09)
    with pytest.raises(SystemExit):
        kpat_result("17 won (1 ms)\n", 7)


def test_the_summary_and_its_targets() -> None:
    mine = [Run(True, 90, 0.5), Run(True, 100, 0.7), Run(True, 120, 0.9)]
    theirs = [Run(True, 100, 0.6), Run(True, 100, 0.8), Run(False, None, 1.0)]
    s = summarize(1, mine, theirs)
    assert (s.won, s.moves, s.cpu) == (3, 100, 0.7)
    assert (s.kpat_won, s.kpat_moves, s.kpat_cpu) == (2, 100, 0.8)
    assert (s.length_median, s.length_max) == (0.95, 1.0)
    assert s.time_ratio == pytest.approx(0.875)
    assert s.met
    slower = summarize(1, [Run(r.won, r.moves, r.cpu * 2) for r in mine], theirs)
    assert slower.time_ratio > 1 and not slower.met
    lost = summarize(1, [Run(False, None, 0.5), *mine[1:]], theirs)
    assert not lost.both_kpat_wins and not lost.met
    longer = summarize(1, [Run(True, 130, 0.5), *mine[1:]], theirs)
    assert longer.length_max == 1.3 and not longer.met
    assert "| 1 | 3/3, 100, 0.70 s | 2/3, 100, 0.80 s | 0.87x | 0.95 / 1.00 | met |" in (
        bench_kpat.table([s], "KPat")
    )


def test_deals_kpat_never_recorded_need_its_binary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KPAT_BIN", raising=False)
    monkeypatch.setenv("KPAT_DEALS", "401-402")
    with pytest.raises(SystemExit) as raised:
        bench_kpat.main([])
    assert raised.value.code == 2
