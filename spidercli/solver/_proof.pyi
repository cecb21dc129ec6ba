# The compiled proof search (spidercli/solver/_proof.c); see ProofSearch in proof.py.
from collections.abc import Callable

def search(
    cols: tuple[bytes, ...],
    down: tuple[int, ...],
    chunks: tuple[bytes, ...],
    runs: int,
    permissive: bool,
    runs_to_win: int,
    max_positions: int,
    max_bytes: int,
    grant: Callable[[int, int], int],
    progress: object,
    counts: object,
) -> tuple[list[tuple[int, int, int] | None] | None, bool]: ...
