"""A deal's grade, as players feel it: the rule alone, light to import.

A deal's grade is the fair player's (``solver/fair.py``: the player who follows ``hint --fair``
without undo) wins over ``PLAYOUTS`` playouts, each with its own sampling seed, and its bucket:
``easy`` from a win rate of ``EASY``, ``medium`` from ``MEDIUM``, ``hard`` below. The thresholds
come from the measured rates of PySol's 4-suit deals, most of which the player wins in 0 or 1 of 8
playouts: hard is none won, medium one, easy two or more (docs/fair.md). ``fair.grade`` plays the
playouts; the settled table (``sweeps/table.py``) and tournaments read the grades it made.
"""

from __future__ import annotations

from dataclasses import dataclass

from spidercli.text.words import GRADES

PLAYOUTS = 8  # the playouts of a grade
EASY = 0.25  # a win rate at or above this is easy (2 of 8)
MEDIUM = 0.125  # at or above this (and below EASY) medium (1 of 8); below, hard


def bucket_of(rate: float) -> str:
    """The bucket of a win rate (``EASY``, ``MEDIUM``): one of ``GRADES``."""
    return GRADES[0] if rate >= EASY else GRADES[1] if rate >= MEDIUM else GRADES[2]


@dataclass(frozen=True)
class Grade:
    """A deal's difficulty for a person: the fair player's ``wins`` of ``playouts`` games, its
    ``rate`` and its ``bucket`` (``easy``, ``medium`` or ``hard``). ``ValueError`` for counts
    that are not a number of playouts won."""

    wins: int
    playouts: int

    def __post_init__(self) -> None:
        for value in (self.wins, self.playouts):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{self.wins}/{self.playouts} is not a count of playouts won")
        if not 0 <= self.wins <= self.playouts or self.playouts <= 0:
            raise ValueError(f"{self.wins}/{self.playouts} is not a count of playouts won")

    def __repr__(self) -> str:
        return f"<Grade {self.bucket}: {self.wins} of {self.playouts} won>"

    @property
    def rate(self) -> float:
        return self.wins / self.playouts

    @property
    def bucket(self) -> str:
        return bucket_of(self.rate)

    def to_json(self) -> dict[str, object]:
        return {"bucket": self.bucket, "wins": self.wins, "playouts": self.playouts}


__all__ = ["EASY", "MEDIUM", "PLAYOUTS", "Grade", "bucket_of"]
