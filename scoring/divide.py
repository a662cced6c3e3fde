"""Every way to read 14 (or 14-minus-melds) concealed tiles as sets and a pair.

``divide(counts)`` returns all standard decompositions of a count vector into a pair plus
runs and triplets. It is pure and cached on the 34-tuple, so hands that share a concealed
shape (very common in bulk scoring) are divided once. Chiitoitsu and kokushi are special
shapes checked separately (``is_chiitoitsu``, ``is_kokushi``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from scoring.tiles import NUM_KINDS, TERMINALS_AND_HONORS


@dataclass(frozen=True, slots=True, order=True)
class Block:
    """A concealed set: ``kind`` is the lowest tile; ``is_run`` tells a run from a triplet."""

    kind: int
    is_run: bool

    @property
    def kinds(self) -> tuple[int, int, int]:
        if self.is_run:
            return (self.kind, self.kind + 1, self.kind + 2)
        return (self.kind, self.kind, self.kind)


@dataclass(frozen=True, slots=True, order=True)
class Division:
    """A pair and the concealed sets (sorted), one reading of the concealed tiles."""

    pair: int
    blocks: tuple[Block, ...]


def _sets(counts: list[int], start: int) -> list[tuple[Block, ...]]:
    """All ways to cut ``counts`` (from kind ``start`` on) into runs and triplets."""
    k = start
    while k < NUM_KINDS and counts[k] == 0:
        k += 1
    if k == NUM_KINDS:
        return [()]
    found: list[tuple[Block, ...]] = []
    if counts[k] >= 3:
        counts[k] -= 3
        found += [(Block(k, False), *rest) for rest in _sets(counts, k)]
        counts[k] += 3
    if k < 27 and k % 9 <= 6 and counts[k + 1] and counts[k + 2]:
        for j in (k, k + 1, k + 2):
            counts[j] -= 1
        found += [(Block(k, True), *rest) for rest in _sets(counts, k)]
        for j in (k, k + 1, k + 2):
            counts[j] += 1
    return found


@lru_cache(maxsize=65536)
def divide(counts: tuple[int, ...]) -> tuple[Division, ...]:
    """All (pair, sets) readings of the tile counts; empty when there is none.

    >>> from scoring.notation import parse_tiles
    >>> from scoring.tiles import counts_of
    >>> len(divide(counts_of(parse_tiles("111222333m11p"))))  # triplets, or three runs
    2
    """
    total = sum(counts)
    if total % 3 != 2:
        return ()
    work = list(counts)
    out: set[Division] = set()
    for p in range(NUM_KINDS):
        if work[p] >= 2:
            work[p] -= 2
            for sets in _sets(work, 0):
                out.add(Division(p, tuple(sorted(sets))))
            work[p] += 2
    return tuple(sorted(out))


def is_chiitoitsu(counts: tuple[int, ...]) -> bool:
    """Seven distinct pairs (four of a kind is not two pairs)."""
    return sum(counts) == 14 and sum(1 for c in counts if c == 2) == 7


def is_kokushi(counts: tuple[int, ...]) -> bool:
    """One of each terminal and honour, one of them paired."""
    if sum(counts) != 14:
        return False
    return all(counts[k] >= 1 for k in TERMINALS_AND_HONORS) and all(
        counts[k] == 0 for k in range(NUM_KINDS) if k not in TERMINALS_AND_HONORS
    )
