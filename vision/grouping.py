"""Grouping: from tile boxes to the hand a referee would read.

Input: detections (tile name, axis-aligned box ``xyxy`` in pixels, confidence, an optional
``sideways`` flag). Output: the player's hand (concealed tiles, called melds with who they
came from, the winning tile, dora and ura indicators), the alternatives the layout also
allows, and warnings that name every doubt.

Steps, each a small function:

1. duplicates (boxes overlapping by IoU >= 0.6) are merged, with a warning;
2. rows are found on box centres (:mod:`vision.rows`), robust to rotation and perspective;
3. the hand row is the largest (nearest) row holding a complete hand (13-18 tiles, mostly
   face up); a colinear neighbour row is merged into it (a wide gap before the melds);
4. sideways tiles: each tile's aspect ratio *along the row*, relative to the row's upright
   tiles (foreshortening cancels out); a tile stacked on a sideways tile is an added kan;
5. gaps between neighbours, in units of the upright tile width;
6. both reading directions are parsed (a photo from across the table is upside down): melds
   are taken from the right end, the winning tile is the end tile laid sideways or set apart
   by a gap; every parse gets a penalty for what it leaves unexplained, the lowest wins
   (a row one tile too long is also read without its least confident tile, when that one
   is below ``LOW_CONFIDENCE``; kept only if it reads better, warned ``dropped_tile``);
7. indicator rows: parallel bands just above the hand (away from the player), first dora,
   then ura, at most 5 face-up tiles each.

Conventions (also in README, "Grouping conventions"): the player reads the hand left to
right with the melds on the right; the called tile of a chi, pon or added kan is sideways
at position 1 (from the left player, kamicha), 2 (across, toimen) or 3 (right, shimocha);
for a daiminkan at position 1 (left), 2 or 3 (across) or 4 (right). A closed kan shows two
face-down tiles (both ends, or both middles). Tiles are named in MPSZ (``0m`` a red five),
``x`` (or the detector's ``back``) face down; in ``hand_tiles`` a sideways tile is written
``5'm``.

>>> dets = [Detection(t, (40.0 * i, 0.0, 40.0 * i + 30, 40.0)) for i, t in enumerate(
...     ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"])]
>>> dets.append(Detection("2z", (40.0 * 13 + 20, 0.0, 40.0 * 13 + 50, 40.0)))
>>> result = group_detections(dets, width=600, height=100)
>>> result.best.closed_string(), result.best.win_tile, [w.code for w in result.warnings]
('123m456p789s1112z', '2z', [])
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from scoring.errors import AgariError, NotationError, RequestError
from scoring.notation import format_tiles
from scoring.tiles import Tile
from vision.rows import (
    Row,
    centres_of,
    find_rows,
    fit_line,
    is_well_conditioned,
    sizes_of,
    unrotate,
)

FACE_DOWN = "x"
#: Names accepted for a face-down tile (the detector's class is ``back``).
FACE_DOWN_NAMES = frozenset({"x", "back"})

#: Whether the table plays with a red five in each suit (the usual rules): a closed kan of
#: fives then holds the red one, face down when none shows.
RED_FIVES = True
#: Confidence under which a tile is reported as uncertain, with its candidates scored.
LOW_CONFIDENCE = 0.6
#: Boxes overlapping more than this are one tile seen twice.
DUPLICATE_IOU = 0.6
#: A tile whose along/across ratio exceeds the upright tiles' by this factor is sideways
#: (upright 0.75 vs sideways 1.33 gives 1.78; the threshold is its geometric middle).
SIDEWAYS_FACTOR = 1.33
#: When a row's ratios split clearly in two, the threshold is between the clusters,
#: within these bounds (thick tile bodies in oblique photos narrow the contrast).
SIDEWAYS_LIMITS = (1.2, 1.5)
#: A sideways tile's length along the row, in upright widths (tiles are about 26 x 35 mm).
SIDEWAYS_LENGTH = 1.34
#: The face's across extent changes by more than this factor, at a gap, where standing
#: tiles meet flat ones.
STANDING_STEP = 1.25
#: A sideways tile's depth in the photo, in upright depths (0.75 for the face; the tile's
#: side seen in oblique photos adds to both).
SIDEWAYS_DEPTH = 0.8
#: Judgements closer than this (log units between the two fits) are reported as doubtful.
SIDEWAYS_DOUBT_MARGIN = 0.12
#: A sideways tile's centre lies at least 1.17 pitches from its neighbours' (touching); a
#: tile closer than this to both neighbours is upright whatever its box's shape.
SIDEWAYS_MIN_STEP = 1.07
#: Rows near 45 degrees (:func:`_spacing_judgement`): the spread of a touching step around
#: its prediction (relative), the most a gap costs, the cost of a sideways tile, the weight
#: of the box shapes' margins, and the scale from costs to the margin in log units.
SP_NOISE = 0.09
SP_GAP = 2.0
SP_SIDEWAYS = 1.0
SP_SHAPE = 1.0
SP_MARGIN = 0.1
#: A sideways tile's centre nearer the player than its neighbours' (pitches), the spread of
#: that offset for upright and for sideways tiles, and the most it counts either way.
EDGE_SIDEWAYS = 0.14
EDGE_SPREAD = (0.025, 0.035)
EDGE_CAP = 7.0
#: A gap wider than this share of an upright tile's width separates tiles (players leave
#: a quarter of a tile or more before the winning tile; touching tiles show ~0.03).
GAP = 0.15
#: A gap between two melds wider than this share of a tile may hold a missing tile.
MELD_HOLE = 0.9
#: Gaps in this band are judged, but reported as doubtful.
GAP_DOUBT = (0.09, 0.22)
#: The number of tiles a hand row may hold (13-14 tiles plus up to four kans).
HAND_SIZE = (13, 18)
#: Indicator bands: at most this many face-up tiles; the first this close to the hand's
#: line, the second this close to the first (in upright tile heights).
MAX_INDICATORS = 5
INDICATOR_REACH = 4.0
#: ... or, for face-up tiles on a dead wall (nothing else mixes face-up and face-down
#: tiles), this close.
DEAD_WALL_REACH = 6.0
#: With no indicators within reach, a short run of face-up tiles this close is named as
#: possible indicators.
FAR_INDICATOR_REACH = 5.5
URA_REACH = 2.0
#: Distances above the hand are measured in the hand tiles' depth, or in this share of the
#: median depth of the face-up tiles beyond it when larger (at least this many of them).
FLAT_DEPTH_SHARE = 0.8
FLAT_DEPTH_TILES = 3
#: A row of at least this many face-down tiles, over a run's stretch and more than this
#: many depths nearer the hand, is a wall between the hand and that run.
WALL_TILES = 3
WALL_RISE = 0.3
#: A run above the hand with more face-up tiles than two river rows is rows run together.
MERGED_ROWS = 12
#: Face-up tiles this near the chosen indicators (tile heights across, tile widths along
#: between the runs' end centres) make the indicator reading doubtful: a discard taken for an
#: indicator, or an indicator left out, are then told apart by nothing in the boxes.
STRAY_NEAR = 1.7
#: Ura above the dora start where the dora start, within this many hand tile widths: the
#: rows' along coordinates shear apart with height in oblique views (lines up the table
#: converge on a vanishing point), by up to ~0.9 tile seen from the side.
URA_ALIGN = 1.1
URA_ALIGN_WALL = 1.6
#: Ura closer above the dora than 0.3 depths (low views) must start where they start.
URA_LOW_RISE = 0.12
#: Four indicators in one run whose middle step is this much wider than the others are two
#: dora and two ura (touching steps vary by ~10% between neighbours; the ura are laid ~0.4
#: tile or more apart).
URA_SPLIT_STEP = 1.2
#: Ura indicators are turned over only for a riichi winner, whose hand is closed (closed
#: kans aside): beside a hand with called melds, no run is read as ura.
URA_NEEDS_CLOSED_HAND = True
#: Ura beside the dora: centre distance (tile widths) from the last dora to the first ura
#: below which the two runs could be split differently.
URA_BESIDE_CLEAR = 1.6
#: Runs over the hand's stretch (and 3 tiles beyond its ends) are followed this many tiles
#: further along (a run of dora and ura side by side holds up to 10 tiles).
RUN_BEYOND = 10.0
#: Tiles of one run lie at least this far apart along it (centre step in their own size).
RUN_MIN_STEP = 0.5
#: Runs closer above or below each other than this (depths) over the same stretch are
#: one block of tiles (a river seen from its side), not an ura row.
COLUMN_RISE = 0.4
#: A river's rows start within this many tiles of each other along the hand, and lie at one
#: spacing: rows of discards touch, so the step to a short last row is the step between the
#: rows above it, up to perspective (adjacent rows' scales differ by far less than 1.4) and
#: the heights' noise (depths); a short row further below is not one of its rows.
RIVER_ALIGN = 0.5
RIVER_PITCH_SPREAD = 1.4
RIVER_PITCH_NOISE = 0.05
#: A run level with a river's short last row and this close along (tile widths between
#: their ends' centres) is more of that row.
RIVER_ROW_GAP = 1.6

#: Penalty of a standing/flat split other than the one the boxes suggest, and how many
#: such splits (gaps) are tried.
P_SPLIT = 0.3
MAX_SPLITS_TRIED = 5
#: ... and more where the tiles' depth does not change there.
P_SPLIT_UNSEEN = 1.0
#: Neighbours in the row closer along than this (pitches) and further apart across than
#: this (tile sizes) are a tile and the one stacked on it.
STACK_STEP = 0.9
STACK_ACROSS = 0.45
#: A row short of tiles looks this many pitches beyond its ends for more on its line.
FAR_REACH = 5.0
#: Rows read as the possible hand (the most hand-like by size and tile count).
HAND_ROW_TRIES = 4
#: Penalty per unit of log size for a row further away (smaller) than the largest one.
P_FAR = 2.0
# Penalties of a parse: what a layout leaves unexplained (documented in the README).
P_COUNT = 4.0
P_SIDEWAYS_CONCEALED = 3.0
P_FACE_DOWN_CONCEALED = 3.0
P_GAP_IN_MELD = 1.5
P_GAP_IN_CONCEALED = 1.0
P_NO_GAP_BEFORE_MELD = 0.4
P_CHI_NOT_LEFT = 2.5
P_MELD_MISMATCH = 5.0
P_NO_WIN = 2.5
P_WIN_LEFT = 0.8
P_WIN_AFTER_MELDS = 0.3
P_STACK_OUTSIDE_MELD = 2.0
#: A tile of a meld's kind lying just beyond its sideways tile, not read as stacked on it.
P_LOOSE_STACK = 0.4
#: A tile on a sideways tile's far side is an added kan's only when of its kind (also read
#: without it when not).
KAKAN_SAME_KIND = True
P_WRONG_SIDE = 1.2
#: Per indicator band seen only below the hand (the reading is upside down), in P_WRONG_SIDE.
P_BAND_SIDE = 1.0
P_PRIOR = 0.05
#: Doubtful judgements re-read the other way (each costs one more reading of the row), and
#: the penalty a reading against the measured evidence pays.
MAX_DOUBTS_TRIED = 6
#: A doubtful judgement is reported only when the hand it gives taken the other way reads
#: within this penalty of the best (about one unexplained sideways tile).
DOUBT_REACH = 3.0
P_DOUBT_FLIP = 0.5
#: At most this many doubtful sideways judgements are taken the other way together, chosen
#: among this many nearest the threshold (side views of messily laid rows hold 10 or more
#: doubts, and the two that complete the hand need not be among the nearest).
MAX_FLIPS = 4
FLIP_POOL = 12
#: Of each number of turned tiles, the best this many readings are taken one turn further.
FLIP_BEAM = 3
#: Doubts are re-read together only when the reading as judged leaves one of these: tiles
#: out of place, or a chi called from the wrong player (its sideways tile misjudged).
FLIP_WHEN = frozenset(
    {"gap_in_concealed", "no_winning_tile", "unexpected_sideways", "chi_not_from_left"}
)
#: Other parses within this penalty of the best are returned as alternatives.
ALTERNATIVE_MARGIN = 1.0
#: ... and within this one they make the grouping ambiguous (a warning).
AMBIGUOUS_MARGIN = 0.3

#: The win situation used for what-if scoring when the request gives none.
DEFAULT_CONTEXT: dict[str, Any] = {
    "ruleset": "tenhou",
    "win": "tsumo",
    "round_wind": "E",
    "seat_wind": "S",
}

DIRECTIONS = ("left", "across", "right")


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
        return self.tile in FACE_DOWN_NAMES


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
        return self.tile == FACE_DOWN

    def written(self) -> list[str]:
        """This place in ``hand_tiles`` notation (``5'm`` sideways, ``x`` face down)."""
        out = [_mark(self.tile, self.sideways)]
        if self.stacked_tile is not None:
            out.append(_mark(self.stacked_tile, True))
        return out


def _mark(tile: str, sideways: bool) -> str:
    return f"{tile[0]}'{tile[1]}" if sideways and tile != FACE_DOWN else tile


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
            and all(t.tile != FACE_DOWN for t in self.concealed)
            and self.win.tile != FACE_DOWN
            and all(FACE_DOWN not in m.tiles for m in self.melds)
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
                {"hand_tiles": g.hand_tiles(), "hand": g.hand(), "penalty": round(g.penalty, 3)}
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
            }
        return out


