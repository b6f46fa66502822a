"""A place in a source file: line and column, both counted from 1 as editors show them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Position:
    line: int
    col: int
