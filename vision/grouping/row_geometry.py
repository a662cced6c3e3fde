"""Steps 3-5, the hand row's geometry: positions along it, sideways tiles, pitch, gaps.

Sideways tiles are judged from each box's extent along the row relative to the row's upright
tiles, from the spacing of the centres, and from the near edges' offsets (rows near 45
degrees, where the boxes' shapes cannot tell).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.grouping import settings
from vision.grouping.memo import remembered
from vision.grouping.values import Detection
from vision.rows import (
    centres_of,
    extent_on,
    fit_line,
    is_well_conditioned,
    sizes_of,
    unrotate,
)


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
    #: the row's sections judged apart (standing and flat tiles), as indices into members
    parts: tuple[np.ndarray, ...]
    #: each member's sideways margin (log units; positive: judged sideways), None if unknown
    margins: np.ndarray | None = None


@remembered
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
    log_ratio = np.log(along / across)
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
            judged[part], margin[part] = _judge_section(
                xyxy[part], pos[part], direction, log_ratio[part]
            )
        else:
            margin[part] = -1.0  # two tiles apart from the rest: a flat winning tile or so
    margin = _small_section_doubts(xyxy, pos, direction, log_ratio, parts, margin)
    judged, margin = _spacing_veto(pos, judged, margin)
    size_units: np.ndarray | None = None
    if not conditioned:
        judged, margin, size_units = _spacing_judgement(
            xyxy, pos, _near_edge_offsets(pos, off, parts), margin, player_side
        )
    given = [dets[i].sideways for i in members]
    sideways = np.array(
        [g if g is not None else bool(j) for g, j in zip(given, judged, strict=True)],
        dtype=bool,
    )
    # Nearest the threshold first: those are the first re-read the other way; the row's end
    # tiles judged sideways within END_DOUBT_MARGIN (near 45 degrees: judged either way
    # within END_DOUBT_DIAGONAL), and the tiles judged sideways crowded against a neighbour,
    # before them.
    if conditioned:
        ends = _doubtful_ends(margin, settings.END_DOUBT_MARGIN, judged)
        ends |= set(np.nonzero(_crowded_sideways(pos, judged))[0].tolist())
    else:
        ends = _doubtful_ends(margin, settings.END_DOUBT_DIAGONAL)
        if settings.END_DOUBT_DIAGONAL_NEXT:
            # The winning tile's gap is one wide step at an end, which the spacing can also
            # explain by the tile before it lying sideways (a sideways tile widens both its
            # steps): that tile, judged sideways within the same margin, is a doubt too.
            ends |= _doubtful_ends(margin, settings.END_DOUBT_DIAGONAL, judged, inset=1)
    doubtful = tuple(
        members[k]
        for k in sorted(range(len(members)), key=lambda k: 0.0 if k in ends else abs(margin[k]))
        if given[k] is None and (abs(margin[k]) < settings.SIDEWAYS_DOUBT_MARGIN or k in ends)
    )
    up = ~sideways
    height = float(np.median(across[up])) if up.any() else float(np.median(along))
    # The un-rotated across extent collapses for thin boxes at grazing angles; the box's
    # projection on the normal cannot (it overestimates when the row is turned).
    projected = float(np.median(extent_on(xyxy, normal)))
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
        else _local_pitch(pos, sideways, np.log(sizes_of(xyxy)), parts)
        if _pitch(pos, sideways) is not None
        else np.full(len(pos), unit),
        height=height,
        direction=direction,
        origin=(float(origin[0]), float(origin[1])),
        conditioned=conditioned,
        parts=tuple(parts),
        margins=margin,
    )


def _reading_geometry(
    first: RowGeometry,
    members: Sequence[int],
    dets: Sequence[Detection],
    split: int | None,
    reading: int,
) -> RowGeometry:
    """The row's geometry for one reading direction: ``first`` (judged with the player's side
    unknown) where the box shapes judge, else judged again with the player's side the
    reading fixes (near 45 degrees sideways tiles are found by their offset towards the
    player; reading left to right, the player is on the row's normal side)."""
    return first if first.conditioned else _row_geometry(members, dets, split, reading)


def _far_side(direction: tuple[float, float], reading: int) -> np.ndarray:
    """The unit vector across the row away from the player, for a reading direction.

    >>> _far_side((1.0, 0.0), 1).tolist(), _far_side((1.0, 0.0), -1).tolist()
    ([0.0, -1.0], [-0.0, 1.0])
    """
    rd = reading * np.array(direction)
    return np.array([rd[1], -rd[0]])


def _doubtful_ends(
    margin: np.ndarray, within: float, judged: np.ndarray | None = None, inset: int = 0
) -> set[int]:
    """The row's end tiles within ``within`` of the sideways judgement's margin (only those
    judged sideways, when ``judged`` is given): doubts, re-read the other way. ``inset``: the
    tiles that many places in from each end instead (1: the tile next to each end).

    - A row well conditioned, its end tiles judged sideways within :data:`END_DOUBT_MARGIN`:
      one end begins the hand, always with a concealed tile (on the truth hand rows of the
      tuning seeds none of 3,601 first tiles lies sideways), and the end tiles' shapes are
      judged against a perspective trend extrapolated there and their spacing against one
      neighbour only: upright end tiles are judged sideways four to six times as often as
      those inside the row (3.6% / 4.0% against 0.8% / 0.6% on the two tuning halves), with
      margins up to 0.42 (90th percentile, both halves).
    - A row near 45 degrees, its end tiles judged either way within
      :data:`END_DOUBT_DIAGONAL` of the spacing judgement's margin. There the spacing of the
      centres judges (:func:`_spacing_judgement`), and an end tile has one step to be judged
      by, not two: an upright first tile judged sideways reads as a winning tile laid on the
      left, and the tile set apart at the other end becomes a gap among the concealed tiles.

    >>> margin = np.r_[0.3, [-0.5] * 5, 0.9]
    >>> sorted(_doubtful_ends(margin, 0.4, np.array([1, 0, 0, 0, 0, 0, 1], bool)))
    [0]
    >>> sorted(_doubtful_ends(np.r_[0.5, [-1.0] * 5, -0.2], 0.6))
    [0, 6]
    >>> side = np.array([0, 1, 0, 0, 0, 0, 1], bool)
    >>> sorted(_doubtful_ends(np.r_[-1.0, 0.3, [-1.0] * 4, 0.2], 0.6, side, inset=1))
    [1]
    """
    n = len(margin)
    if n < 6 or not within:
        return set()
    return {
        k
        for k in (inset, n - 1 - inset)
        if (judged is None or judged[k]) and abs(margin[k]) < within
    }


def _judge_section(
    xyxy: np.ndarray, pos: np.ndarray, direction: tuple[float, float], log_ratio: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sideways judgement and margin of each tile of a section (three tiles or more), its
    shapes (``log_ratio``: along over across, log) against the section's own trend."""
    rel = _relative_log_ratio(log_ratio, pos)
    return _judge_sideways(xyxy, pos, direction, rel - math.log(_sideways_threshold(rel)))


def _small_section_doubts(
    xyxy: np.ndarray,
    pos: np.ndarray,
    direction: tuple[float, float],
    log_ratio: np.ndarray,
    parts: Sequence[np.ndarray],
    margin: np.ndarray,
) -> np.ndarray:
    """The margins with the tiles of a section of one or two (too few to judge on their
    own: taken as upright, margin -1) that the whole row, judged as one, takes sideways made
    doubts (margin 0; :data:`SMALL_SECTION_DOUBT`). A standing/flat cut tried at a gap
    beside a meld's called tile would otherwise hide it (a daiminkan's called tile and the
    row's last tile cut off: no meld, no doubt, no hand)."""
    small = [int(k) for part in parts if len(part) < 3 for k in part]
    if not settings.SMALL_SECTION_DOUBT or not small or len(pos) < 6:
        return margin
    whole, _ = _judge_section(xyxy, pos, direction, log_ratio)
    out = margin.copy()
    out[[k for k in small if whole[k]]] = 0.0
    return out


def _crowded_sideways(pos: np.ndarray, judged: np.ndarray) -> np.ndarray:
    """Tiles judged sideways whose centre lies closer to a neighbour's than
    :data:`DOUBT_NEAR_STEP` local pitches: doubts, whatever the box's shape. A sideways tile
    is 1.34 pitches long, so touching neighbours' centres lie 1.17 pitches from its own; one
    close neighbour is enough to doubt it (the veto, :func:`_spacing_veto`, needs both, and
    rules). Steps under STACK_NEAR's are stacking, not spacing.

    >>> pos = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.2, 6.4, 7.4])
    >>> _crowded_sideways(pos, np.array([0, 0, 0, 0, 0, 1, 0, 0], bool)).nonzero()[0].tolist()
    []
    >>> _crowded_sideways(pos, np.array([0, 0, 0, 1, 0, 0, 0, 0], bool)).nonzero()[0].tolist()
    [3]
    """
    n = len(pos)
    if not settings.DOUBT_NEAR_STEP or n < 6 or not judged.any():
        return np.zeros(n, dtype=bool)
    pitch = _local_pitch(pos, judged)
    steps = np.diff(pos)
    beside = np.where(steps >= settings.STACK_NEAR[0] * pitch[:-1], steps, np.inf)
    nearest = np.minimum(np.r_[np.inf, beside], np.r_[beside, np.inf])
    return judged & (nearest < settings.DOUBT_NEAR_STEP * pitch)


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
    tight = judged & (farthest < settings.SIDEWAYS_MIN_STEP * pitch)
    if not tight.any():
        return judged, margin
    return judged & ~tight, np.where(tight, 0.0, margin)


def _near_edge_offsets(
    pos: np.ndarray, off: np.ndarray, parts: Sequence[np.ndarray], unmeasured: float = 0.0
) -> np.ndarray:
    """Each tile's offset across the row from its neighbours' (the median of the four
    nearest in its own section: standing and flat tiles lie on different lines), in pitches
    of the row. Players line up the near edges of a row's tiles, so a sideways tile's
    centre sits (1.34 - 1) / 2 = 0.17 pitch nearer the player than its upright neighbours'
    (measured on generated scenes: median 0.14-0.16, upright tiles within 0.05 in 95%).
    A tile of a section under three has no neighbours to measure against: ``unmeasured``."""
    pitch = float(np.median(np.diff(pos))) if len(pos) > 1 else 1.0
    local = np.full(len(pos), pitch)
    if len(pos) >= 4:
        local = _local_pitch(pos, np.zeros(len(pos), dtype=bool))
    out = np.full(len(pos), unmeasured)
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
    lengths = np.array([1.0, settings.SIDEWAYS_LENGTH])
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
        pair = np.where(
            dev < 0,
            (dev / settings.SP_NOISE) ** 2,
            np.minimum((dev / settings.SP_NOISE) ** 2, settings.SP_GAP),
        )
        totals = []
        for sign in (player_side,) if player_side else (1, -1):
            # Where the player's side is not known, the side that explains the row better.
            unary = np.zeros((n, 2))
            unary[:, 1] = settings.SP_SIDEWAYS - settings.SP_SHAPE * np.clip(
                shape_margin, -1.0, 1.0
            )
            unary[:, 1] += np.clip(
                ((sign * edge - settings.EDGE_SIDEWAYS) / settings.EDGE_SPREAD[1]) ** 2 / 2
                - (edge / settings.EDGE_SPREAD[0]) ** 2 / 2,
                -settings.EDGE_CAP,
                settings.EDGE_CAP,
            )
            totals.append(_min_marginals(unary, pair))
        best_total = min(totals, key=lambda t: float(t.min()))
        cost_side = best_total[:, 0] - best_total[:, 1]
        again = cost_side > 0
        if (again == side).all():
            break
        side = again
    return side, cost_side * settings.SP_MARGIN, np.exp(np.polyval(coef, pos)) * size


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
        if (pos[k] - pos[k - 1]) / pitch < 1.0 + settings.GAP:
            continue
        # The tiles on either side of the gap: a sideways tile further on, or perspective
        # along a long row, must not pull the comparison.
        left, right = la[max(0, k - 3) : k], la[k : k + 3]
        diff = abs(float(np.median(left) - np.median(right)))
        if diff > best:
            best_k, best = k, diff
    if best < math.log(settings.STANDING_STEP):
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
        sl = settings.SIDEWAYS_LENGTH * unit
        err_side = np.abs(np.log(w / (sl * dx + settings.SIDEWAYS_DEPTH * bx))) + np.abs(
            np.log(h / (sl * dy + settings.SIDEWAYS_DEPTH * by))
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
        # Never more terms than distinct places (boxes repeated on one place, a request's).
        degree = min(degree, len(np.unique(x[idx])) - 1)
        coef = np.polyfit(x[idx], values[idx], degree)
        res = np.abs(values[idx] - np.polyval(coef, x[idx]))
        if len(idx) >= 8:
            idx = idx[res <= np.percentile(res, 80)]
    return np.polyval(coef, x)


def _local_pitch(
    pos: np.ndarray,
    sideways: np.ndarray,
    log_size: np.ndarray | None = None,
    parts: Sequence[np.ndarray] = (),
) -> np.ndarray:
    """Per tile, the centre spacing of touching upright neighbours there.

    Perspective shrinks the pitch steadily towards the far end of a row: a straight line in
    the position is fitted to the spacings of upright pairs, dropping the ones well above
    the line (gaps), a few times over. Past the pairs it was fitted on the line is not
    extrapolated: the pitch is held at the range seen or, given the tiles' ``log_size`` and
    the row's sections (``parts``), follows each section's size trend from the last pitch
    measured (:data:`~vision.grouping.settings.UNITS_BY_SIZE`)."""
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
    seen = (steps_a[keep].min() * 0.9, steps_a[keep].max() * 1.1)
    clamped = np.clip(out, *seen)
    if log_size is None or not settings.UNITS_BY_SIZE:
        return clamped
    # Past the pairs measured (melds at the row's near end, nearer the camera and larger),
    # the pitch follows the tiles' own size trend in their section from the last pitch seen.
    lo, hi = float(mids_a[keep].min()), float(mids_a[keep].max())
    cap = settings.UNITS_BY_SIZE
    out = clamped.copy()
    for part in parts:
        if len(part) < 3:
            continue
        trend = np.polyfit(pos[part], log_size[part], 1)
        for k in part:
            if lo <= pos[k] <= hi:
                continue
            edge = lo if pos[k] < lo else hi
            edge_pitch = float(np.clip(np.polyval(coef, edge), *seen))
            ratio = math.exp(float(np.polyval(trend, pos[k]) - np.polyval(trend, edge)))
            out[k] = edge_pitch * min(max(ratio, 1 / cap), cap)
    return out


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
        again = residual < math.log(settings.SIDEWAYS_LIMITS[0])
        if again.sum() < 3 or (again == upright).all():
            break
        upright = again
    return residual


def _sideways_threshold(rel_log: np.ndarray) -> float:
    """The ratio factor above which a tile is sideways: between the two clusters of
    relative ratios when the row shows two, else :data:`SIDEWAYS_FACTOR`."""
    values = np.sort(rel_log)
    if len(values) < 3:
        return settings.SIDEWAYS_FACTOR
    best_split, best_cost = 1, math.inf
    for k in range(1, len(values)):
        lo, hi = values[:k], values[k:]
        cost = float(((lo - lo.mean()) ** 2).sum() + ((hi - hi.mean()) ** 2).sum())
        if cost < best_cost:
            best_split, best_cost = k, cost
    lo, hi = values[:best_split], values[best_split:]
    if hi.mean() - lo.mean() > math.log(1.3):
        mid = math.exp((float(lo.max()) + float(hi.min())) / 2)
        return min(max(mid, settings.SIDEWAYS_LIMITS[0]), settings.SIDEWAYS_LIMITS[1])
    return settings.SIDEWAYS_FACTOR


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
    ext = np.where(geo.sideways, geo.units * settings.SIDEWAYS_LENGTH, geo.units)
    out = [0.0]
    for a, b in itertools.pairwise(order):
        dist = abs(float(geo.positions[b] - geo.positions[a]))
        out.append((dist - (ext[a] + ext[b]) / 2) / ((geo.units[a] + geo.units[b]) / 2))
    return out