def _tiles_string(tiles: Sequence[str]) -> str:
    """Sorted MPSZ of face-up tiles (``x`` for each face-down one, appended)."""
    up = [Tile.parse(t) for t in tiles if t != FACE_DOWN]
    return format_tiles(up, sort=True) + FACE_DOWN * sum(t == FACE_DOWN for t in tiles)


def _kind(tile: str) -> int | None:
    return None if tile == FACE_DOWN else Tile.parse(tile).kind


# --- 1. duplicates ------------------------------------------------------------------------


def _iou_matrix(xyxy: np.ndarray) -> np.ndarray:
    x1 = np.maximum(xyxy[:, None, 0], xyxy[None, :, 0])
    y1 = np.maximum(xyxy[:, None, 1], xyxy[None, :, 1])
    x2 = np.minimum(xyxy[:, None, 2], xyxy[None, :, 2])
    y2 = np.minimum(xyxy[:, None, 3], xyxy[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1])
    return inter / np.maximum(area[:, None] + area[None, :] - inter, 1e-9)


def _merge_duplicates(
    dets: Sequence[Detection],
) -> tuple[list[int], dict[int, list[tuple[str, float]]], list[GroupingWarning]]:
    """Kept detection indices, extra candidates per kept index, and warnings."""
    if not dets:
        return [], {}, []
    xyxy = np.array([d.box for d in dets], dtype=float)
    iou = _iou_matrix(xyxy)
    order = sorted(range(len(dets)), key=lambda i: -dets[i].confidence)
    kept: list[int] = []
    extra: dict[int, list[tuple[str, float]]] = {}
    warnings: list[GroupingWarning] = []
    for i in order:
        twin = next((k for k in kept if iou[i, k] >= DUPLICATE_IOU), None)
        if twin is None:
            kept.append(i)
            continue
        if dets[i].face_down != dets[twin].face_down:
            kept.append(i)  # a face-up tile on a face-down one: a dead wall's indicator
            continue
        if dets[i].tile == dets[twin].tile:
            warnings.append(
                GroupingWarning(
                    "duplicate_detection",
                    f"one {dets[twin].tile} was detected twice; the second box is ignored",
                    (twin, i),
                )
            )
        else:
            extra.setdefault(twin, []).append((dets[i].tile, dets[i].confidence))
            warnings.append(
                GroupingWarning(
                    "conflicting_detections",
                    f"one tile was read both as {dets[twin].tile} and as {dets[i].tile}",
                    (twin, i),
                    (("candidates", [dets[twin].tile, dets[i].tile]),),
                )
            )
    return sorted(kept), extra, warnings


# --- 3./4./5. the hand row's geometry -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class RowGeometry:
    """Per-member measurements of the hand row, in its own frame (members in row order)."""

    members: tuple[int, ...]
    positions: np.ndarray
    offsets: np.ndarray
    along: np.ndarray
    across: np.ndarray
    sideways: np.ndarray
    doubtful_sideways: tuple[int, ...]
    unit: float  # an upright tile's width along the row
    units: np.ndarray  # the same, locally (perspective makes far tiles smaller)
    height: float  # an upright tile's extent across the row
    direction: tuple[float, float]
    origin: tuple[float, float]
    conditioned: bool


def _row_geometry(
    row_members: Sequence[int],
    dets: Sequence[Detection],
    split: int | None = None,
    player_side: int = 0,
) -> RowGeometry:
    """The row's measurements. ``split``: where standing tiles end (None: found from the
    boxes, 0: nowhere), each side's sideways tiles being judged on its own;
    ``player_side``: on which side of the row (+1 along its normal, -1 against it, 0 not
    known) the player sits, for rows near 45 degrees (see :func:`_spacing_judgement`)."""
    xyxy = np.array([dets[i].box for i in row_members], dtype=float)
    centres = centres_of(xyxy)
    origin, d = fit_line(centres) if len(row_members) >= 2 else (centres[0], np.array([1.0, 0]))
    normal = np.array([-d[1], d[0]])
    pos = (centres - origin) @ d
    order = np.argsort(pos, kind="stable")
    members = tuple(row_members[k] for k in order)
    xyxy, centres, pos = xyxy[order], centres[order], pos[order]
    off = (centres - origin) @ normal
    direction = (float(d[0]), float(d[1]))
    along, across = unrotate(xyxy, direction)
    conditioned = is_well_conditioned(direction)
    judged = np.zeros(len(pos), dtype=bool)
    margin = np.zeros(len(pos))
    if split is None:
        parts = _sections(across, pos)
    elif split == 0:
        parts = [np.arange(len(pos))]
    else:
        parts = [np.arange(split), np.arange(split, len(pos))]
    for part in parts:
        if len(part) >= 3:
            rel_part = _relative_log_ratio(np.log(along / across)[part], pos[part])
            ratio_margin = rel_part - math.log(_sideways_threshold(rel_part))
            judged[part], margin[part] = _judge_sideways(
                xyxy[part], pos[part], direction, ratio_margin
            )
        else:
            margin[part] = -1.0  # two tiles apart from the rest: a flat winning tile or so
    judged, margin = _spacing_veto(pos, judged, margin)
    size_units: np.ndarray | None = None
    if not is_well_conditioned(direction):
        judged, margin, size_units = _spacing_judgement(
            xyxy, pos, _near_edge_offsets(pos, off, parts), margin, player_side
        )
    given = [dets[i].sideways for i in members]
    sideways = np.array(
        [g if g is not None else bool(j) for g, j in zip(given, judged, strict=True)],
        dtype=bool,
    )
    # Nearest the threshold first: those are the first re-read the other way.
    doubtful = tuple(
        members[k]
        for k in sorted(range(len(members)), key=lambda k: abs(margin[k]))
        if given[k] is None and abs(margin[k]) < SIDEWAYS_DOUBT_MARGIN
    )
    up = ~sideways
    height = float(np.median(across[up])) if up.any() else float(np.median(along))
    # The un-rotated across extent collapses for thin boxes at grazing angles; the box's
    # projection on the normal cannot (it overestimates when the row is turned).
    w_box, h_box = xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]
    projected = float(np.median(abs(normal[0]) * w_box + abs(normal[1]) * h_box))
    height = max(height, 0.6 * projected)
    unit = _pitch(pos, sideways)
    if unit is None:
        unit = float(np.median(along[up])) if up.any() else float(np.median(across))
    if not conditioned:
        # The projections mix both sides; an upright tile is ~0.75 as wide as it is long.
        size = float(np.median(sizes_of(xyxy)))
        unit = unit if _pitch(pos, sideways) is not None else 0.87 * size
        height = 1.15 * size
    return RowGeometry(
        members=members,
        positions=pos,
        offsets=off,
        along=along,
        across=across,
        sideways=sideways,
        doubtful_sideways=doubtful,
        unit=unit,
        units=size_units
        if size_units is not None
        else _local_pitch(pos, sideways)
        if _pitch(pos, sideways) is not None
        else np.full(len(pos), unit),
        height=height,
        direction=direction,
        origin=(float(origin[0]), float(origin[1])),
        conditioned=conditioned,
    )


