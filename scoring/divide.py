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


@lru_cache(maxsize=1 << 16)
def _suit_sets(base: int, counts: tuple[int, ...]) -> tuple[tuple[Block, ...], ...]:
    """Every way to cut one suit's counts (``counts[i]`` is kind ``base + i``) into runs and
    triplets, each way sorted. Cached: a suit has far fewer shapes than a hand has."""
    if not any(counts):
        return ((),)
    k = next(i for i, c in enumerate(counts) if c)
    found: list[tuple[Block, ...]] = []
    work = list(counts)
    if work[k] >= 3:
        work[k] -= 3
        found += [(Block(base + k, False), *rest) for rest in _suit_sets(base, tuple(work))]
        work[k] += 3
    if base < 27 and k <= 6 and work[k + 1] and work[k + 2]:
        for j in (k, k + 1, k + 2):
            work[j] -= 1
        found += [(Block(base + k, True), *rest) for rest in _suit_sets(base, tuple(work))]
    # Different cut orders can give the same sets; keep each reading once, sorted.
    return tuple(sorted({tuple(sorted(w)) for w in found}))


def _sets(counts: tuple[int, ...]) -> list[tuple[Block, ...]]:
    """All ways to cut ``counts`` into runs and triplets, suit by suit."""
    ways: list[tuple[Block, ...]] = [()]
    for base in (0, 9, 18):
        seg = counts[base : base + 9]
        if sum(seg) % 3:
            return []
        suit_ways = _suit_sets(base, seg)
        if not suit_ways:
            return []
        if suit_ways != ((),):
            ways = [w + x for w in ways for x in suit_ways]
    honors: tuple[Block, ...] = ()
    for k in range(27, NUM_KINDS):
        c = counts[k]
        if c == 3:
            honors += (Block(k, False),)
        elif c:
            return []
    return [w + honors for w in ways] if honors else ways


@lru_cache(maxsize=65536)
def divide(counts: tuple[int, ...]) -> tuple[Division, ...]:
    """All (pair, sets) readings of the tile counts; empty when there is none.

    >>> from scoring.notation import parse_tiles
    >>> from scoring.tiles import counts_of
    >>> len(divide(counts_of(parse_tiles("111222333m11p"))))  # triplets, or three runs
    2
    """
    if sum(counts) % 3 != 2:
        return ()
    out: list[Division] = []
    work = list(counts)
    for p in range(NUM_KINDS):
        if work[p] >= 2:
            work[p] -= 2
            out.extend(Division(p, sets) for sets in _sets(tuple(work)))
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
