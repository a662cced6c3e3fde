"""The grouping's values: detections, warnings, places in the row, melds, readings, results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.notation import format_tiles
from scoring.tiles import Tile
from vision.grouping import settings
from vision.rows import Row


@dataclass(frozen=True, slots=True)
class Detection:
    """One detected tile: MPSZ name (or ``x``/``back``), box ``(x1, y1, x2, y2)`` in pixels.

    ``sideways`` None means "judge from the box"; ``candidates`` are other classes the
    detector considered, as ``(tile, confidence)`` pairs.
    """

    tile: str
    box: tuple[float, float, float, float]
    confidence: float = 1.0
    sideways: bool | None = None
    candidates: tuple[tuple[str, float], ...] = ()

    @property
    def face_down(self) -> bool:
        return self.tile in settings.FACE_DOWN_NAMES


@dataclass(frozen=True, slots=True)
class GroupingWarning:
    """A doubt, with a stable ``code`` and the detections (input indices) it concerns."""

    code: str
    message: str
    detections: tuple[int, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "detections": list(self.detections),
            "tiles": [names[i] for i in self.detections],
        }
        out.update(dict(self.extra))
        return out


@dataclass(frozen=True, slots=True)
class Token:
    """A place in the hand row: a detection, whether it lies sideways, what is stacked on it."""

    det: int
    tile: str
    sideways: bool
    stacked: int | None = None
    stacked_tile: str | None = None
    gap_before: float = 0.0

    @property
    def face_down(self) -> bool:
        return self.tile == settings.FACE_DOWN

    def written(self) -> list[str]:
        """This place in ``hand_tiles`` notation (``5'm`` sideways, ``x`` face down)."""
        out = [_mark(self.tile, self.sideways)]
        if self.stacked_tile is not None:
            out.append(_mark(self.stacked_tile, True))
        return out


def _mark(tile: str, sideways: bool) -> str:
    return f"{tile[0]}'{tile[1]}" if sideways and tile != settings.FACE_DOWN else tile


@dataclass(frozen=True, slots=True)
class MeldGroup:
    """A called or closed meld: kind, tiles (red fives as ``0``), from whom, detections."""

    kind: str
    tiles: tuple[str, ...]
    source: str | None
    dets: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tiles": _tiles_string(self.tiles)}
        if self.source is not None:
            out["from"] = self.source
        return out


@dataclass(frozen=True, slots=True)
class Grouping:
    """One reading of the hand row (and the indicators), with its penalty and doubts."""

    concealed: tuple[Token, ...]
    win: Token | None
    melds: tuple[MeldGroup, ...]
    order: tuple[Token, ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    penalty: float
    reading: int
    warnings: tuple[GroupingWarning, ...]
    names: tuple[str, ...] = field(repr=False, default=())
    #: Other readings of the indicators, ``(dora, ura)`` each, that the learned scorers give
    #: a fair chance: the same hand with them is offered as an alternative, never taken.
    other_indicators: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()

    @property
    def win_tile(self) -> str | None:
        return self.win.tile if self.win is not None else None

    def tile_count(self) -> int:
        kans = sum(len(m.tiles) == 4 for m in self.melds)
        return len(self.concealed) + (self.win is not None) + 3 * len(self.melds) + kans

    def closed_string(self) -> str:
        return _tiles_string(tuple(t.tile for t in self.concealed))

    def is_complete(self) -> bool:
        kans = sum(len(m.tiles) == 4 for m in self.melds)
        return (
            self.win is not None
            and self.tile_count() == 14 + kans
            and all(t.tile != settings.FACE_DOWN for t in self.concealed)
            and self.win.tile != settings.FACE_DOWN
            and all(settings.FACE_DOWN not in m.tiles for m in self.melds)
        )

    def hand_tiles(self) -> list[str]:
        return [w for tok in self.order for w in tok.written()]

    def hand(self) -> dict[str, Any] | None:
        """The score request's hand fields, or None when the tiles do not form a hand."""
        if not self.is_complete() or self.win is None:
            return None
        return {
            "closed": self.closed_string(),
            "win_tile": self.win.tile,
            "melds": [m.to_dict() for m in self.melds],
            "dora_indicators": [self.names[i] for i in self.dora],
            "ura_indicators": [self.names[i] for i in self.ura],
        }

    def key(self) -> tuple[Any, ...]:
        """What a referee would read: equal keys are the same hand."""
        return (
            tuple(sorted(t.tile for t in self.concealed)),
            self.win_tile,
            tuple(sorted((m.kind, tuple(sorted(m.tiles)), m.source or "") for m in self.melds)),
            tuple(self.names[i] for i in self.dora),
            tuple(self.names[i] for i in self.ura),
        )


@dataclass(frozen=True, slots=True)
class GroupingResult:
    """The chosen grouping, its alternatives, and every warning (grouping and photo-wide)."""

    best: Grouping | None
    alternatives: tuple[Grouping, ...]
    warnings: tuple[GroupingWarning, ...]
    names: tuple[str, ...]
    rows: tuple[Row, ...] = ()

    def hand(self) -> dict[str, Any] | None:
        return self.best.hand() if self.best is not None else None

    def hand_tiles(self) -> list[str]:
        return self.best.hand_tiles() if self.best is not None else []

    def to_dict(self) -> dict[str, Any]:
        """The ``group`` response of CONTRACT.md (plus ``alternatives`` and ``layout``)."""
        best = self.best
        out: dict[str, Any] = {
            "hand_tiles": self.hand_tiles(),
            "hand": self.hand(),
            "warnings": [w.to_dict(self.names) for w in self.warnings],
            "alternatives": [
                {
                    "hand_tiles": g.hand_tiles(),
                    "hand": g.hand(),
                    "penalty": round(g.penalty, 3),
                    # what the page shows of it: another layout, or other indicators only
                    "changes": _changes(self.hand(), g.hand()),
                }
                for g in self.alternatives
            ],
        }
        if best is not None:
            out["layout"] = {
                "reading_direction": best.reading,
                "penalty": round(best.penalty, 3),
                "concealed": [t.det for t in best.concealed],
                "win": best.win.det if best.win is not None else None,
                "melds": [list(m.dets) for m in best.melds],
                "dora_indicators": list(best.dora),
                "ura_indicators": list(best.ura),
                # The hand's tiles read as lying sideways (an added kan's tile with the one
                # it lies on): recognize writes them into its detections' ``sideways``.
                "sideways": sorted(
                    d for t in best.order if t.sideways for d in (t.det, t.stacked) if d is not None
                ),
            }
        return out


def _changes(best: dict[str, Any] | None, other: dict[str, Any] | None) -> list[str]:
    """The hand fields in which ``other`` differs from ``best`` (all of them when either
    is no hand).

    >>> _changes({"closed": "1m", "dora_indicators": []}, {"closed": "1m", "dora_indicators": [2]})
    ['dora_indicators']
    """
    if best is None or other is None:
        return sorted({*(best or {}), *(other or {})}) or ["hand"]
    return [k for k in best if best[k] != other.get(k)]


def _tiles_string(tiles: Sequence[str]) -> str:
    """Sorted MPSZ of face-up tiles (``x`` for each face-down one, appended)."""
    up = [Tile.parse(t) for t in tiles if t != settings.FACE_DOWN]
    return format_tiles(up, sort=True) + settings.FACE_DOWN * sum(
        t == settings.FACE_DOWN for t in tiles
    )


def _kind(tile: str) -> int | None:
    return None if tile == settings.FACE_DOWN else Tile.parse(tile).kind