def _spacing_veto(
    pos: np.ndarray, judged: np.ndarray, margin: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Tiles judged sideways whose centre lies as close to both neighbours' as upright tiles
    do are upright after all (the judgement kept as a doubt).

    A sideways tile is 1.34 pitches long, so the centre spacing to either neighbour is at
    least 1.17 pitches (more with a gap); box shapes can fake a sideways tile (standing tiles
    off the optical axis show their sides and widen towards the photo's edge), spacing
    cannot. The pitch is that of the tiles judged upright, with its perspective trend."""
    n = len(pos)
    if n < 6 or not judged.any():
        return judged, margin
    pitch = _local_pitch(pos, judged)
    steps = np.diff(pos)
    # Both neighbours close: spacing varies by a few percent between touching tiles, and a
    # gap on one side says nothing. The row's end tiles have one neighbour and are left be.
    farthest = np.maximum(np.r_[np.inf, steps], np.r_[steps, np.inf])
    tight = judged & (farthest < SIDEWAYS_MIN_STEP * pitch)
    if not tight.any():
        return judged, margin
    return judged & ~tight, np.where(tight, 0.0, margin)


def _near_edge_offsets(pos: np.ndarray, off: np.ndarray, parts: Sequence[np.ndarray]) -> np.ndarray:
    """Each tile's offset across the row from its neighbours' (the median of the four
    nearest in its own section: standing and flat tiles lie on different lines), in pitches
    of the row. Players line up the near edges of a row's tiles, so a sideways tile's
    centre sits (1.34 - 1) / 2 = 0.17 pitch nearer the player than its upright neighbours'
    (measured on generated scenes: median 0.14-0.16, upright tiles within 0.05 in 95%)."""
    pitch = float(np.median(np.diff(pos))) if len(pos) > 1 else 1.0
    local = np.full(len(pos), pitch)
    if len(pos) >= 4:
        local = _local_pitch(pos, np.zeros(len(pos), dtype=bool))
    out = np.zeros(len(pos))
    for part in parts:
        for k in part:
            others = part[part != k]
            if len(others) < 2:
                continue
            near = others[np.argsort(np.abs(pos[others] - pos[k]), kind="stable")[:4]]
            out[k] = (off[k] - float(np.median(off[near]))) / max(float(local[k]), 1e-6)
    return out


def _spacing_judgement(
    xyxy: np.ndarray,
    pos: np.ndarray,
    edge: np.ndarray,
    shape_margin: np.ndarray,
    player_side: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Sideways tiles from the spacing of centres, for rows near 45 degrees, where a box's
    shape cannot tell (an upright and a sideways tile turned by 45 degrees have the same
    square box). Returns the judgement and its margin (positive: sideways).

    A sideways tile is :data:`SIDEWAYS_LENGTH` pitches long, so the centres of touching
    neighbours lie ~1.17 pitches from its own, against ~1.0 between upright tiles. Each
    step is taken relative to the pair's size (the square root of the box areas: it hardly
    changes when a tile is turned, and it follows perspective), then to the row's trend of
    such steps (the view angle changes along a row seen from the side). A dynamic programme
    then labels every tile at once: each step costs its deviation from what the two labels
    predict (a gap, wider than predicted, costs at most :data:`SP_GAP`; overlap is not
    allowed for), each sideways tile :data:`SP_SIDEWAYS`, and the box shapes' own margins
    count a little (:data:`SP_SHAPE`)."""
    n = len(pos)
    if n < 4:
        return shape_margin > 0, shape_margin, None
    size = sizes_of(xyxy)
    steps = np.diff(pos) / np.sqrt(size[:-1] * size[1:])
    mids = (pos[:-1] + pos[1:]) / 2
    lengths = np.array([1.0, SIDEWAYS_LENGTH])
    side = np.zeros(n, dtype=bool)
    cost_side = np.zeros(n)
    for _ in range(3):
        # Reference: steps between tiles taken as upright, gaps left out, a line in position.
        usable = ~side[:-1] & ~side[1:]
        if usable.sum() < 3:
            usable = np.ones(n - 1, dtype=bool)
        ref_idx = np.nonzero(usable)[0]
        keep = ref_idx[steps[ref_idx] <= np.percentile(steps[ref_idx], 70)]
        coef = np.polyfit(mids[keep], np.log(steps[keep]), 1 if len(keep) >= 4 else 0)
        for _ in range(2):
            fitted = np.polyval(coef, mids[ref_idx])
            keep = ref_idx[np.log(steps[ref_idx]) - fitted < math.log(1.08)]
            if len(keep) < 3:
                break
            coef = np.polyfit(mids[keep], np.log(steps[keep]), 1 if len(keep) >= 4 else 0)
        rel = steps / np.exp(np.polyval(coef, mids))
        # pair[i, a, b]: the cost of step i between labels a (left) and b (right).
        expected = (lengths[:, None] + lengths[None, :]) / 2
        dev = rel[:, None, None] - expected[None, :, :]
        pair = np.where(dev < 0, (dev / SP_NOISE) ** 2, np.minimum((dev / SP_NOISE) ** 2, SP_GAP))
        totals = []
        for sign in (player_side,) if player_side else (1, -1):
            # Where the player's side is not known, the side that explains the row better.
            unary = np.zeros((n, 2))
            unary[:, 1] = SP_SIDEWAYS - SP_SHAPE * np.clip(shape_margin, -1.0, 1.0)
            unary[:, 1] += np.clip(
                ((sign * edge - EDGE_SIDEWAYS) / EDGE_SPREAD[1]) ** 2 / 2
                - (edge / EDGE_SPREAD[0]) ** 2 / 2,
                -EDGE_CAP,
                EDGE_CAP,
            )
            totals.append(_min_marginals(unary, pair))
        best_total = min(totals, key=lambda t: float(t.min()))
        cost_side = best_total[:, 0] - best_total[:, 1]
        again = cost_side > 0
        if (again == side).all():
            break
        side = again
    return side, cost_side * SP_MARGIN, np.exp(np.polyval(coef, pos)) * size


def _min_marginals(unary: np.ndarray, pair: np.ndarray) -> np.ndarray:
    """Min-sum over a chain of two-label tiles: each tile's best total under either label.

    ``unary`` is ``(n, 2)``, ``pair`` ``(n - 1, 2, 2)`` (left label, right label).

    >>> u = np.array([[0.0, 1.0], [0.0, 1.0]])
    >>> p = np.array([[[0.0, 3.0], [3.0, 0.0]]])
    >>> _min_marginals(u, p).tolist()
    [[0.0, 2.0], [0.0, 2.0]]
    """
    n = len(unary)
    fwd = np.zeros((n, 2))
    fwd[0] = unary[0]
    for i in range(1, n):
        fwd[i] = unary[i] + (fwd[i - 1][:, None] + pair[i - 1]).min(axis=0)
    bwd = np.zeros((n, 2))
    for i in range(n - 2, -1, -1):
        bwd[i] = (pair[i] + (unary[i + 1] + bwd[i + 1])[None, :]).min(axis=1)
    return fwd + bwd


def _sections(across: np.ndarray, pos: np.ndarray) -> list[np.ndarray]:
    """The row cut where tiles change from standing to lying (automatic tables: the
    concealed tiles stand, the winning tile, set apart by a gap, and the melds lie flat):
    at a gap, the across extent of the face steps there by more than
    :data:`STANDING_STEP`."""
    n = len(across)
    whole = [np.arange(n)]
    if n < 6:
        return whole
    la = np.log(across)
    pitch = float(np.median(np.diff(pos)))
    best_k, best = 0, 0.0
    for k in range(2, n - 1):
        if (pos[k] - pos[k - 1]) / pitch < 1.0 + GAP:
            continue
        # The tiles on either side of the gap: a sideways tile further on, or perspective
        # along a long row, must not pull the comparison.
        left, right = la[max(0, k - 3) : k], la[k : k + 3]
        diff = abs(float(np.median(left) - np.median(right)))
        if diff > best:
            best_k, best = k, diff
    if best < math.log(STANDING_STEP):
        return whole
    return [np.arange(best_k), np.arange(best_k, n)]


def _judge_sideways(
    xyxy: np.ndarray, pos: np.ndarray, direction: tuple[float, float], ratio_margin: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Which tiles lie sideways, and by what margin (log units; positive: sideways).

    In a photo a flat tile is a parallelogram: its near edge along the row (length
    ``alpha``) and its depth edge towards the vanishing point (vector ``b``). Its box is
    ``W = alpha |dx| + |bx|``, ``H = alpha |dy| + |by|``. An upright tile has ``alpha`` =
    the row's pitch (centre spacing of touching tiles, free of perspective widening) and the
    depth ``b`` of its upright neighbours; a sideways one ``alpha`` = 1.34 pitches and about
    0.8 of that depth (0.75 for the face, plus the tile's side in oblique views). Each tile
    is given the hypothesis its box fits better; ``b`` is re-estimated from the neighbours
    judged upright until the judgement settles (starting from the aspect-ratio judgement,
    ``ratio_margin``: each tile's relative log aspect ratio above the sideways threshold,
    which stays the margin where too few upright tiles are left to fit the model on, as in
    a lone meld split off from standing tiles).
    """
    w = xyxy[:, 2] - xyxy[:, 0]
    h = xyxy[:, 3] - xyxy[:, 1]
    dx, dy = abs(direction[0]), abs(direction[1])
    side = ratio_margin > 0
    margin = ratio_margin.copy()
    for _ in range(5):
        up = ~side
        if up.sum() < 3:
            break
        unit = _local_pitch(pos, side)
        bx = _smooth(pos, w - unit * dx, up)
        by = _smooth(pos, h - unit * dy, up)
        floor = 0.02 * unit
        bx, by = np.maximum(bx, floor), np.maximum(by, floor)
        err_up = np.abs(np.log(w / (unit * dx + bx))) + np.abs(np.log(h / (unit * dy + by)))
        sl = SIDEWAYS_LENGTH * unit
        err_side = np.abs(np.log(w / (sl * dx + SIDEWAYS_DEPTH * bx))) + np.abs(
            np.log(h / (sl * dy + SIDEWAYS_DEPTH * by))
        )
        margin = err_up - err_side
        again = margin > 0
        if (again == side).all() or again.mean() > 0.45:
            break  # settled, or running away (a hand is mostly upright tiles)
        side = again
    return side, margin


def _smooth(pos: np.ndarray, values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A quadratic in the position fitted to ``values[mask]`` (robustly: twice, dropping the
    worst fifth), evaluated at every tile."""
    x = (pos - pos.mean()) / (float(pos.std()) + 1e-9)
    idx = np.nonzero(mask)[0]
    for _ in range(2):
        degree = 2 if len(idx) >= 8 else 1 if len(idx) >= 4 else 0
        coef = np.polyfit(x[idx], values[idx], degree)
        res = np.abs(values[idx] - np.polyval(coef, x[idx]))
        if len(idx) >= 8:
            idx = idx[res <= np.percentile(res, 80)]
    return np.polyval(coef, x)


def _local_pitch(pos: np.ndarray, sideways: np.ndarray) -> np.ndarray:
    """Per tile, the centre spacing of touching upright neighbours there.

    Perspective shrinks the pitch steadily towards the far end of a row: a straight line in
    the position is fitted to the spacings of upright pairs, dropping the ones well above
    the line (gaps), a few times over."""
    mids, steps = [], []
    for k in range(len(pos) - 1):
        if not sideways[k] and not sideways[k + 1]:
            mids.append((pos[k] + pos[k + 1]) / 2)
            steps.append(pos[k + 1] - pos[k])
    if not steps:
        return np.full(len(pos), float(np.median(np.diff(pos))) if len(pos) > 1 else 1.0)
    steps_a, mids_a = np.array(steps), np.array(mids)
    keep = steps_a < 1.2 * float(np.median(steps_a))  # gaps are not pitches
    if keep.sum() < 4:
        return np.full(len(pos), float(np.median(steps_a[keep] if keep.any() else steps_a)))
    coef = np.polyfit(mids_a[keep], steps_a[keep], 1)
    for _ in range(3):
        fitted = np.polyval(coef, mids_a)
        keep = steps_a < 1.12 * fitted
        if keep.sum() < 4:
            break
        coef = np.polyfit(mids_a[keep], steps_a[keep], 1)
    out = np.polyval(coef, pos)
    # Never extrapolate far: clamp to the range of spacings actually seen.
    return np.clip(out, steps_a[keep].min() * 0.9, steps_a[keep].max() * 1.1)


def _local_median(pos: np.ndarray, values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per tile, the median of ``values`` over the six nearest other tiles in ``mask``."""
    idx = np.nonzero(mask)[0]
    out = np.empty(len(pos))
    for k in range(len(pos)):
        others = idx[idx != k] if len(idx) > 1 else idx
        near = others[np.argsort(np.abs(pos[others] - pos[k]), kind="stable")[:6]]
        out[k] = float(np.median(values[near]))
    return out


def _relative_log_ratio(log_ratio: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Each tile's log aspect ratio relative to the row's upright tiles at its place.

    Perspective widens boxes towards the sides of a photo (a tile's far edge shifts towards
    the vanishing point, more the further the tile is from the optical axis), so a single
    reference would misjudge the ends. The upright tiles' ratio is modelled as a quadratic
    in the position along the row (a smooth stand-in for that V-shaped widening), fitted on
    the tiles judged upright, and refitted as the judgement settles.
    """
    n = len(log_ratio)
    if n < 6:
        return log_ratio - float(np.percentile(log_ratio, 35))
    x = (pos - pos.mean()) / (float(pos.std()) + 1e-9)
    upright = log_ratio <= np.percentile(log_ratio, 70)
    residual = log_ratio - float(np.median(log_ratio[upright]))
    for _ in range(4):
        count = int(upright.sum())
        degree = 2 if count >= 8 else 1 if count >= 4 else 0
        coef = np.polyfit(x[upright], log_ratio[upright], degree)
        residual = log_ratio - np.polyval(coef, x)
        again = residual < math.log(SIDEWAYS_LIMITS[0])
        if again.sum() < 3 or (again == upright).all():
            break
        upright = again
    return residual


def _sideways_threshold(rel_log: np.ndarray) -> float:
    """The ratio factor above which a tile is sideways: between the two clusters of
    relative ratios when the row shows two, else :data:`SIDEWAYS_FACTOR`."""
    values = np.sort(rel_log)
    if len(values) < 3:
        return SIDEWAYS_FACTOR
    best_split, best_cost = 1, math.inf
    for k in range(1, len(values)):
        lo, hi = values[:k], values[k:]
        cost = float(((lo - lo.mean()) ** 2).sum() + ((hi - hi.mean()) ** 2).sum())
        if cost < best_cost:
            best_split, best_cost = k, cost
    lo, hi = values[:best_split], values[best_split:]
    if hi.mean() - lo.mean() > math.log(1.3):
        mid = math.exp((float(lo.max()) + float(hi.min())) / 2)
        return min(max(mid, SIDEWAYS_LIMITS[0]), SIDEWAYS_LIMITS[1])
    return SIDEWAYS_FACTOR


def _pitch(pos: np.ndarray, sideways: np.ndarray) -> float | None:
    """An upright tile's width along the row from the spacing of touching upright
    neighbours: centre spacing is immune to the box widening of perspective."""
    steps = [
        float(pos[k + 1] - pos[k])
        for k in range(len(pos) - 1)
        if not sideways[k] and not sideways[k + 1]
    ]
    if len(steps) < 3:
        return None
    return float(np.median(steps))


def _gaps(geo: RowGeometry, order: Sequence[int]) -> list[float]:
    """Gap before each place (reading order given as indices into the row), in unit widths.

    Extents are the row's typical ones, not each box's own, so that a jittered or
    perspective-widened box does not open or close a gap.
    """
    ext = np.where(geo.sideways, geo.units * SIDEWAYS_LENGTH, geo.units)
    out = [0.0]
    for a, b in itertools.pairwise(order):
        dist = abs(float(geo.positions[b] - geo.positions[a]))
        out.append((dist - (ext[a] + ext[b]) / 2) / ((geo.units[a] + geo.units[b]) / 2))
    return out


# --- 6. parsing one reading direction -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Parse:
    concealed: tuple[Token, ...]
    win: Token | None
    melds: tuple[MeldGroup, ...]
    penalty: float
    warnings: tuple[GroupingWarning, ...]


def _meld_of(tokens: Sequence[Token]) -> tuple[MeldGroup, float, list[GroupingWarning]] | None:
    """The meld these places form, its penalty and warnings; None if not meld-shaped.

    Shape first (sideways, stacked and face-down places), then the tiles are checked.
    """
    n = len(tokens)
    side = [k for k, t in enumerate(tokens) if t.sideways]
    down = [k for k, t in enumerate(tokens) if t.face_down]
    stacked = [k for k, t in enumerate(tokens) if t.stacked is not None]
    dets = tuple(d for t in tokens for d in ((t.det,) if t.stacked is None else (t.det, t.stacked)))
    tiles = tuple(
        x
        for t in tokens
        for x in ((t.tile,) if t.stacked_tile is None else (t.tile, t.stacked_tile))
    )
    warnings: list[GroupingWarning] = []
    penalty = 0.0
    if n == 4 and not side and len(down) >= 2 and down in ([0, 3], [1, 2], [0, 1, 2, 3]):
        visible = [t.tile for t in tokens if not t.face_down]
        if not visible:
            warnings.append(
                GroupingWarning("unknown_ankan", "a closed kan shows no face: which tile?", dets)
            )
            return MeldGroup("ankan", (FACE_DOWN,) * 4, None, dets), 0.0, warnings
        kinds = {_kind(t) for t in visible}
        if len(kinds) > 1:
            warnings.append(
                GroupingWarning(
                    "meld_mismatch", f"a closed kan shows different tiles {visible}", dets
                )
            )
            penalty += P_MELD_MISMATCH
        plain = next((t for t in visible if t[0] != "0"), "5" + visible[0][1])
        hidden = [plain] * (4 - len(visible))
        if plain[0] == "5":
            warnings.append(
                GroupingWarning(
                    "face_down_red_five",
                    "a closed kan of fives: a face-down tile is read as the suit's red five "
                    "when none shows (the four fives hold it under the usual rules)",
                    dets,
                )
            )
        return MeldGroup("ankan", (*visible, *hidden), None, dets), penalty, warnings
    if len(side) != 1 or down or len(stacked) > 1 or (stacked and stacked != side):
        return None
    pos = side[0]
    if n == 3:
        source = DIRECTIONS[pos]
        if stacked:
            kind = "kakan"
        else:
            kinds = sorted(_kind(t) or 0 for t in tiles)
            is_run = (
                kinds[0] < 27
                and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
                and (kinds[0] // 9 == kinds[2] // 9)
            )
            kind = "chi" if is_run else "pon"
            if is_run and pos != 0:
                warnings.append(
                    GroupingWarning(
                        "chi_not_from_left",
                        "a chi's called tile is sideways but not first (a chi is only called "
                        "from the left player)",
                        dets,
                    )
                )
                penalty += P_CHI_NOT_LEFT
    elif n == 4 and not stacked:
        kind = "daiminkan"
        source = "left" if pos == 0 else "right" if pos == 3 else "across"
    else:
        return None
    if kind != "chi" and len({_kind(t) for t in tiles}) != 1:
        warnings.append(
            GroupingWarning(
                "meld_mismatch", f"a {kind} should be one tile four or three times: {tiles}", dets
            )
        )
        penalty += P_MELD_MISMATCH
    return MeldGroup(kind, tiles, source, dets), penalty, warnings


def _parse(tokens: Sequence[Token]) -> list[_Parse]:
    """Every plausible reading of the places left to right, melds on the right."""
    results: list[_Parse] = []
    n = len(tokens)
    ends: list[tuple[int, Token | None, float]] = [(n, None, 0.0)]
    if n >= 2 and not tokens[-1].face_down and tokens[-1].gap_before > GAP:
        ends.append((n - 1, tokens[-1], P_WIN_AFTER_MELDS))
    gap_of = {t.det: t.gap_before for t in tokens}
    for end, far_win, base in ends:
        for melds, start, pen, warns in _meld_suffixes(tokens, end):
            if far_win is not None and not melds:
                continue  # a gapped last tile without melds is the ordinary case below
            prefix = tokens[:start]
            # A hole as wide as a tile between two melds: a tile may be missing there (a kan
            # then reads as a pon), or a meld be split otherwise. Said, not penalised.
            holes = [
                (*a.dets, *b.dets)
                for a, b in itertools.pairwise(melds)
                if gap_of[b.dets[0]] > MELD_HOLE
            ]
            extra = [
                GroupingWarning(
                    "gap_between_melds",
                    "a gap as wide as a tile between two melds: a tile may be missing there",
                    tuple(i for h in holes for i in h),
                )
            ] * bool(holes)
            if far_win is not None:
                extra.append(
                    GroupingWarning(
                        "win_after_melds",
                        "the tile set apart after the melds is read as the winning tile",
                        (far_win.det,),
                    )
                )
            for win, wpen, wwarn in _win_options(prefix, far_win):
                results.append(
                    _finish(prefix, win, melds, base + pen + wpen, [*warns, *wwarn, *extra])
                )
    return results


def _meld_suffixes(
    tokens: Sequence[Token], end: int
) -> list[tuple[tuple[MeldGroup, ...], int, float, list[GroupingWarning]]]:
    """Melds read from the right end leftwards: (melds left to right, start, penalty, warns)."""
    out: list[tuple[tuple[MeldGroup, ...], int, float, list[GroupingWarning]]] = [
        ((), end, 0.0, [])
    ]
    for length in (3, 4):
        start = end - length
        if start < 0:
            continue
        found = _meld_of(tokens[start:end])
        if found is None:
            continue
        meld, pen, warns = found
        inner = [t for t in tokens[start + 1 : end] if t.gap_before > GAP]
        if inner:
            pen += P_GAP_IN_MELD * len(inner)
            warns = [
                *warns,
                GroupingWarning(
                    "gap_in_meld", "a gap splits the tiles read as one meld", meld.dets
                ),
            ]
        if start > 0 and tokens[start].gap_before <= GAP:
            pen += P_NO_GAP_BEFORE_MELD
        for melds, s2, p2, w2 in _meld_suffixes(tokens, start):
            if len(melds) >= 4:
                continue
            out.append(((*melds, meld), s2, pen + p2, [*w2, *warns]))
    return out


def _win_options(
    prefix: Sequence[Token], far_win: Token | None
) -> list[tuple[Token | None, float, list[GroupingWarning]]]:
    if far_win is not None:
        return [(far_win, 0.0, [])]
    if not prefix:
        return [(None, P_NO_WIN, [])]
    options: list[tuple[Token | None, float, list[GroupingWarning]]] = []
    last, first = prefix[-1], prefix[0]
    if not last.face_down and (last.sideways or (len(prefix) > 1 and last.gap_before > GAP)):
        options.append((last, 0.0, []))
    if len(prefix) > 1 and not first.face_down and (first.sideways or prefix[1].gap_before > GAP):
        options.append((first, P_WIN_LEFT, []))
    if not options:
        options.append(
            (
                last,
                P_NO_WIN,
                [
                    GroupingWarning(
                        "no_winning_tile",
                        "no tile is set apart or laid sideways as the winning tile; "
                        "the last concealed tile is assumed",
                        (last.det,),
                    )
                ],
            )
        )
    return options


def _hidden_red_fives(
    prefix: Sequence[Token], melds: tuple[MeldGroup, ...]
) -> tuple[MeldGroup, ...]:
    """A closed kan of fives showing no red five holds it face down, when no red five of
    that suit shows elsewhere: the four fives of a suit include its red one (one per suit,
    :data:`RED_FIVES`; rules without red fives read the kan's fives plain)."""
    shown = {t for tok in prefix for t in (tok.tile, tok.stacked_tile) if t} | {
        t for m in melds for t in m.tiles
    }
    out = []
    for m in melds:
        suit = m.tiles[0][1] if m.tiles[0] != FACE_DOWN else ""
        if (
            RED_FIVES
            and m.kind == "ankan"
            and suit in "mps"
            and all(t == "5" + suit for t in m.tiles)
            and "0" + suit not in shown
        ):
            m = replace(m, tiles=(*m.tiles[:-1], "0" + suit))
        out.append(m)
    return tuple(out)


def _finish(
    prefix: Sequence[Token],
    win: Token | None,
    melds: tuple[MeldGroup, ...],
    penalty: float,
    warnings: list[GroupingWarning],
) -> _Parse:
    concealed = tuple(t for t in prefix if t is not win)
    melds = _hidden_red_fives(prefix, melds)
    odd_side = [t.det for t in concealed if t.sideways]
    if odd_side:
        penalty += P_SIDEWAYS_CONCEALED * len(odd_side)
        warnings.append(
            GroupingWarning(
                "unexpected_sideways",
                "a sideways tile among the concealed tiles belongs to no meld",
                tuple(odd_side),
            )
        )
    down = [t.det for t in concealed if t.face_down]
    if win is not None and win.face_down:
        down.append(win.det)
    if down:
        penalty += P_FACE_DOWN_CONCEALED * len(down)
        warnings.append(
            GroupingWarning(
                "face_down_in_concealed",
                "a face-down tile among the concealed tiles (a closed kan shows two)",
                tuple(down),
            )
        )
    stacks = [t.det for t in (*concealed, *([win] if win else [])) if t.stacked is not None]
    if stacks:
        penalty += P_STACK_OUTSIDE_MELD * len(stacks)
        warnings.append(
            GroupingWarning(
                "unexpected_stack", "a tile stacked on a tile that is in no meld", tuple(stacks)
            )
        )
    # Gaps inside the concealed part: the only expected one sets the winning tile apart.
    inside = [
        t.det
        for k, t in enumerate(prefix)
        if k > 0 and t.gap_before > GAP and t is not win and prefix[k - 1] is not win
    ]
    if inside:
        penalty += P_GAP_IN_CONCEALED * len(inside)
        warnings.append(
            GroupingWarning(
                "gap_in_concealed",
                "a gap among the concealed tiles that sets no winning tile apart",
                tuple(inside),
            )
        )
    kans = sum(len(m.tiles) == 4 for m in melds)
    count = len(concealed) + (win is not None) + 3 * len(melds) + kans
    expected = 14 + kans
    if count != expected:
        penalty += P_COUNT * abs(count - expected)
        code = "too_many_tiles" if count > expected else "too_few_tiles"
        dets = tuple(t.det for t in concealed)
        warnings.append(
            GroupingWarning(
                code,
                f"the hand has {count} tiles where {expected} are expected "
                f"({len(melds)} melds, {kans} kans)",
                dets,
                (("count", count), ("expected", expected)),
            )
        )
    return _Parse(concealed, win, melds, penalty, tuple(warnings))


# --- 7. indicator bands -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Run:
    """Tiles side by side above the hand: detections (sorted along), height, along span."""

    dets: tuple[int, ...]
    face_up: tuple[int, ...]
    height: float
    start: float
    end: float
    #: Centre steps between consecutive face-up tiles, in their own tile widths (about).
    steps: tuple[float, ...] = ()
    #: The face-up tiles' places along the hand (hand tile widths).
    places: tuple[float, ...] = ()


def _runs_above(
    geo: RowGeometry, dets: Sequence[Detection], others: Sequence[int], up: np.ndarray
) -> list[_Run]:
    """Tiles over the hand's length and above it, linked into runs of touching neighbours
    on one line (face-down tiles included: a dead wall links its indicators), nearest first."""
    d = np.array([-up[1], up[0]])  # the player's reading direction for this ``up``
    centres = centres_of(np.array([dets[i].box for i in others], dtype=float))
    rel = centres - np.array(geo.origin)
    along = rel @ d / geo.unit
    span = geo.positions * float(np.sign(d @ np.array(geo.direction))) / geo.unit
    lo, hi = span.min() - 3, span.max() + 3
    # Distances across the table in flat tiles' depths: standing hand tiles show their
    # face foreshortened the other way, shallower than the flat tiles lying beyond them.
    boxes = np.array([dets[i].box for i in others], dtype=float)
    depth = abs(up[0]) * (boxes[:, 2] - boxes[:, 0]) + abs(up[1]) * (boxes[:, 3] - boxes[:, 1])
    beyond = [
        k
        for k in range(len(others))
        if not dets[others[k]].face_down and lo <= along[k] <= hi and rel[k] @ up > 0
    ]
    scale = geo.height
    if len(beyond) >= FLAT_DEPTH_TILES:
        scale = max(scale, FLAT_DEPTH_SHARE * float(np.median(depth[beyond])))
    height = (rel @ up) / scale
    clear = (rel @ up) / geo.height  # beyond the hand row itself: in its own tiles' depth
    # Runs reaching into the hand's stretch are followed beyond it (ura laid beside the dora
    # can end far right of the hand): tiles further along join only by linking to them.
    near = [
        k
        for k in range(len(others))
        if lo - RUN_BEYOND <= along[k] <= hi + RUN_BEYOND
        and clear[k] > 0.5
        and height[k] < INDICATOR_REACH + 2 * URA_REACH
    ]
    parent = {k: k for k in near}

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    # Spacing in tiles of the pair's own size (rows nearer the camera look bigger).
    sizes = sizes_of(np.array([dets[i].box for i in others], dtype=float))
    hand_size = float(np.median(sizes_of(np.array([dets[i].box for i in geo.members]))))
    for a, b in itertools.combinations(near, 2):
        scale = max(1.0, (sizes[a] + sizes[b]) / 2 / hand_size)
        # Side by side on one line: one tile right on top of another (an ura on its dora,
        # seen from low down) is no neighbour.
        step = abs(along[a] - along[b]) * 2 * hand_size / float(sizes[a] + sizes[b])
        if (
            abs(height[a] - height[b]) < 0.2
            and abs(along[a] - along[b]) < 1.25 * scale
            and step > RUN_MIN_STEP
        ):
            parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for k in near:
        groups.setdefault(root(k), []).append(k)
    runs = []
    for members in groups.values():
        if not any(lo <= along[k] <= hi for k in members):
            continue
        members.sort(key=lambda k: along[k])
        up_members = [k for k in members if not dets[others[k]].face_down] or members
        runs.append(
            _Run(
                dets=tuple(others[k] for k in members),
                face_up=tuple(others[k] for k in members if not dets[others[k]].face_down),
                height=float(np.median(height[members])),
                start=float(along[up_members[0]]),
                end=float(along[up_members[-1]]),
                steps=tuple(
                    float(along[b] - along[a]) * 2 * hand_size / float(sizes[a] + sizes[b])
                    for a, b in itertools.pairwise(up_members)
                ),
                places=tuple(float(along[k]) for k in up_members),
            )
        )
    runs.sort(key=lambda r: r.height)
    return runs


def _indicator_bands(
    geo: RowGeometry,
    dets: Sequence[Detection],
    others: Sequence[int],
    up: np.ndarray,
    *,
    ura_allowed: bool = True,
) -> tuple[list[list[int]], list[GroupingWarning]]:
    """Dora and ura indicators above the hand (``up`` a unit vector): ``[dora, ura]``.

    ``ura_allowed`` False: the hand has called melds, so it cannot have won with riichi and
    no ura indicators are turned over for it; no run is read as ura (a run beside or above
    the dora is then discards, or more dora).

    The dora are the nearest run of face-up tiles (at most :data:`MAX_INDICATORS`) within
    :data:`INDICATOR_REACH` tile heights; a run of six or more is discards and ends the
    search. The ura are a run beside the dora on their right, or the nearest run above
    them within :data:`URA_REACH` over the same stretch, holding as many tiles as the dora
    (one ura under each dora indicator). A short run under a longer one that starts where
    it starts (itself a river row), at the river's row spacing, is the river's last row:
    not indicators, and the search goes on beyond it (``possible_indicators`` names it).
    Face-up tiles beyond a wall (face-down tiles between them and the hand) are discards.
    """
    if not others:
        return [], []
    runs = _runs_above(geo, dets, others, up)

    def row_above(run: _Run) -> _Run | None:
        """The nearest face-up run above ``run``, over its stretch, starting where it starts."""
        above = [
            o
            for o in runs
            if o.face_up
            and 0.1 < o.height - run.height < 1.4
            and o.start < run.end + 0.5
            and o.end > run.start - 0.5
        ]
        if not above:
            return None
        nxt = min(above, key=lambda o: o.height)
        aligned = abs(nxt.start - run.start) < RIVER_ALIGN
        return nxt if aligned and len(nxt.dets) == len(nxt.face_up) else None

    def is_river(run: _Run) -> bool:
        if len(run.face_up) > MAX_INDICATORS:
            return True
        if len(run.dets) > len(run.face_up):
            return False  # face-down tiles around it: a dead wall, never a river
        return river_end(run)

    def river_end(run: _Run) -> bool:
        # A river's rows (of six) start at one place, the last (nearest the player) short:
        # a short run under a longer one that starts with it, itself a river row, at the
        # river's own row spacing (ura lie on the dora, as many, however far the river).
        nxt = row_above(run)
        if nxt is None or len(nxt.face_up) <= len(run.face_up):
            return False
        if len(nxt.face_up) <= MAX_INDICATORS and not river_end(nxt):
            return False
        top = row_above(nxt)
        if top is not None and len(top.face_up) >= len(nxt.face_up):
            rise = nxt.height - run.height
            return rise < RIVER_PITCH_SPREAD * (top.height - nxt.height) + RIVER_PITCH_NOISE
        return True

    warnings: list[GroupingWarning] = []
    candidates = [
        r
        for r in runs
        if r.face_up
        and (r.height <= INDICATOR_REACH or (_dead_wall(r) and r.height <= DEAD_WALL_REACH))
    ]
    # A player's wall stands between their hand and the river: face-up tiles beyond a row of
    # face-down tiles that lies between them and the hand are discards (indicators are
    # turned up on the wall itself, or laid out before it).
    walls = [w for w in runs if not w.face_up and len(w.dets) >= WALL_TILES]

    def behind_wall(run: _Run) -> bool:
        return not _dead_wall(run) and any(
            w.height < run.height - WALL_RISE
            and w.start < run.end + 0.5
            and w.end > run.start - 0.5
            for w in walls
        )

    if candidates and behind_wall(candidates[0]):
        warnings.append(
            GroupingWarning(
                "possible_indicators",
                "face-up tiles beyond a wall (face-down tiles between them and the hand) were "
                "read as discards, not as dora indicators",
                candidates[0].face_up,
            )
        )
    candidates = [r for r in candidates if not behind_wall(r)]
    if not candidates:
        # Face-up tiles on a row of face-down ones (a dead wall), or a short run of face-up
        # tiles just beyond the reach: indicators laid further off than usual look the same.
        far = [
            r
            for r in runs
            if _dead_wall(r)
            or (
                0 < len(r.face_up) <= MAX_INDICATORS
                and r.height <= FAR_INDICATOR_REACH
                and not is_river(r)
            )
        ]
        if far:
            return [], [
                GroupingWarning(
                    "possible_indicators",
                    "face-up tiles beyond the reach of indicators (or on a dead wall far beyond "
                    "the hand) were not read as dora indicators",
                    tuple(i for r in far for i in r.face_up),
                )
            ]
        return [], []

    def continues(run: _Run, end: _Run) -> bool:
        """``run`` carries on the river row ``end`` (level with it, next to it along)."""
        gap = max(run.start - end.end, end.start - run.end)
        return abs(run.height - end.height) < 0.3 and gap < RIVER_ROW_GAP

    while candidates and is_river(candidates[0]) and len(candidates[0].face_up) <= MAX_INDICATORS:
        # The short last row of a river: indicators may still lie beyond it (or beside).
        end = candidates[0]
        rest = [r for r in candidates[1:] if continues(r, end)]
        warnings.append(
            GroupingWarning(
                "possible_indicators",
                "a short row just above the hand was read as the end of a river, not as "
                "dora indicators",
                tuple(i for r in (end, *rest) for i in r.face_up),
            )
        )
        candidates = [
            r
            for r in candidates[1:]
            if not (is_river(r) and len(r.face_up) <= MAX_INDICATORS) and not continues(r, end)
        ]
    if not candidates:
        return [], warnings
    if is_river(candidates[0]):
        if len(candidates[0].face_up) > MERGED_ROWS or len(candidates[0].dets) > len(
            candidates[0].face_up
        ):
            # Longer than two river rows side by side, or face-down tiles (a dead wall) in
            # it: seen from low down, the rows above the hand (river, indicators, walls) run
            # together and indicators hide among them.
            warnings.append(
                GroupingWarning(
                    "possible_indicators",
                    "the tiles above the hand run together (a low view): dora indicators "
                    "among them cannot be told from discards",
                    candidates[0].face_up,
                )
            )
        return [], warnings
    # Of runs side by side at the nearest height, the dora are the left one.
    first = candidates[0]
    level = [
        r
        for r in candidates
        if r is first
        or (
            abs(r.height - first.height) < 0.3
            and not is_river(r)
            # beside it, not over the same stretch (a run just above is ura, not dora)
            and (r.start > first.end + 0.5 or r.end < first.start - 0.5)
        )
    ]
    dora = min(level, key=lambda r: r.start)
    if dora.end - dora.start > 1.6 * (len(dora.face_up) - 1) + 0.01:
        warnings.append(
            GroupingWarning(
                "gap_in_indicators",
                "a gap in the dora indicators: one may be missing",
                dora.face_up,
            )
        )
    ura: _Run | None = None
    split = _split_beside(dora) if ura_allowed else None
    if split is not None:
        # Dora and ura laid in one line, a wider step between the halves: read as both,
        # never silently (two dora, or one dora and three, would look much the same).
        warnings.append(
            GroupingWarning(
                "ura_beside_dora",
                "one run of indicators with a wider step in its middle: the left half is read "
                "as dora, the right half as ura",
                dora.face_up,
            )
        )
        dora, ura = split

    def stacked_on(run: _Run, dora: _Run) -> bool:
        """Face-up tiles other than the dora lie right on or under ``run`` (over the same
        stretch, rows closer than a tile's depth): a column of a river seen from its side."""
        return any(
            o is not run
            and o is not dora
            and o.face_up
            and abs(o.height - run.height) < COLUMN_RISE
            and o.start < run.end + 0.5
            and o.end > run.start - 0.5
            for o in runs
        )

    possible: list[_Run] = []
    for run in runs if ura is None and ura_allowed else ():
        if run is dora or not run.face_up:
            continue
        if is_river(run):
            # As many tiles as the dora, on them, nearer them than the river row above:
            # ura under a river (a river's short last row lies at the river's spacing).
            nxt = row_above(run)
            if not (
                len(run.face_up) == len(dora.face_up)
                and nxt is not None
                and len(run.face_up) <= MAX_INDICATORS
                and run.height - dora.height < nxt.height - run.height
            ):
                continue
        beside = abs(run.height - dora.height) < 0.3 and 0 < run.start - dora.end < 3.0
        # Ura above the dora lie one on each dora: the rows start together.
        rise, shift = run.height - dora.height, abs(run.start - dora.start)
        # Dora on a dead wall stand a tier higher than ura on the table: seen from the side
        # the height shifts them along further. Seen from low down, ura lie just above.
        align = URA_ALIGN_WALL if _dead_wall(dora) else URA_ALIGN
        above = (0.3 <= rise <= URA_REACH and shift < align) or (
            URA_LOW_RISE <= rise < 0.3 and shift < 0.5
        )
        if not (beside or above):
            continue
        if above and not beside and stacked_on(run, dora):
            continue
        if len(run.face_up) == len(dora.face_up):
            ura = run
            # Beside the dora, a clear space between the runs tells them apart; runs nearly
            # touching, or a third run at that level, could split the other way.
            if beside and (run.start - dora.end < URA_BESIDE_CLEAR or len(level) > 2):
                warnings.append(
                    GroupingWarning(
                        "ura_beside_dora",
                        "two runs of indicators side by side: the left one is read as dora, "
                        "the right one as ura",
                        (*dora.face_up, *run.face_up),
                    )
                )
            break
        possible.append(run)
    if ura is None and possible:
        warnings.append(
            GroupingWarning(
                "possible_ura",
                f"tiles near the {len(dora.face_up)} dora indicator(s) were not read as ura: "
                "their number differs",
                tuple(i for r in possible for i in r.face_up),
            )
        )
    chosen = [list(dora.face_up)]
    if ura is not None:
        chosen.append(list(ura.face_up))
    stray = _stray_near(runs, [r for r in (dora, ura) if r is not None])
    if stray:
        warnings.append(
            GroupingWarning(
                "tiles_near_indicators",
                "face-up tiles that are not read as indicators lie close to the dora or ura "
                "indicators: the indicators may be misread (a discard taken for one, or one "
                "left out)",
                (*dora.face_up, *(ura.face_up if ura else ()), *stray),
            )
        )
    return chosen, warnings


def _split_beside(run: _Run) -> tuple[_Run, _Run] | None:
    """Four face-up tiles whose middle step is clearly the widest (by
    :data:`URA_SPLIT_STEP` over the others): two dora and two ura side by side."""
    if len(run.face_up) != 4 or len(run.dets) != 4 or len(run.steps) != 3:
        return None
    left, middle, right = run.steps
    if middle < URA_SPLIT_STEP * max(left, right):
        return None
    p = run.places
    return (
        replace(
            run,
            dets=run.dets[:2],
            face_up=run.face_up[:2],
            steps=run.steps[:1],
            places=p[:2],
            start=p[0],
            end=p[1],
        ),
        replace(
            run,
            dets=run.dets[2:],
            face_up=run.face_up[2:],
            steps=run.steps[2:],
            places=p[2:],
            start=p[2],
            end=p[3],
        ),
    )


def _dead_wall(run: _Run) -> bool:
    """Up to five face-up tiles among face-down ones: indicators turned up on a dead wall."""
    return 0 < len(run.face_up) <= MAX_INDICATORS and len(run.dets) > len(run.face_up)


def _stray_near(runs: Sequence[_Run], chosen: Sequence[_Run]) -> tuple[int, ...]:
    """Face-up tiles of runs not chosen as indicators that lie within
    :data:`STRAY_NEAR` tiles of a chosen run (across and along the hand), face-down runs
    aside: a discard or a missed indicator could be either."""
    out: list[int] = []
    for run in runs:
        if not run.face_up or any(run is c for c in chosen):
            continue
        for c in chosen:
            along_gap = max(0.0, run.start - c.end, c.start - run.end)
            rise = run.height - c.height
            # A run as long as the dora further above them: ura seen more foreshortened.
            far_ura = (
                c is chosen[0]
                and len(chosen) == 1
                and len(run.face_up) == len(c.face_up)
                and 0 < rise < 2 * URA_REACH
            )
            if along_gap < STRAY_NEAR and (abs(rise) < STRAY_NEAR or far_ura):
                out.extend(run.face_up)
                break
    return tuple(out)


# --- the whole step -----------------------------------------------------------------------


def _normalise(dets: Sequence[Detection]) -> list[Detection]:
    return [replace(d, tile=FACE_DOWN) if d.tile in FACE_DOWN_NAMES else d for d in dets]


def _hand_rows(rows: Sequence[Row], dets: Sequence[Detection]) -> list[list[int]]:
    """Rows that may hold the hand, each joined with its colinear pieces (a wide gap before
    the melds, tiles taken by a crossing line): those of 13-18 tiles, mostly face up, else
    the most hand-like one. ``rows`` must not be empty."""
    sizes = sizes_of(np.array([d.box for d in dets], dtype=float))

    def key(members: list[int]) -> tuple[float, float]:
        n = len(members)
        down = sum(dets[i].face_down for i in members)
        miss = max(HAND_SIZE[0] - n, n - HAND_SIZE[1], 0)
        if down > n / 2:
            miss += 20  # a wall or the backs of a standing hand
        return (min(miss, 30), -float(np.median(sizes[members])))

    joined: dict[frozenset[int], list[int]] = {}
    for row in rows:
        if len(row) >= 3 and sum(not dets[i].face_down for i in row.members) >= 2:
            members = _merge_colinear(row, rows, dets)
            joined.setdefault(frozenset(members), members)
    ranked = sorted(joined.values(), key=key) or [list(max(rows, key=len).members)]
    return [m for m in ranked[:HAND_ROW_TRIES] if key(m)[0] <= 2] or ranked[:1]


def _merge_colinear(row: Row, rows: Sequence[Row], dets: Sequence[Detection]) -> list[int]:
    """The hand row plus any row lying on its line just beyond its ends (a wide meld gap)."""
    members = list(row.members)
    xyxy = np.array([d.box for d in dets], dtype=float)
    centres, sizes = centres_of(xyxy), sizes_of(xyxy)
    if len(members) < 3:
        return members
    size = float(np.median(sizes[members]))
    changed = True
    while changed:
        changed = False
        origin, d = fit_line(centres[members])
        normal = np.array([-d[1], d[0]])
        pos = (centres[members] - origin) @ d
        for other in rows:
            if other is row or set(other.members) & set(members) or len(other) > 8:
                continue
            rel = centres[list(other.members)] - origin
            if np.abs(rel @ normal).max() > 0.4 * size:
                continue
            p = rel @ d
            if p.min() - pos.max() < 5 * size and pos.min() - p.max() < 5 * size:
                members.extend(other.members)
                changed = True
                break
    # Single face-up tiles on the line near its ends, taken by a crossing line first (a
    # wall running away from the camera can claim the hand's last tiles; each one taken
    # brings the next within reach).
    origin, d = fit_line(centres[members])
    normal = np.array([-d[1], d[0]])
    pos = (centres[members] - origin) @ d
    pitch = float(np.median(np.diff(np.sort(pos)))) if len(pos) > 2 else size
    added = True
    while added:
        added = False
        pos = (centres[members] - origin) @ d  # the row's ends move as tiles are taken
        taken = set(members)
        for i in range(len(dets)):
            if i in taken or dets[i].face_down:
                continue
            rel = centres[i] - origin
            if abs(rel @ normal) < 0.3 * size and pos.min() - 3 * pitch < rel @ d < pos.max() + (
                3 * pitch
            ):
                members.append(i)
                added = True
    return _unstack(members, centres, sizes)


def _reach_further(members: list[int], dets: Sequence[Detection], kept: Sequence[int]) -> list[int]:
    """The row with face-up tiles on its line up to :data:`FAR_REACH` pitches beyond its
    ends, one after another, for a row short of tiles. Standing concealed tiles beside flat
    melds look larger (their centres higher, by a share of their own size), and a player
    may leave a wide space before the melds."""
    xyxy = np.array([d.box for d in dets], dtype=float)
    centres, sizes = centres_of(xyxy), sizes_of(xyxy)
    size = float(np.median(sizes[members]))
    origin, d = fit_line(centres[members])
    normal = np.array([-d[1], d[0]])
    pos = (centres[members] - origin) @ d
    pitch = float(np.median(np.diff(np.sort(pos)))) if len(pos) > 2 else size
    out = list(members)
    lo, hi = float(pos.min()), float(pos.max())
    added = True
    while added:
        added = False
        for i in kept:
            if i in out or dets[i].face_down:
                continue
            rel = centres[i] - origin
            p = float(rel @ d)
            near = lo - FAR_REACH * pitch < p < hi + FAR_REACH * pitch
            if near and abs(rel @ normal) < 0.3 * max(size, float(sizes[i])):
                out.append(i)
                lo, hi = min(lo, p), max(hi, p)
                added = True
    return _unstack(out, centres, sizes)


def _unstack(members: list[int], centres: np.ndarray, sizes: np.ndarray) -> list[int]:
    """Drop members lying over another member (a kakan's added tile can fall within the
    line's tolerance): of two centres closer along the line than half a tile, the one
    further off the line goes (it is then attached as a stacked tile). Half a tile of the
    pair's own size (the larger: an added tile seen edge-on has a thin box): at the far end
    of a row seen from the side, touching tiles are several times closer than the row's
    typical pitch."""
    while len(members) >= 3:
        origin, d = fit_line(centres[members])
        rel = centres[members] - origin
        signed = rel @ np.array([-d[1], d[0]])
        pos, off = rel @ d, np.abs(signed)
        order = np.argsort(pos, kind="stable")
        steps = np.diff(pos[order])
        size = sizes[members]
        pitch = float(np.median(steps / np.sqrt(size[order[:-1]] * size[order[1:]])))
        # ... or nearer than touching tiles and one clearly beyond the other across the
        # row: an added kan's tile on the far side of the one it was added to.
        close = [
            (a, b)
            for a, b in itertools.pairwise(order)
            if pos[b] - pos[a] < 0.45 * pitch * max(size[a], size[b])
            or (
                pos[b] - pos[a] < STACK_STEP * pitch * max(size[a], size[b])
                and abs(signed[a] - signed[b]) > STACK_ACROSS * max(size[a], size[b])
            )
        ]
        if not close:
            break
        a, b = close[0]
        members = [m for k, m in enumerate(members) if k != (a if off[a] > off[b] else b)]
    return members


def _attach_stacks(
    geo: RowGeometry, dets: Sequence[Detection], others: list[int]
) -> dict[int, tuple[int, float]]:
    """Tiles lying on a sideways hand tile's far side: {row index: (detection, side sign)}."""
    if not others:
        return {}
    d = np.array(geo.direction)
    normal = np.array([-d[1], d[0]])
    centres = centres_of(np.array([dets[i].box for i in others], dtype=float))
    rel = centres - np.array(geo.origin)
    along, off = rel @ d, rel @ normal
    out: dict[int, tuple[int, float]] = {}
    used: set[int] = set()
    for k in np.nonzero(geo.sideways)[0]:
        dist_along = np.abs(along - geo.positions[k]) / geo.unit
        # The added tile lies one sideways tile's depth beyond the one it is stacked on.
        dist_across = (off - geo.offsets[k]) / max(float(geo.across[k]), 1e-6)
        ok = [
            j
            for j in range(len(others))
            if j not in used
            and not dets[others[j]].face_down  # an added tile shows its face
            and dist_along[j] < 0.6
            and 0.5 < abs(dist_across[j]) < 1.7
        ]
        if ok:
            j = min(ok, key=lambda j: abs(abs(dist_across[j]) - 1.0) + dist_along[j])
            used.add(j)
            out[int(k)] = (others[j], float(np.sign(dist_across[j])))
    return out


def _unattached_stacks(
    geo: RowGeometry, dets: Sequence[Detection], others: Sequence[int], up: np.ndarray
) -> list[tuple[int, int]]:
    """Face-up tiles lying just beyond a sideways hand tile (on the far side, within a
    tile's depth or two) that were not attached to it: ``(hand detection, tile)`` pairs.

    The un-rotated depth of a wide box collapses at grazing angles, and then an added
    kan's tile is not attached; taken for an indicator or left out, it must not go
    unnoticed. (Attaching it with a looser measure misreads standing hands.)"""
    if not others:
        return []
    d = np.array(geo.direction)
    centres = centres_of(np.array([dets[i].box for i in others], dtype=float))
    rel = centres - np.array(geo.origin)
    along, rise = rel @ d, rel @ up
    depth = max(0.6 * geo.height, 1e-6)
    out = []
    for k in np.nonzero(geo.sideways)[0]:
        hand_rise = float(geo.offsets[k]) * float(np.array([-d[1], d[0]]) @ up)
        for j, i in enumerate(others):
            if dets[i].face_down:
                continue
            above = (rise[j] - hand_rise) / depth
            if abs(along[j] - geo.positions[k]) < 0.6 * geo.unit and 0.3 < above < 1.9:
                out.append((geo.members[k], i))
    return out


def _flip_gap(gap: float) -> float:
    """A gap taken the other way: none where there was one, a clear one where there was none."""
    return 0.0 if gap > GAP else 2 * GAP


def _split_candidates(geo: RowGeometry) -> list[int]:
    """Where standing tiles may end besides the automatic choice: at any gap of the row
    (automatic tables; the steps in the boxes' shapes can be too small to see)."""
    n = len(geo.positions)
    if n < 6:
        return []
    pitch = float(np.median(np.diff(geo.positions)))
    found = [
        k for k in range(2, n - 1) if (geo.positions[k] - geo.positions[k - 1]) / pitch >= 1.0 + GAP
    ]
    return found[:MAX_SPLITS_TRIED]


def _read_row_splits(
    members: list[int],
    dets: Sequence[Detection],
    kept: Sequence[int],
    names: tuple[str, ...],
) -> tuple[list[Grouping], RowGeometry, list[GroupingWarning], int | None]:
    """:func:`_read_row` under the automatic standing/flat split and the other plausible
    ones (no split, or a split at another gap); the reading that explains the row best
    decides which. Returns its candidates, geometry, warnings and split."""
    base = _read_row(members, dets, kept, names)
    runs = [(*base, None)]
    across = base[1].across
    for split in [0, *_split_candidates(base[1])]:
        cands, geo, warns = _read_row(members, dets, kept, names, split=split)
        pen = P_SPLIT
        if split:
            # Standing faces and flat ones differ in depth where they meet: a cut where the
            # depths run on alike explains the sideways tiles it makes, not the layout.
            step = abs(
                math.log(
                    np.median(across[max(split - 3, 0) : split])
                    / np.median(across[split : split + 3])
                )
            )
            pen += P_SPLIT_UNSEEN * (step < math.log(STANDING_STEP))
        cands = [replace(g, penalty=g.penalty + pen) for g in cands]
        runs.append((cands, geo, warns, split))
    return min(runs, key=lambda r: min(g.penalty for g in r[0]))


def _read_row(
    members: list[int],
    dets: Sequence[Detection],
    kept: Sequence[int],
    names: tuple[str, ...],
    *,
    flip_sideways: frozenset[int] = frozenset(),
    flip_gaps: frozenset[int] = frozenset(),
    split: int | None = None,
) -> tuple[list[Grouping], RowGeometry, list[GroupingWarning]]:
    """Every reading of one row as the hand (both directions), its geometry and doubts.

    ``flip_sideways`` / ``flip_gaps``: detections whose sideways judgement, or the gap
    before them, is taken the other way (to see whether a doubt changes the hand);
    ``split``: see :func:`_row_geometry`."""
    warnings: list[GroupingWarning] = []
    first = _row_geometry(members, dets, split)
    if not first.conditioned and any(dets[i].sideways is None for i in members):
        warnings.append(
            GroupingWarning(
                "sideways_unknown",
                "the hand row runs near 45 degrees: sideways tiles cannot be told from the "
                "boxes, and the detector gave no sideways flags",
                first.members,
            )
        )
    in_row = set(members)
    candidates: list[Grouping] = []
    geos: dict[int, RowGeometry] = {}
    for reading in (1, -1):
        # Near 45 degrees sideways tiles are found by their offset towards the player,
        # whose side each reading direction fixes (reading left to right, the player is
        # on the row's normal side).
        geo = first if first.conditioned else _row_geometry(members, dets, split, reading)
        if flip_sideways:
            flipped = np.array(
                [s != (m in flip_sideways) for s, m in zip(geo.sideways, geo.members, strict=True)]
            )
            geo = replace(geo, sideways=flipped)
        geos[reading] = geo
        others_all = [i for i in kept if i not in in_row]
        attached = _attach_stacks(geo, dets, others_all)
        d = np.array(geo.direction)
        rd = reading * d
        up = np.array([rd[1], -rd[0]])
        normal = np.array([-d[1], d[0]])
        up_sign = float(np.sign(up @ normal))
        order = list(range(len(members)))
        if reading < 0:
            order.reverse()
        gaps = _gaps(geo, order)
        taken = {det for det, _ in attached.values()}
        loose = _unattached_stacks(geo, dets, [i for i in others_all if i not in taken], up)
        loose_warn = (
            [
                GroupingWarning(
                    "possible_kakan",
                    "a tile lies just beyond a sideways meld tile without being read as stacked "
                    "on it: the meld may be an added kan",
                    tuple(i for pair in loose for i in pair),
                )
            ]
            if loose
            else []
        )
        # A loose tile of the meld's own kind is read both ways: stacked (an added kan) and
        # not; leaving it out costs a little (a tile of the meld's kind left unexplained).
        variants: list[tuple[dict[int, tuple[int, float]], float, list[GroupingWarning]]] = [
            (attached, 0.0, [])
        ]
        extra = dict(attached)
        for h, i in loose:
            k = geo.members.index(h)
            if k not in extra and _kind(dets[h].tile) == _kind(dets[i].tile):
                extra[k] = (i, up_sign)
        if len(extra) > len(attached):
            variants = [
                (attached, P_LOOSE_STACK * (len(extra) - len(attached)), []),
                (extra, 0.0, []),
            ]
        # An added kan's tile is a fourth copy of the pon's tiles: a tile of another kind on
        # a sideways tile's far side is something else lying beyond the meld (a discard, an
        # indicator). Also read with it left out, named as a possible added kan.
        unlike = [
            k
            for k, (i, _) in attached.items()
            if KAKAN_SAME_KIND and _kind(dets[i].tile) != _kind(dets[geo.members[k]].tile)
        ]
        if unlike:
            kept_stacks = {k: v for k, v in attached.items() if k not in unlike}
            variants.append(
                (
                    kept_stacks,
                    P_LOOSE_STACK * len(unlike),
                    [
                        GroupingWarning(
                            "possible_kakan",
                            "a tile of another kind lies on a sideways meld tile's far side: "
                            "it is read as not stacked on it (an added kan adds a fourth copy)",
                            tuple(i for k in unlike for i in (geo.members[k], attached[k][0])),
                        )
                    ],
                )
            )
        for stacks, variant_pen, variant_warn in variants:
            stacked_dets = {det for det, _ in stacks.values()}
            others = [i for i in others_all if i not in stacked_dets]
            tokens = []
            for k, g in zip(order, gaps, strict=True):
                st = stacks.get(k)
                tokens.append(
                    Token(
                        det=geo.members[k],
                        tile=dets[geo.members[k]].tile,
                        sideways=bool(geo.sideways[k]),
                        stacked=st[0] if st else None,
                        stacked_tile=dets[st[0]].tile if st else None,
                        gap_before=_flip_gap(g) if geo.members[k] in flip_gaps else g,
                    )
                )
            side_pen = variant_pen
            wrong_stacks = [stacks[k][0] for k in stacks if stacks[k][1] != up_sign]
            side_pen += P_WRONG_SIDE * len(wrong_stacks)
            bands, band_warn = _indicator_bands(geo, dets, others, up)
            down_bands, _ = _indicator_bands(geo, dets, others, -up)
            side_pen += P_WRONG_SIDE * max(len(down_bands) - len(bands), 0) * P_BAND_SIDE
            down_warn = (
                [
                    GroupingWarning(
                        "possible_indicators",
                        "tiles laid like indicators lie on the player's side of the hand: the "
                        "hand may be read the wrong way round, and they not read as indicators",
                        tuple(i for band in down_bands for i in band),
                    )
                ]
                if len(down_bands) > len(bands)
                else []
            )
            side_pen += P_PRIOR * (1 - float(up @ np.array([0.0, -1.0]))) / 2
            side_pen += P_PRIOR * 0.5 * (1 - float(rd @ np.array([0.0, 1.0]))) / 2
            open_bands: tuple[list[list[int]], list[GroupingWarning]] | None = None
            for parse in _parse(tokens):
                hand_bands, hand_warn = bands, band_warn
                open_hand = any(m.kind != "ankan" for m in parse.melds)
                if len(bands) > 1 and open_hand and URA_NEEDS_CLOSED_HAND:
                    # Ura indicators are turned over only for a riichi winner, whose hand
                    # is closed: beside an open hand they are something else.
                    if open_bands is None:
                        open_bands = _indicator_bands(geo, dets, others, up, ura_allowed=False)
                    hand_bands, hand_warn = open_bands
                candidates.append(
                    Grouping(
                        concealed=parse.concealed,
                        win=parse.win,
                        melds=parse.melds,
                        order=tuple(tokens),
                        dora=tuple(hand_bands[0]) if hand_bands else (),
                        ura=tuple(hand_bands[1]) if len(hand_bands) > 1 else (),
                        penalty=parse.penalty + side_pen,
                        reading=reading,
                        warnings=(
                            *parse.warnings,
                            *loose_warn,
                            *variant_warn,
                            *hand_warn,
                            *down_warn,
                        ),
                        names=names,
                    )
                )
    best_reading = min(candidates, key=lambda g: g.penalty).reading if candidates else 1
    return candidates, geos[best_reading], warnings


def group_detections(
    detections: Sequence[Detection], *, width: float, height: float
) -> GroupingResult:
    """Group detected tiles into the player's hand. Never raises for odd layouts: every
    doubt becomes a warning (see the module docstring for the steps)."""
    dets = _normalise(detections)
    names = tuple(d.tile for d in dets)
    warnings: list[GroupingWarning] = []
    kept, extra_candidates, dup_warnings = _merge_duplicates(dets)
    warnings.extend(dup_warnings)
    if not kept:
        warnings.append(GroupingWarning("no_tiles", "no tiles were detected"))
        return GroupingResult(None, (), tuple(warnings), names)
    kept_boxes = np.array([dets[i].box for i in kept], dtype=float)
    local_rows = find_rows(kept_boxes)
    rows = [
        Row(tuple(kept[m] for m in r.members), r.origin, r.direction, r.positions, r.offsets)
        for r in local_rows
    ]
    sizes = sizes_of(np.array([d.box for d in dets], dtype=float))
    read: list[tuple[Any, ...]] = []
    hand_rows = _hand_rows(rows, dets)
    biggest = max(float(np.median(sizes[m])) for m in hand_rows)
    for members in hand_rows:
        cands, geo, row_warnings, split = _read_row_splits(members, dets, kept, names)
        size = float(np.median(sizes[members]))
        # The hand is the row that reads best as a hand; nearer (larger) rows break ties.
        score = min(g.penalty for g in cands) + P_FAR * math.log(biggest / size)
        read.append((score, cands, geo, row_warnings, members, split))
    _, candidates, geo, row_warnings, members, split = min(read, key=lambda r: r[0])
    candidates, doubts = _settle_doubts(candidates, geo, members, dets, kept, names, split)
    best = candidates[0]
    if any(w.code == "too_few_tiles" for w in best.warnings):
        wider = _reach_further(members, dets, kept)
        if len(wider) > len(members):
            cands, other_doubts, other_warnings = _read_settled(wider, dets, kept, names)
            if cands[0].penalty < best.penalty:
                added = tuple(i for i in wider if i not in members)
                candidates, doubts, members = cands, other_doubts, wider
                row_warnings = [
                    *other_warnings,
                    GroupingWarning(
                        "distant_tiles_joined",
                        "tiles on the hand's line but well beyond its end were taken into the "
                        "hand, which lacks tiles without them",
                        added,
                    ),
                ]
                best = candidates[0]
    for weakest, why in _droppable(best, members, dets):
        rest = [i for i in members if i != weakest]
        cands, other_doubts, other_warnings = _read_settled(rest, dets, kept, names)
        if cands[0].penalty < best.penalty:
            candidates, doubts, members = cands, other_doubts, rest
            row_warnings = [
                *other_warnings,
                GroupingWarning(
                    "dropped_tile",
                    f"left out {dets[weakest].tile} ({dets[weakest].confidence:.2f}): {why}",
                    (weakest,),
                ),
            ]
            best = candidates[0]
    warnings.extend(row_warnings)
    alternatives: list[Grouping] = []
    seen = {best.key()}
    for g in candidates[1:]:
        if g.penalty > best.penalty + ALTERNATIVE_MARGIN:
            break
        if g.key() not in seen:
            seen.add(g.key())
            alternatives.append(g)
    warnings.extend(best.warnings)
    close = [g for g in alternatives if g.penalty <= best.penalty + AMBIGUOUS_MARGIN]
    if close:
        warnings.append(
            GroupingWarning(
                "ambiguous_grouping",
                f"the layout reads as {len(close) + 1} different hands almost equally well",
                tuple(t.det for t in best.order),
            )
        )
    warnings.extend(doubts)
    warnings.extend(_count_warnings(dets, kept, set(hand_detections(best))))
    warnings.extend(_confidence_warnings(dets, best, extra_candidates))
    return GroupingResult(best, tuple(alternatives), tuple(warnings), names, tuple(rows))


def _read_settled(
    members: list[int], dets: Sequence[Detection], kept: Sequence[int], names: tuple[str, ...]
) -> tuple[list[Grouping], list[GroupingWarning], list[GroupingWarning]]:
    """A row read again as the hand (another set of members): its readings best first with
    its doubts settled (:func:`_settle_doubts`), the doubts' warnings and the row's own."""
    cands, geo, row_warnings, split = _read_row_splits(members, dets, kept, names)
    cands, doubts = _settle_doubts(cands, geo, members, dets, kept, names, split)
    return cands, doubts, row_warnings


def _settle_doubts(
    candidates: list[Grouping],
    geo: RowGeometry,
    members: list[int],
    dets: Sequence[Detection],
    kept: Sequence[int],
    names: tuple[str, ...],
    split: int | None,
) -> tuple[list[Grouping], list[GroupingWarning]]:
    """The row's readings with those its doubtful judgements give, best first, and the
    doubts' warnings. A doubtful judgement taken the other way can explain the layout
    better (a tile just past the sideways threshold that completes a meld): the best
    reading wins either way."""
    candidates = sorted(candidates, key=lambda g: g.penalty)
    doubts, flipped = _consequential_doubts(candidates[0], geo, members, dets, kept, names, split)
    combined = _combined_flips(candidates[0], flipped, geo, members, dets, kept, names, split)
    return sorted([*candidates, *flipped, *combined], key=lambda g: g.penalty), doubts


def _combined_flips(
    best: Grouping,
    flipped: Sequence[Grouping],
    geo: RowGeometry,
    members: list[int],
    dets: Sequence[Detection],
    kept: Sequence[int],
    names: tuple[str, ...],
    split: int | None,
) -> list[Grouping]:
    """Doubtful sideways judgements taken the other way together (every pair among the
    :data:`FLIP_POOL` nearest the threshold, then the best :data:`FLIP_BEAM` of each size
    one turn further): two melds whose called tiles both sit near the threshold (a row seen
    obliquely, standing tiles beside flat ones) need both turned before either hand
    reads well. Starts only when one turned tile already reads better than the layout
    as judged (those readings, and the warnings naming the doubts, come from
    :func:`_consequential_doubts`); each turned tile costs :data:`P_DOUBT_FLIP`."""
    pool = list(geo.doubtful_sideways[:FLIP_POOL])
    if MAX_FLIPS < 2 or len(pool) < 2 or not FLIP_WHEN & {w.code for w in best.warnings}:
        return []

    def read(flips: frozenset[int]) -> tuple[float, frozenset[int], Grouping]:
        cands, _, _ = _read_row(members, dets, kept, names, split=split, flip_sideways=flips)
        g = min(cands, key=lambda g: g.penalty)
        return g.penalty + P_DOUBT_FLIP * len(flips), flips, g

    singles = {g.key() for g in flipped}
    trials = [read(frozenset(pair)) for pair in itertools.combinations(pool, 2)]
    score = min(t[0] for t in trials)
    if score >= best.penalty:
        return []
    # The best few of each size are taken one turn further (a beam): the pair that reads
    # best need not be part of the best three.
    found = list(trials)
    beam = sorted(trials, key=lambda t: t[0])[:FLIP_BEAM]
    for _ in range(MAX_FLIPS - 2):
        sets = {flips | {det} for _, flips, _ in beam for det in pool if det not in flips}
        more = [read(flips) for flips in sorted(sets, key=sorted)]
        if not more:
            break
        found.extend(more)
        beam = sorted(more, key=lambda t: t[0])[:FLIP_BEAM]
    out: dict[tuple[Any, ...], Grouping] = {}
    for pen, _, g in sorted(found, key=lambda t: t[0]):
        # A set giving a single turn's hand is no new reading.
        if pen < best.penalty and g.key() not in singles and g.key() not in out:
            out[g.key()] = replace(g, penalty=pen)
    return list(out.values())


def _droppable(
    best: Grouping, members: list[int], dets: Sequence[Detection]
) -> list[tuple[int, str]]:
    """Row tiles that may not belong to the hand, each with why: the least confident one
    (:func:`_doubtful_extra`), and a face-down tile at an end of the row when the reading
    has one there unexplained (a wall or another player's tile lying on the hand's line;
    a closed kan's face-down tiles read as one). The row is re-read without each in turn;
    a reading is kept only when it is better, always warned ``dropped_tile``."""
    out: list[tuple[int, str]] = []
    weakest = _doubtful_extra(best, members, dets)
    if weakest is not None:
        out.append((weakest, "with it the hand has one tile too many"))
    codes = {w.code for w in best.warnings}
    if best.order and codes & {"face_down_in_concealed", "too_many_tiles"}:
        for tok in {best.order[0].det: best.order[0], best.order[-1].det: best.order[-1]}.values():
            if tok.face_down and tok.det != weakest:
                out.append((tok.det, "a face-down tile at the end of the hand row"))
    return out


def _doubtful_extra(best: Grouping, members: list[int], dets: Sequence[Detection]) -> int | None:
    """The row's least confident tile when the best reading has exactly one tile too many
    and that tile is doubtful (below :data:`LOW_CONFIDENCE`), else None. A detector adds
    tiles (a shadow, a tile's edge, a discard touching the row), and one extra tile leaves
    no hand at all; the row read without it is kept only when it reads better, and always
    warned (``dropped_tile``). True boxes (confidence 1) never take this path."""
    if not any(w.code == "too_many_tiles" for w in best.warnings):
        return None
    kans = sum(len(m.tiles) == 4 for m in best.melds)
    if best.tile_count() != 15 + kans:
        return None
    weakest = min(members, key=lambda i: dets[i].confidence)
    return weakest if dets[weakest].confidence < LOW_CONFIDENCE else None


def _consequential_doubts(
    best: Grouping,
    geo: RowGeometry,
    members: list[int],
    dets: Sequence[Detection],
    kept: Sequence[int],
    names: tuple[str, ...],
    split: int | None,
) -> tuple[list[GroupingWarning], list[Grouping]]:
    """Warnings for near-threshold judgements (sideways, gaps) that change the hand when
    taken the other way, and the hands they would give (returned as alternatives).

    A doubt that changes nothing (a gap between two melds, say) is not worth asking about.
    """
    side_doubts = list(geo.doubtful_sideways)
    gap_doubts = [t.det for t in best.order[1:] if GAP_DOUBT[0] < t.gap_before < GAP_DOUBT[1]]
    warnings: list[GroupingWarning] = []
    others: list[Grouping] = []
    for code, dets_in_doubt, flip in (
        ("doubtful_sideways", side_doubts, "flip_sideways"),
        ("doubtful_gap", gap_doubts, "flip_gaps"),
    ):
        changed = []
        for det in dets_in_doubt[:MAX_DOUBTS_TRIED]:
            cands, _, _ = _read_row(
                members, dets, kept, names, split=split, **{flip: frozenset({det})}
            )
            other = min(cands, key=lambda g: g.penalty)
            # Taken the other way the hand changes, but reads far worse: not a real doubt.
            if other.key() != best.key() and other.penalty < best.penalty + DOUBT_REACH:
                changed.append(det)
                others.append(replace(other, penalty=other.penalty + P_DOUBT_FLIP))
        if flip == "flip_sideways":
            # A meld's doubtful called tile may be its neighbour instead (who it came from
            # then changes): the two taken the other way together.
            for pair in _called_tile_swaps(best, set(dets_in_doubt[:MAX_DOUBTS_TRIED])):
                cands, _, _ = _read_row(
                    members, dets, kept, names, split=split, flip_sideways=frozenset(pair)
                )
                other = min(cands, key=lambda g: g.penalty)
                if other.key() != best.key() and other.penalty < best.penalty + DOUBT_REACH:
                    changed.extend(d for d in pair if d not in changed)
                    others.append(replace(other, penalty=other.penalty + 2 * P_DOUBT_FLIP))
        if changed:
            what = "upright or sideways" if code == "doubtful_sideways" else "a gap or none"
            warnings.append(
                GroupingWarning(
                    code,
                    f"it is unclear whether these are {what}; the other way, the hand changes "
                    "(see alternatives)",
                    tuple(changed),
                )
            )
    return warnings, others


def _called_tile_swaps(best: Grouping, doubtful: set[int]) -> list[tuple[int, int]]:
    """(called tile, neighbour) pairs of the best reading's melds whose sideways tile is a
    doubtful judgement and whose upright neighbour in the meld could be the called one."""
    side = {t.det for t in best.order if t.sideways}
    out = []
    for meld in best.melds:
        dets = list(meld.dets)
        for k, det in enumerate(dets):
            if det in side and det in doubtful:
                for j in (k - 1, k + 1):
                    if 0 <= j < len(dets) and dets[j] not in side:
                        out.append((det, dets[j]))
    return out


def _count_warnings(
    dets: Sequence[Detection], kept: Sequence[int], in_hand: set[int]
) -> list[GroupingWarning]:
    """A kind seen more than four times in the hand and its indicators: something was
    misread. (Other tiles in a photo may come from a second set, or be misread themselves.)"""
    by_kind: dict[int, list[int]] = {}
    for i in kept:
        if i not in in_hand:
            continue
        k = _kind(dets[i].tile)
        if k is not None:
            by_kind.setdefault(k, []).append(i)
    out = []
    for _kind_index, idx in sorted(by_kind.items()):
        if len(idx) > 4:
            out.append(
                GroupingWarning(
                    "fifth_copy",
                    f"{len(idx)} copies of {dets[idx[0]].tile} are visible; a set has four",
                    tuple(idx),
                )
            )
    return out


def hand_detections(best: Grouping) -> list[int]:
    """Every detection that is part of the hand or its indicators."""
    out = [t.det for t in best.order]
    out += [t.stacked for t in best.order if t.stacked is not None]
    return out + list(best.dora) + list(best.ura)


def _confidence_warnings(
    dets: Sequence[Detection], best: Grouping, extra: dict[int, list[tuple[str, float]]]
) -> list[GroupingWarning]:
    out = []
    for i in hand_detections(best):
        det = dets[i]
        cands = Counter({det.tile: det.confidence})
        for t, c in (*det.candidates, *extra.get(i, [])):
            cands[t] = max(cands[t], c)
        if det.confidence >= LOW_CONFIDENCE and len(cands) == 1:
            continue
        if det.confidence >= LOW_CONFIDENCE and all(
            c < LOW_CONFIDENCE / 2 for t, c in cands.items() if t != det.tile
        ):
            continue
        ranked = [t for t, _ in cands.most_common()]
        out.append(
            GroupingWarning(
                "low_confidence",
                f"{det.tile} is uncertain ({det.confidence:.2f}); candidates {ranked}",
                (i,),
                (("candidates", ranked),),
            )
        )
    return out


# --- what-if scoring ----------------------------------------------------------------------


def _score_outcome(hand: dict[str, Any] | None, context: dict[str, Any]) -> dict[str, Any]:
    if hand is None:
        return {"error": {"code": "not_a_hand", "message": "the tiles do not form a hand"}}
    from scoring import api as scoring_api

    try:
        response = scoring_api.score({**context, **hand})
    except AgariError as exc:
        return {"error": {"code": exc.code, "message": exc.message}}
    except ModuleNotFoundError as exc:  # the scoring engine is being written in parallel
        if not (exc.name or "").startswith("scoring"):
            raise
        return {"error": {"code": "not_implemented", "message": str(exc)}}
    return {k: response.get(k) for k in ("han", "fu", "limit", "yakuman", "points")}


def _hidden_red_kan(hand: dict[str, Any] | None) -> bool:
    """Whether a closed kan of the hand holds a red five (:func:`_hidden_red_fives`)."""
    return hand is not None and any(
        m["kind"] == "ankan" and "0" in m["tiles"] for m in hand["melds"]
    )


def _scored(
    hand: dict[str, Any] | None, context: dict[str, Any]
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The hand and its score under ``context``. When those rules have no red fives, a
    closed kan's red five (read face down by :func:`_hidden_red_fives`, on the usual rules)
    is a plain five: the hand is read so, and scored again."""
    outcome = _score_outcome(hand, context)
    code = outcome.get("error", {}).get("code")
    if hand is not None and code == "red_five_not_in_ruleset" and _hidden_red_kan(hand):
        melds = [
            {**m, "tiles": m["tiles"].replace("0", "5")} if m["kind"] == "ankan" else m
            for m in hand["melds"]
        ]
        hand = {**hand, "melds": melds}
        outcome = _score_outcome(hand, context)
    return hand, outcome


def what_if(
    detections: Sequence[Detection],
    result: GroupingResult,
    *,
    width: float,
    height: float,
    context: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """For each uncertain tile, the hand's score under each candidate class.

    ``changes_payout`` is True when candidates score differently, False when they agree,
    and None when scoring was unavailable for every candidate (then ask anyway).
    """
    ctx = dict(DEFAULT_CONTEXT if context is None else context)
    out: list[dict[str, Any]] = []
    for w in result.warnings:
        if w.code != "low_confidence" or not w.detections:
            continue
        i = w.detections[0]
        rows = []
        for cand in dict(w.extra)["candidates"]:
            if cand == detections[i].tile:
                hand = result.hand()  # the reading already made: no need to group again
            else:
                changed = list(detections)
                changed[i] = replace(detections[i], tile=cand, confidence=1.0, candidates=())
                hand = group_detections(changed, width=width, height=height).hand()
            hand, outcome = _scored(hand, ctx)
            rows.append({"tile": cand, "hand": hand, **outcome})
        outcomes = {
            repr(r["error"]["code"]) if "error" in r else repr(r.get("points")) for r in rows
        }
        unavailable = all("error" in r and r["error"]["code"] == "not_implemented" for r in rows)
        out.append(
            {
                "detection": i,
                "tile": detections[i].tile,
                "candidates": rows,
                "changes_payout": None if unavailable else len(outcomes) > 1,
            }
        )
    return out


# --- the JSON interface -------------------------------------------------------------------

_REQUEST_FIELDS = {"width", "height", "detections", "context"}
_DETECTION_FIELDS = {"tile", "box", "confidence", "sideways", "candidates"}


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RequestError(f"{what} must be a finite number, not {value!r}", code="bad_request")
    return float(value)


def _tile_name(value: Any, what: str) -> tuple[str, bool]:
    """A detection's tile and whether its name marks it sideways (``5'm``)."""
    if not isinstance(value, str):
        raise RequestError(f"{what} must be a string, not {value!r}", code="bad_request")
    if value in FACE_DOWN_NAMES:
        return FACE_DOWN, False
    marked = len(value) == 3 and value[1] == "'"
    name = value[0] + value[2] if marked else value
    try:
        Tile.parse(name)
    except NotationError as exc:
        raise RequestError(
            f"{what} {value!r} is not a tile (MPSZ such as '5m', '0p', '7z', or 'x'/'back')",
            code="bad_tile",
        ) from exc
    return name, marked


def parse_detection(obj: Any, k: int) -> Detection:
    """One ``detections`` entry of the ``group`` request, validated."""
    where = f"detections[{k}]"
    if not isinstance(obj, dict):
        raise RequestError(f"{where} must be an object, not {obj!r}", code="bad_request")
    unknown = sorted(set(obj) - _DETECTION_FIELDS)
    if unknown:
        raise RequestError(f"{where}: unknown field(s) {unknown}", code="unknown_field")
    if "tile" not in obj or "box" not in obj:
        raise RequestError(f"{where} needs 'tile' and 'box'", code="missing_field")
    tile, marked = _tile_name(obj["tile"], f"{where}.tile")
    box = obj["box"]
    if not isinstance(box, list) or len(box) != 4:
        raise RequestError(f"{where}.box must be [x1, y1, x2, y2], not {box!r}", code="bad_box")
    x1, y1, x2, y2 = (_number(v, f"{where}.box") for v in box)
    if x2 <= x1 or y2 <= y1:
        raise RequestError(
            f"{where}.box {box!r} has no area (x2 <= x1 or y2 <= y1)", code="bad_box"
        )
    conf = _number(obj.get("confidence", 1.0), f"{where}.confidence")
    if not 0.0 <= conf <= 1.0:
        raise RequestError(f"{where}.confidence {conf!r} is outside 0-1", code="bad_request")
    sideways = obj.get("sideways")
    if sideways is not None and not isinstance(sideways, bool):
        raise RequestError(f"{where}.sideways must be true, false or null", code="bad_request")
    if marked:
        sideways = True
    cands_raw = obj.get("candidates", [])
    if not isinstance(cands_raw, list):
        raise RequestError(f"{where}.candidates must be a list", code="bad_request")
    cands = []
    for j, c in enumerate(cands_raw):
        if not isinstance(c, dict) or set(c) - {"tile", "confidence"} or "tile" not in c:
            raise RequestError(
                f"{where}.candidates[{j}] must be {{'tile', 'confidence'}}, not {c!r}",
                code="bad_request",
            )
        name, _ = _tile_name(c["tile"], f"{where}.candidates[{j}].tile")
        cands.append((name, _number(c.get("confidence", 0.0), f"{where}.candidates[{j}]")))
    return Detection(tile, (x1, y1, x2, y2), conf, sideways, tuple(cands))


def group_request(request: Any) -> dict[str, Any]:
    """The ``group`` JSON call: validate, group, score the uncertain tiles' candidates."""
    if not isinstance(request, dict):
        raise RequestError("the group request must be a JSON object", code="bad_request")
    unknown = sorted(set(request) - _REQUEST_FIELDS)
    if unknown:
        raise RequestError(f"unknown field(s) {unknown} in the group request", code="unknown_field")
    for name in ("width", "height", "detections"):
        if name not in request:
            raise RequestError(f"the group request needs {name!r}", code="missing_field")
    width = _number(request["width"], "width")
    height = _number(request["height"], "height")
    if width <= 0 or height <= 0:
        raise RequestError(f"width and height must be positive, not {width}x{height}")
    raw = request["detections"]
    if not isinstance(raw, list):
        raise RequestError("detections must be a list", code="bad_request")
    context = request.get("context")
    if context is not None and not isinstance(context, dict):
        raise RequestError("context must be an object of score request fields")
    dets = [parse_detection(obj, k) for k, obj in enumerate(raw)]
    result = group_detections(dets, width=width, height=height)
    out = result.to_dict()
    if context is not None and _hidden_red_kan(out["hand"]):
        out["hand"], _ = _scored(out["hand"], context)
    out["uncertain"] = what_if(dets, result, width=width, height=height, context=context)
    return out
