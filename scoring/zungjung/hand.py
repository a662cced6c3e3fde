"""The input of the Zung Jung scorer: a winning hand and how it was won.

This is the scorer's own small type, independent of the JSON request: ``adapter.py`` builds
it from a parsed score request. Tiles are 0-33 kinds (``scoring.tiles``); red fives are
plain fives here (WSOM plays 136 tiles without red fives).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scoring.errors import InvalidHandError
from scoring.tiles import EAST, NUM_KINDS, kind_name

MeldKind = Literal["chow", "pung", "kong"]


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``tile`` is the lowest tile; only a kong can be ``concealed``."""

    kind: MeldKind
    tile: int
    concealed: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("chow", "pung", "kong"):
            raise InvalidHandError(f"unknown meld kind {self.kind!r}", code="bad_meld")
        if not 0 <= self.tile < NUM_KINDS:
            raise InvalidHandError(f"meld tile {self.tile!r} out of range", code="bad_meld")
        if self.kind == "chow" and (self.tile >= 27 or self.tile % 9 > 6):
            raise InvalidHandError(
                f"no chow starts at {kind_name(self.tile)}", code="bad_meld", tile=self.tile
            )
        if self.concealed and self.kind != "kong":
            raise InvalidHandError("only a kong can be declared concealed", code="bad_meld")

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == "kong" else 3)


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """A winning hand. ``concealed`` are the counts of the concealed tiles *without* the
    winning tile; ``seat_wind`` is a wind kind (27-30).

    Incidental flags: ``final_draw`` (9.1.1), ``final_discard`` (9.1.2), ``win_on_kong``
    (9.2), ``robbing_kong`` (9.3), ``heaven`` (9.4.1), ``earth`` (9.4.2).
    """

    concealed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    self_drawn: bool = False
    seat_wind: int = EAST
    final_draw: bool = False
    final_discard: bool = False
    win_on_kong: bool = False
    robbing_kong: bool = False
    heaven: bool = False
    earth: bool = False

    def __post_init__(self) -> None:
        self._validate()

    @property
    def full_concealed(self) -> tuple[int, ...]:
        """Concealed counts including the winning tile."""
        c = list(self.concealed)
        c[self.win_tile] += 1
        return tuple(c)

    @property
    def all_counts(self) -> tuple[int, ...]:
        """Counts of every tile of the hand, melds and winning tile included."""
        c = list(self.full_concealed)
        for m in self.melds:
            for k in m.kinds:
                c[k] += 1
        return tuple(c)

    @property
    def is_closed(self) -> bool:
        """No exposed set (a concealed kong keeps the hand concealed)."""
        return all(m.concealed for m in self.melds)

    def _validate(self) -> None:
        if len(self.concealed) != NUM_KINDS or any(c < 0 for c in self.concealed):
            raise InvalidHandError("concealed counts must be 34 non-negative numbers")
        if not 0 <= self.win_tile < NUM_KINDS:
            raise InvalidHandError(f"winning tile {self.win_tile!r} out of range", code="bad_tile")
        if not 27 <= self.seat_wind <= 30:
            raise InvalidHandError(f"seat wind {self.seat_wind!r} is not a wind", code="bad_wind")
        over = [kind_name(k) for k, c in enumerate(self.all_counts) if c > 4]
        if over:
            raise InvalidHandError(
                f"more than four of {', '.join(over)}", code="too_many_tiles", tiles=over
            )
        size = sum(self.full_concealed) + 3 * len(self.melds)
        if size != 14:
            raise InvalidHandError(
                f"a winning hand has 14 tiles (a kong counting 3), this one has {size}",
                code="wrong_tile_count",
            )
        self._validate_situation()

    def _validate_situation(self) -> None:
        """Contradictory win situations (WSOM.md §1, 9.x) are errors, not silent zeros."""
        bad: list[tuple[str, str]] = []
        if self.final_draw and not self.self_drawn:
            bad.append(("final_draw_needs_self_draw", "Final Draw is a self-drawn win"))
        if self.final_discard and self.self_drawn:
            bad.append(("final_discard_needs_discard", "Final Discard is a win on a discard"))
        if self.win_on_kong and not self.self_drawn:
            bad.append(("win_on_kong_needs_self_draw", "Win on Kong is a self-drawn win"))
        if self.win_on_kong and not any(m.kind == "kong" for m in self.melds):
            bad.append(("win_on_kong_needs_kong", "Win on Kong needs a declared kong"))
        if self.robbing_kong and self.self_drawn:
            bad.append(("robbing_kong_not_self_draw", "Robbing a Kong is not a self-draw"))
        if self.robbing_kong and self.all_counts[self.win_tile] != 1:
            # The robbed tile is the fourth of another player's exposed pung, so the
            # winner cannot hold any other copy of it.
            bad.append(("robbed_tile_held", "a robbed kong tile has no other copy in the hand"))
        if self.heaven and (self.seat_wind != EAST or not self.self_drawn or self.melds):
            bad.append(("heaven_needs_east_self_draw", "Blessing of Heaven is East's dealt hand"))
        if self.earth and (self.seat_wind == EAST or self.self_drawn or self.melds):
            bad.append(
                (
                    "earth_needs_non_east_discard",
                    "Blessing of Earth is a non-East player's win on East's first discard "
                    "(not a self-draw as riichi's chiihou)",
                )
            )
        if self.heaven and self.earth:
            bad.append(("heaven_and_earth", "a hand cannot be both blessings"))
        if bad:
            code, message = bad[0]
            raise InvalidHandError(message, code=code)
