"""The 44 Zung Jung patterns as a registry of small pure detectors.

A *reading* is one way to see the winning hand: four sets and a pair (every division of the
concealed tiles, plus the declared melds), Seven Pairs, or Thirteen Terminals. Each detector
answers, for one reading, how many times its pattern is present (0 = absent; only 3.1 Value
Honor can be more than 1). Which pattern excludes which is not coded here: the table's
``series`` data says it, and :mod:`scoring.zungjung.evaluate` keeps the highest grade of
each series. Detectors are therefore written plainly ("at least two concealed triplets"),
and the series rule turns "four" into "Four Concealed Triplets only".

Sources for every condition: ``../shared/rules/WSOM.md`` §1 (pattern conditions), §2.5-§2.7
(hand shapes, kongs) and the seven-pairs combination rule at the end of §1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from scoring.tiles import (
    DRAGONS,
    IS_HONOR,
    IS_TERMINAL,
    IS_YAOCHUU,
    NUM_KINDS,
    WINDS,
    kind_name,
)
from scoring.zungjung.hand import Hand

Shape = Literal["regular", "seven_pairs", "thirteen_terminals"]
SetKind = Literal["sequence", "triplet", "kong"]


@dataclass(frozen=True, slots=True, order=True)
class Set:
    """One set of a regular reading. ``concealed``: all its tiles came from the wall (it
    counts for 4.2); ``exposed``: it was melded before the win (it breaks 1.2)."""

    kind: SetKind
    tile: int
    concealed: bool
    exposed: bool

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.kind == "sequence":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == "kong" else 3)

    @property
    def is_triplet(self) -> bool:
        """A triplet or a kong (a kong counts as a triplet in every pattern)."""
        return self.kind != "sequence"


@dataclass(frozen=True, slots=True, order=True)
class Reading:
    """One reading of the hand: the shape, the four sets and the pair (regular), or the
    seven pair tiles (seven pairs); thirteen terminals has neither (``pair`` is -1 then)."""

    shape: Shape
    sets: tuple[Set, ...] = ()
    pair: int = -1
    pairs: tuple[int, ...] = ()

    def describe(self) -> str:
        """A short human form, e.g. ``'123m 555z* [777p] 1s1s'`` (* concealed triplet)."""
        if self.shape == "thirteen_terminals":
            return "thirteen terminals"
        if self.shape == "seven_pairs":
            return " ".join(kind_name(k) * 2 for k in self.pairs)
        out = []
        for s in self.sets:
            text = "".join(kind_name(k)[0] for k in s.kinds) + kind_name(s.tile)[1]
            if s.exposed:
                text = f"[{text}]"
            elif s.is_triplet and s.concealed:
                text += "*"
            out.append(text)
        out.append(kind_name(self.pair) * 2)
        return " ".join(out)


Detector = Callable[[Reading, Hand], int]

#: pattern id -> (detector, shapes it applies to). Filled by :func:`pattern` at import.
REGISTRY: dict[str, tuple[Detector, frozenset[str]]] = {}

_REGULAR = frozenset({"regular"})
_REGULAR_OR_PAIRS = frozenset({"regular", "seven_pairs"})
_ANY = frozenset({"regular", "seven_pairs", "thirteen_terminals"})


def pattern(pid: str, shapes: frozenset[str] = _REGULAR) -> Callable[[Detector], Detector]:
    """Register a detector. ``shapes``: the readings it may score on (WSOM.md §1, 10.2 note:
    Seven Pairs takes no pattern that needs sets; Thirteen Terminals only the 9.x bonuses)."""

    def deco(fn: Detector) -> Detector:
        REGISTRY[pid] = (fn, shapes)
        return fn

    return deco


def detect(reading: Reading, hand: Hand) -> dict[str, int]:
    """Every registered pattern present in this reading, with its count."""
    found = {}
    for pid, (fn, shapes) in REGISTRY.items():
        if reading.shape in shapes:
            n = fn(reading, hand)
            if n:
                found[pid] = n
    return found


# --- helpers --------------------------------------------------------------------------------


def _triplets(r: Reading) -> list[Set]:
    return [s for s in r.sets if s.is_triplet]


def _sequences(r: Reading) -> list[Set]:
    return [s for s in r.sets if s.kind == "sequence"]


def _kinds_present(h: Hand) -> list[int]:
    counts = h.all_counts
    return [k for k in range(NUM_KINDS) if counts[k]]


def _number_suits(h: Hand) -> set[int]:
    return {k // 9 for k in _kinds_present(h) if k < 27}


def _has_honor(h: Hand) -> bool:
    return any(IS_HONOR[k] for k in _kinds_present(h))


def _has_terminal(h: Hand) -> bool:
    return any(IS_TERMINAL[k] for k in _kinds_present(h))


def _groups(r: Reading) -> list[tuple[int, ...]]:
    """Every set and the pair, as tuples of kinds (for the 8.1 'each set contains' tests)."""
    return [s.kinds for s in r.sets] + [(r.pair, r.pair)]


def _triplet_tiles(r: Reading) -> set[int]:
    return {s.tile for s in _triplets(r)}


# --- 1.0 Trivial patterns -------------------------------------------------------------------


@pattern("all_sequences")
def all_sequences(r: Reading, h: Hand) -> int:
    """Four sequences; nothing asked of the pair, the wait or concealment."""
    return int(len(_sequences(r)) == 4)


@pattern("concealed_hand")
def concealed_hand(r: Reading, h: Hand) -> int:
    """A regular hand with no exposed set; a concealed kong and a discard win are fine."""
    return int(not any(s.exposed for s in r.sets))


@pattern("no_terminals", _REGULAR_OR_PAIRS)
def no_terminals(r: Reading, h: Hand) -> int:
    return int(not any(IS_YAOCHUU[k] for k in _kinds_present(h)))


# --- 2.0 One-suit patterns ------------------------------------------------------------------


@pattern("mixed_one_suit", _REGULAR_OR_PAIRS)
def mixed_one_suit(r: Reading, h: Hand) -> int:
    return int(len(_number_suits(h)) == 1 and _has_honor(h))


@pattern("pure_one_suit", _REGULAR_OR_PAIRS)
def pure_one_suit(r: Reading, h: Hand) -> int:
    return int(len(_number_suits(h)) == 1 and not _has_honor(h))


_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@pattern("nine_gates")
def nine_gates(r: Reading, h: Hand) -> int:
    """1112345678999 of one suit held concealed, winning on any tile of that suit."""
    if h.melds or h.win_tile >= 27:
        return 0
    base = h.win_tile - h.win_tile % 9
    return int(tuple(h.concealed[base : base + 9]) == _NINE_GATES and sum(h.concealed) == 13)


# --- 3.0 Honor tiles ------------------------------------------------------------------------


def value_honor_tiles(r: Reading, h: Hand) -> list[int]:
    """The tiles of the triplets/kongs that are value honours: dragons and the seat wind
    (the prevailing wind is not one in Zung Jung)."""
    return [s.tile for s in _triplets(r) if s.tile in DRAGONS or s.tile == h.seat_wind]


@pattern("value_honor")
def value_honor(r: Reading, h: Hand) -> int:
    """One per value-honour set (the only pattern counted more than once)."""
    return len(value_honor_tiles(r, h))


def _honor_sets(r: Reading, kinds: tuple[int, ...]) -> tuple[int, bool]:
    return sum(1 for s in _triplets(r) if s.tile in kinds), r.pair in kinds


@pattern("small_three_dragons")
def small_three_dragons(r: Reading, h: Hand) -> int:
    n, pair = _honor_sets(r, DRAGONS)
    return int(n == 2 and pair)


@pattern("big_three_dragons")
def big_three_dragons(r: Reading, h: Hand) -> int:
    return int(_honor_sets(r, DRAGONS)[0] == 3)


@pattern("small_three_winds")
def small_three_winds(r: Reading, h: Hand) -> int:
    n, pair = _honor_sets(r, WINDS)
    return int(n >= 2 and pair)


@pattern("big_three_winds")
def big_three_winds(r: Reading, h: Hand) -> int:
    return int(_honor_sets(r, WINDS)[0] >= 3)


@pattern("small_four_winds")
def small_four_winds(r: Reading, h: Hand) -> int:
    n, pair = _honor_sets(r, WINDS)
    return int(n == 3 and pair)


@pattern("big_four_winds")
def big_four_winds(r: Reading, h: Hand) -> int:
    return int(_honor_sets(r, WINDS)[0] == 4)


@pattern("all_honors", _REGULAR_OR_PAIRS)
def all_honors(r: Reading, h: Hand) -> int:
    return int(not _number_suits(h))


# --- 4.0 Triplets and kong ------------------------------------------------------------------


@pattern("all_triplets")
def all_triplets(r: Reading, h: Hand) -> int:
    return int(len(_triplets(r)) == 4)


def _concealed_triplets(r: Reading) -> int:
    """Triplets all of whose tiles came from the wall; concealed kongs count, a triplet
    completed by a discard does not (WSOM.md §1 4.0, [ZJbook])."""
    return sum(1 for s in _triplets(r) if s.concealed)


@pattern("two_concealed_triplets")
def two_concealed_triplets(r: Reading, h: Hand) -> int:
    return int(_concealed_triplets(r) >= 2)


@pattern("three_concealed_triplets")
def three_concealed_triplets(r: Reading, h: Hand) -> int:
    return int(_concealed_triplets(r) >= 3)


@pattern("four_concealed_triplets")
def four_concealed_triplets(r: Reading, h: Hand) -> int:
    return int(_concealed_triplets(r) == 4)


def _kongs(r: Reading) -> int:
    return sum(1 for s in r.sets if s.kind == "kong")


@pattern("one_kong")
def one_kong(r: Reading, h: Hand) -> int:
    return int(_kongs(r) >= 1)


@pattern("two_kong")
def two_kong(r: Reading, h: Hand) -> int:
    return int(_kongs(r) >= 2)


@pattern("three_kong")
def three_kong(r: Reading, h: Hand) -> int:
    return int(_kongs(r) >= 3)


@pattern("four_kong")
def four_kong(r: Reading, h: Hand) -> int:
    return int(_kongs(r) == 4)


# --- 5.0 Identical sets (sequences, exposed ones too) ---------------------------------------


def _sequence_multiplicities(r: Reading) -> list[int]:
    return sorted(Counter(s.tile for s in _sequences(r)).values(), reverse=True)


@pattern("two_identical_sequences")
def two_identical_sequences(r: Reading, h: Hand) -> int:
    m = _sequence_multiplicities(r)
    return int(bool(m) and m[0] >= 2)


@pattern("two_identical_sequences_twice")
def two_identical_sequences_twice(r: Reading, h: Hand) -> int:
    """Two *different* sequences, each doubled."""
    return int(_sequence_multiplicities(r)[:2] == [2, 2])


@pattern("three_identical_sequences")
def three_identical_sequences(r: Reading, h: Hand) -> int:
    m = _sequence_multiplicities(r)
    return int(bool(m) and m[0] >= 3)


@pattern("four_identical_sequences")
def four_identical_sequences(r: Reading, h: Hand) -> int:
    m = _sequence_multiplicities(r)
    return int(bool(m) and m[0] == 4)


# --- 6.0 Similar sets (all three suits; two suits do not count) -----------------------------


@pattern("three_similar_sequences")
def three_similar_sequences(r: Reading, h: Hand) -> int:
    starts = {s.tile for s in _sequences(r)}
    return int(any({n, n + 9, n + 18} <= starts for n in range(7)))


@pattern("small_three_similar_triplets")
def small_three_similar_triplets(r: Reading, h: Hand) -> int:
    """Triplets of one number in two suits and the pair of that number in the third."""
    trips = _triplet_tiles(r)
    for n in range(9):
        same = [k for k in (n, n + 9, n + 18) if k in trips]
        if len(same) == 2 and r.pair in (n, n + 9, n + 18) and r.pair not in same:
            return 1
    return 0


@pattern("three_similar_triplets")
def three_similar_triplets(r: Reading, h: Hand) -> int:
    trips = _triplet_tiles(r)
    return int(any({n, n + 9, n + 18} <= trips for n in range(9)))


# --- 7.0 Consecutive sets (one suit) --------------------------------------------------------


@pattern("nine_tile_straight")
def nine_tile_straight(r: Reading, h: Hand) -> int:
    starts = {s.tile for s in _sequences(r)}
    return int(any({b, b + 3, b + 6} <= starts for b in (0, 9, 18)))


def _longest_consecutive_triplets(r: Reading) -> int:
    trips = {k for k in _triplet_tiles(r) if k < 27}
    best = 0
    for k in trips:
        n = 1
        while k + n in trips and (k + n) // 9 == k // 9:
            n += 1
        best = max(best, n)
    return best


@pattern("three_consecutive_triplets")
def three_consecutive_triplets(r: Reading, h: Hand) -> int:
    return int(_longest_consecutive_triplets(r) >= 3)


@pattern("four_consecutive_triplets")
def four_consecutive_triplets(r: Reading, h: Hand) -> int:
    return int(_longest_consecutive_triplets(r) >= 4)


# --- 8.0 Terminals --------------------------------------------------------------------------
# The series is about terminals (1 and 9): a hand of honours alone has none and scores 3.4
# All Honors instead. Thirteen Terminals takes none of them (v3.3 wording of 8.1.3).


@pattern("mixed_lesser_terminals")
def mixed_lesser_terminals(r: Reading, h: Hand) -> int:
    """Each set and the pair contains a terminal or an honour."""
    return int(_has_terminal(h) and all(any(IS_YAOCHUU[k] for k in g) for g in _groups(r)))


@pattern("pure_lesser_terminals")
def pure_lesser_terminals(r: Reading, h: Hand) -> int:
    """Each set and the pair contains a terminal number tile."""
    return int(all(any(IS_TERMINAL[k] for k in g) for g in _groups(r)))


@pattern("mixed_greater_terminals", _REGULAR_OR_PAIRS)
def mixed_greater_terminals(r: Reading, h: Hand) -> int:
    """Terminals and honours only."""
    return int(_has_terminal(h) and all(IS_YAOCHUU[k] for k in _kinds_present(h)))


@pattern("pure_greater_terminals", _REGULAR_OR_PAIRS)
def pure_greater_terminals(r: Reading, h: Hand) -> int:
    """Terminal number tiles only."""
    return int(all(IS_TERMINAL[k] for k in _kinds_present(h)))


# --- 9.0 Incidental bonuses (any shape) -----------------------------------------------------


@pattern("final_draw", _ANY)
def final_draw(r: Reading, h: Hand) -> int:
    return int(h.final_draw)


@pattern("final_discard", _ANY)
def final_discard(r: Reading, h: Hand) -> int:
    return int(h.final_discard)


@pattern("win_on_kong", _ANY)
def win_on_kong(r: Reading, h: Hand) -> int:
    return int(h.win_on_kong)


@pattern("robbing_a_kong", _ANY)
def robbing_a_kong(r: Reading, h: Hand) -> int:
    return int(h.robbing_kong)


@pattern("blessing_of_heaven", _ANY)
def blessing_of_heaven(r: Reading, h: Hand) -> int:
    return int(h.heaven)


@pattern("blessing_of_earth", _ANY)
def blessing_of_earth(r: Reading, h: Hand) -> int:
    return int(h.earth)


# --- 10.0 Irregular hands -------------------------------------------------------------------


@pattern("thirteen_terminals", frozenset({"thirteen_terminals"}))
def thirteen_terminals(r: Reading, h: Hand) -> int:
    return 1


@pattern("seven_pairs", frozenset({"seven_pairs"}))
def seven_pairs(r: Reading, h: Hand) -> int:
    return 1
