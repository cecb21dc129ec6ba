# The compiled beam pass (spidercli/solver/_beam.c); see BeamSolver._beam in solver.py.
from collections.abc import Callable

def beam(
    cols: tuple[bytes, ...],
    down: tuple[int, ...],
    chunks: tuple[bytes, ...],
    runs: int,
    permissive: bool,
    runs_to_win: int,
    width: int,
    cap: int,
    seen_limit: int,
    places: tuple[int, ...],
    grant: Callable[[int, int], int],
    progress: object,
) -> list[tuple[int, int, int] | None] | None: ...
def column_digest(col: bytes, down: int) -> int: ...
