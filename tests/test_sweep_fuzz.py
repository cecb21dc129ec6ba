"""A fixed sample of tests/fuzz_hostile.py's ``sweep`` campaign: resumed output files with fields
of the wrong type, forged certificates and damaged bytes (``make fuzz`` runs it for minutes;
docs/fuzzing.md has its counts)."""

from __future__ import annotations

from tests import fuzz_hostile as fuzz


def test_a_fixed_sample_of_resumed_sweep_files() -> None:
    stats, failures = fuzz.run_campaign("sweep", 60, seed=29, seconds=0, out=None, progress=0)
    assert stats["cases"] == 60
    assert stats["refused"] > 10 and stats["resumed"] > 10  # both ends are reached
    assert stats["forged"] > 10 and stats["certificates replayed"] > 0
    assert not failures, failures
