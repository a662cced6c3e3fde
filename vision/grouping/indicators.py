"""Step 7: indicator bands above the hand (dora, then ura), told apart from rivers,
walls and dead walls."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace

import numpy as np

from vision.grouping import indicator_scorer, settings
from vision.grouping.memo import remembered
from vision.grouping.row_geometry import RowGeometry
from vision.grouping.values import Detection, Grouping, GroupingWarning
from vision.rows import centres_of, extent_on, sizes_of


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
    #: The run's place across the table (pixels beyond the hand's line, median) and its
    #: face-up tiles' depth across it (pixels, median).
    rise_px: float = 0.0
    depth_px: float = 0.0
    #: The face-up tiles' size (median) in the hand tiles' size.
    size: float = 1.0
    #: Centre steps between consecutive face-up tiles in their boxes' mean extent along the
    #: run: about 0.7-1 for touching tiles, more across a space.
    gaps: tuple[float, ...] = ()
    #: A dead wall's line split out of a block of rows seen from low down
    #: (:func:`_split_into_lines`).
    from_block: bool = False


@dataclass(frozen=True, slots=True)
class Candidates:
    """One reading's candidate dora runs and their measurements (training the scorer)."""

    members: tuple[int, ...]
    up: tuple[float, ...]
    ura_allowed: bool
    pool: list[_Run]
    table: np.ndarray
    rule: _Run | None


@dataclass(frozen=True, slots=True)
class UraCandidates:
    """One reading's dora and its candidate ura runs with their measurements (training the
    ura scorer)."""

    members: tuple[int, ...]
    up: tuple[float, ...]
    dora: tuple[int, ...]
    pool: list[_Run]
    table: np.ndarray


#: Set to a list to collect every reading's :class:`Candidates` (the scorer's training data,
#: :mod:`vision.grouping.scorer_training`); None at run time.
TRACE: ContextVar[list[Candidates] | None] = ContextVar("indicator_trace", default=None)

#: ... and every reading's :class:`UraCandidates` (the ura scorer's training data).
URA_TRACE: ContextVar[list[UraCandidates] | None] = ContextVar("ura_trace", default=None)


def _median(values: np.ndarray) -> float:
    """``np.median``, without its overhead for the short arrays here (a run's few tiles; a
    whole table's loose tiles are runs of one, and the runs are built for every reading):
    the same value, sorted in Python below 16 values."""
    n = len(values)
    if n == 1:
        return float(values[0])
    if n < 16:
        s = sorted(values.tolist())
        return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return float(np.median(values))


def _root(parent: dict[int, int], k: int) -> int:
    """``k``'s group in a union-find forest (paths halved on the way)."""
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


def _over(a: _Run, b: _Run) -> bool:
    """``a`` lies over ``b``'s stretch along the hand (half a tile's slack either end)."""
    return a.start < b.end + 0.5 and a.end > b.start - 0.5


def _apart(a: _Run, b: _Run) -> bool:
    """``a`` lies beside ``b`` along the hand, clear of its stretch by half a tile."""
    return a.start > b.end + 0.5 or a.end < b.start - 0.5


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
    depth = extent_on(boxes, up)
    # ... and their extent along it (hand tile widths): spaces between tiles in their own width.
    extent = extent_on(boxes, d) / geo.unit
    beyond = [
        k
        for k in range(len(others))
        if lo <= along[k] <= hi and rel[k] @ up > 0 and not dets[others[k]].face_down
    ]
    scale = geo.height
    if len(beyond) >= settings.FLAT_DEPTH_TILES:
        scale = max(scale, settings.FLAT_DEPTH_SHARE * float(np.median(depth[beyond])))
    height = (rel @ up) / scale
    clear = (rel @ up) / geo.height  # beyond the hand row itself: in its own tiles' depth
    # Runs reaching into the hand's stretch are followed beyond it (ura laid beside the dora
    # can end far right of the hand): tiles further along join only by linking to them.
    near = [
        k
        for k in range(len(others))
        if lo - settings.RUN_BEYOND <= along[k] <= hi + settings.RUN_BEYOND
        and clear[k] > 0.5
        and height[k] < settings.INDICATOR_REACH + 2 * settings.URA_REACH
    ]
    parent = {k: k for k in near}
    # Spacing in tiles of the pair's own size (rows nearer the camera look bigger).
    sizes = sizes_of(np.array([dets[i].box for i in others], dtype=float))
    hand_size = float(np.median(sizes_of(np.array([dets[i].box for i in geo.members]))))
    # Every pair at once (a whole-table photo has ~150 tiles here, and the what-if scores
    # group the photo again for each uncertain tile): the same test as pair by pair.
    pair_a, pair_b = np.triu_indices(len(near), 1)
    a, b = np.asarray(near, dtype=int)[pair_a], np.asarray(near, dtype=int)[pair_b]
    scale = np.maximum(1.0, (sizes[a] + sizes[b]) / 2 / hand_size)
    # Side by side on one line: one tile right on top of another (an ura on its dora,
    # seen from low down) is no neighbour.
    distance = np.abs(along[a] - along[b])
    step = distance * 2 * hand_size / (sizes[a] + sizes[b])
    # ... or boxes overlapping along the hand, whatever their size says (EXTENT_LINK).
    overlap = distance * 2 / np.maximum(extent[a] + extent[b], 1e-6)
    linked = (
        (np.abs(height[a] - height[b]) < 0.2)
        & ((distance < 1.25 * scale) | (overlap < settings.EXTENT_LINK))
        & (step > settings.RUN_MIN_STEP)
    )
    links = (a[linked].tolist(), b[linked].tolist())
    for i, j in zip(*links, strict=True):
        parent[_root(parent, i)] = _root(parent, j)
    groups: dict[int, list[int]] = {}
    for k in near:
        groups.setdefault(_root(parent, k), []).append(k)
    face_down = [dets[i].face_down for i in others]
    lines = (
        _split_into_lines(groups, links, along, height, sizes / hand_size, face_down)
        if settings.RUN_LINES
        else [(members, False) for members in groups.values()]
    )
    if settings.WALL_ENDS_APART:
        lines = [
            (part, split_out)
            for members, split_out in lines
            for part in _wall_ends_apart(members, along, face_down)
        ]
    if settings.RUN_CONTINUE:
        lines = _continued_lines(
            lines, centres, sizes, face_down, along, settings.RUN_CONTINUE_STEP
        )
    runs = []
    for members, split_out in lines:
        if not any(lo <= along[k] <= hi for k in members):
            continue
        members.sort(key=lambda k: along[k])
        up_members = [k for k in members if not dets[others[k]].face_down] or members
        runs.append(
            _Run(
                dets=tuple(others[k] for k in members),
                face_up=tuple(others[k] for k in members if not dets[others[k]].face_down),
                height=_median(height[members]),
                start=float(along[up_members[0]]),
                end=float(along[up_members[-1]]),
                steps=tuple(
                    float(along[b] - along[a]) * 2 * hand_size / float(sizes[a] + sizes[b])
                    for a, b in itertools.pairwise(up_members)
                ),
                places=tuple(float(along[k]) for k in up_members),
                rise_px=_median((rel @ up)[members]),
                depth_px=_median(depth[up_members]),
                size=_median(sizes[up_members]) / hand_size,
                gaps=tuple(
                    float(along[b] - along[a]) * 2 / max(float(extent[a] + extent[b]), 1e-6)
                    for a, b in itertools.pairwise(up_members)
                ),
                from_block=split_out,
            )
        )
    runs.sort(key=lambda r: r.height)
    return runs


def _continued_lines(
    lines: list[tuple[list[int], bool]],
    centres: np.ndarray,
    sizes: np.ndarray,
    face_down: Sequence[bool],
    along: np.ndarray,
    step: tuple[float, float],
) -> list[tuple[list[int], bool]]:
    """Face-up lines joined where one carries the other on in the photo: the next tile's
    centre lies on the first line's own direction, one of its steps on (in the pair's size,
    within ``step``: :data:`~vision.grouping.settings.RUN_CONTINUE_STEP`) and at most
    :data:`~vision.grouping.settings.RUN_CONTINUE_ACROSS` of a tile off it, together at most
    five tiles. Seen close and from one side, perspective turns a row of indicators away
    from the hand's own direction: its nearer tiles climb across the table past the links'
    reach, and the row breaks in two (four dora and the fifth read apart).

    >>> c = np.array([[0.0, 0.0], [10.0, 1.0], [20.0, 2.5], [31.0, 4.5], [80.0, 9.0]])
    >>> s = np.full(5, 9.0)
    >>> _continued_lines([([0, 1, 2], False), ([3], False), ([4], False)], c, s,
    ...                  [False] * 5, c[:, 0], (0.8, 1.3))
    [([0, 1, 2, 3], False), ([4], False)]
    """
    lo, hi = step
    out = [(list(m), split) for m, split in lines]
    merged = True
    while merged:
        merged = False
        for i, (a, a_split) in enumerate(out):
            a = sorted(a, key=lambda k: along[k])
            ups = sum(not face_down[k] for k in a)
            if len(a) < 2:
                continue
            for j, (b, b_split) in enumerate(out):
                if (
                    j == i
                    or b_split
                    or any(face_down[k] for k in b)
                    or ups + len(b) > settings.RUN_CONTINUE_MAX
                ):
                    continue
                b = sorted(b, key=lambda k: along[k])
                if along[b[0]] > along[a[-1]]:
                    end, prev, nxt = a[-1], a[-2], b[0]
                elif along[b[-1]] < along[a[0]]:
                    end, prev, nxt = a[0], a[1], b[-1]
                else:
                    continue
                if face_down[end] or face_down[prev]:
                    continue
                v = centres[end] - centres[prev]
                pitch = float(np.hypot(*v))
                if pitch <= 0:
                    continue
                u = v / pitch
                d = centres[nxt] - centres[end]
                on = float(d @ u)
                off = abs(float(d[0] * u[1] - d[1] * u[0]))
                # The step grows (or shrinks) with the tiles' size in the photo.
                grow = (sizes[end] + sizes[nxt]) / (sizes[prev] + sizes[end])
                if lo * pitch * grow <= on <= hi * pitch * grow and off <= (
                    settings.RUN_CONTINUE_ACROSS * float(sizes[nxt])
                ):
                    out[i] = (sorted(a + b, key=lambda k: along[k]), a_split)
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _split_into_lines(
    groups: dict[int, list[int]],
    links: tuple[list[int], list[int]],
    along: np.ndarray,
    height: np.ndarray,
    sizes: np.ndarray,
    face_down: Sequence[bool],
) -> list[tuple[list[int], bool]]:
    """Groups of linked tiles that are not one line (two of their tiles side by side across
    the table), split into lines: each tile keeps only its nearest neighbour across the
    table on either side along, when that one keeps it too. ``sizes`` in the hand tiles'
    size.

    Seen from low down, the rows beyond the hand (a wall, a dead wall's tiers, the rivers)
    lie closer across the table than the links' reach, and chain into one block: a dead
    wall's indicators then hide in a run of dozens of tiles and are never a candidate."""

    def step(p: int, q: int) -> float:
        """The centre step along from ``p`` to ``q``, in the pair's own size."""
        return float(abs(along[q] - along[p]) * 2 / (sizes[p] + sizes[q]))

    out: list[tuple[list[int], bool]] = []
    for members in groups.values():
        order = sorted(members, key=lambda k: along[k])
        steps = [step(p, q) for p, q in itertools.pairwise(order)]
        if len(members) < 3 or min(steps) > settings.RUN_MIN_STEP:
            out.extend(_one_line_parts(order, height, face_down))
            continue
        inside = set(members)
        best: dict[tuple[int, int], tuple[float, int]] = {}  # (tile, side) -> (cost, other)
        for p, q in zip(*links, strict=True):
            if p not in inside:
                continue
            if step(p, q) > settings.RUN_LINE_STEP:
                continue  # a space along the line: its tiles touch
            cost = abs(float(height[p] - height[q])) + settings.RUN_LINE_ALONG * abs(
                float(along[p] - along[q])
            )
            side = 1 if along[q] > along[p] else -1
            for t, o, sd in ((p, q, side), (q, p, -side)):
                if (t, sd) not in best or cost < best[(t, sd)][0]:
                    best[(t, sd)] = (cost, o)
        parent = {k: k for k in members}
        for (t, sd), (_, o) in best.items():
            if sd == 1 and best.get((o, -1), (0.0, -1))[1] == t:
                parent[_root(parent, t)] = _root(parent, o)
        lines: dict[int, list[int]] = {}
        for k in members:
            lines.setdefault(_root(parent, k), []).append(k)
        rest: list[int] = []
        for line in lines.values():
            line.sort(key=lambda k: along[k])
            # A dead wall's indicators lie between its face-down stacks (the third from its
            # end, kan dora beside it): face-up tiles at a line's end are discards by a wall.
            inner = _between_stacks(line, face_down)
            if settings.RUN_LINES_WALLED:
                dead_wall = inner == line
            else:
                ups = sum(not face_down[k] for k in line)
                dead_wall = 0 < ups <= settings.MAX_INDICATORS < len(line)
            if not settings.RUN_LINES_DEAD_WALL or dead_wall:
                out.append((line, True))
                continue
            # ... save when all five are turned (four kans): they fill the wall from its third
            # stack to its last, after two face-down stacks (tiles beyond those: discards).
            wall = _five_to_the_end(line, face_down)
            if wall is None and settings.RUN_LINES_BETWEEN_STACKS:
                wall = inner  # ... or with discards lying on past its end stacks
            if wall is not None:
                out.append((wall, True))
                rest.extend(k for k in line if k not in wall)
            else:
                rest.extend(line)
        if rest:
            out.append((rest, False))
    return out


def _one_line_parts(
    order: list[int], height: np.ndarray, face_down: Sequence[bool]
) -> list[tuple[list[int], bool]]:
    """A group of linked tiles (sorted along) with no two side by side across the table,
    as runs: a dead wall's two stacks and five indicators with discards lying on past them
    (:func:`_five_to_the_end`) leave it, and so does a row of indicators with the same
    number of ura just beyond it (:func:`_staggered_rows`); otherwise the group is one run.
    """
    if settings.RUN_ONE_LINE_FIVE:
        wall = _five_to_the_end(order, face_down)
        if wall is not None and len(wall) < len(order):
            return [(wall, False), ([k for k in order if k not in wall], False)]
    if settings.RUN_STAGGERED_ROWS:
        rows = _staggered_rows(order, height, face_down)
        if rows is not None:
            return [(rows[0], False), (rows[1], False)]
    return [(order, False)]


def _staggered_rows(
    order: list[int], height: np.ndarray, face_down: Sequence[bool]
) -> tuple[list[int], list[int]] | None:
    """Two rows of as many face-up tiles (two to five) that alternate along, the nearer row
    lower across the table than every tile of the further one by more than
    :data:`~vision.grouping.settings.STAGGER_GAP` times either row's own spread: dora and
    their ura just beyond them, seen from low down and from one side, where the ura row
    slides half a tile along and the two link into one line. None: not such a pair.

    >>> h = np.array([0.69, 0.57, 0.67, 0.56, 0.66, 0.55])
    >>> _staggered_rows([0, 1, 2, 3, 4, 5], h, [False] * 6)
    ([1, 3, 5], [0, 2, 4])
    >>> _staggered_rows([0, 1, 2, 3], np.array([0.6, 0.61, 0.6, 0.62]), [False] * 4) is None
    True
    """
    k = len(order) // 2
    if len(order) % 2 or not 2 <= k <= settings.MAX_INDICATORS or any(face_down[i] for i in order):
        return None
    by_height = sorted(order, key=lambda i: height[i])
    low, high = set(by_height[:k]), set(by_height[k:])
    gap = float(height[by_height[k]] - height[by_height[k - 1]])
    spread = max(
        float(height[by_height[k - 1]] - height[by_height[0]]),
        float(height[by_height[-1]] - height[by_height[k]]),
    )
    alternate = all((a in low) != (b in low) for a, b in itertools.pairwise(order))
    if not alternate or gap <= settings.STAGGER_GAP * spread or gap < settings.STAGGER_MIN:
        return None
    return [i for i in order if i in low], [i for i in order if i in high]


def _five_to_the_end(line: Sequence[int], face_down: Sequence[bool]) -> list[int] | None:
    """The dead wall in a line (sorted along) holding five face-up tiles after two face-down
    ones (every indicator of four kans turned, from the wall's third stack to its last),
    either way round, where the five reach one end of the line or the two stacks are its
    end (face-up tiles past the wall's last stack are discards lying on beyond it); None
    when the line holds no such wall.

    >>> _five_to_the_end([9, 0, 1, 2, 3, 4, 5, 6], [1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    [0, 1, 2, 3, 4, 5, 6]
    >>> _five_to_the_end([0, 1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, 1, 1])
    [0, 1, 2, 3, 4, 5, 6]
    >>> _five_to_the_end([0, 1, 2, 3, 4, 5, 6, 7], [1, 1, 0, 0, 0, 0, 0, 0])  # a discard past
    [0, 1, 2, 3, 4, 5, 6]
    >>> _five_to_the_end([0, 1, 2, 3, 4, 5], [1, 0, 0, 0, 0, 0]) is None  # one stack only
    True
    """
    n = settings.MAX_INDICATORS + 2
    wall = [True, True] + [False] * (n - 2)
    starts = []
    if settings.RUN_LINES_FIVE_AT_END:
        starts.append(len(line) - n)  # the five reach the line's end
    if settings.RUN_LINES_FIVE_PAST_END:
        starts.append(0)  # the two stacks are the line's end, discards may lie past the five
    for seq, back in ((list(line), False), (list(line)[::-1], True)):
        for start in starts:
            part = seq[start : start + n]
            if start >= 0 and [bool(face_down[k]) for k in part] == wall:
                return part[::-1] if back else part
    return None


def _between_stacks(line: Sequence[int], face_down: Sequence[bool]) -> list[int] | None:
    """The stretch of a line (sorted along) from its first face-down tile to its last, when
    it holds between one and five face-up tiles and more tiles than that (a dead wall's
    stacks with its indicators between them; the line's face-up tiles past them are
    discards lying on beyond its ends); None otherwise. The whole line when both its ends
    are face down: the wall the line is.

    >>> _between_stacks([0, 1, 2, 3, 4, 5, 6, 7], [1, 1, 0, 1, 1, 1, 1, 0])
    [0, 1, 2, 3, 4, 5, 6]
    >>> _between_stacks([0, 1, 2, 3], [1, 0, 0, 1]) is None  # no more tiles than five
    True
    >>> _between_stacks([0, 1, 2, 3, 4, 5, 6], [0, 1, 1, 1, 1, 1, 1]) is None  # none between
    True
    """
    down = [n for n, k in enumerate(line) if face_down[k]]
    if not down:
        return None
    inner = list(line[down[0] : down[-1] + 1])
    ups = sum(not face_down[k] for k in inner)
    if 0 < ups <= settings.MAX_INDICATORS < len(inner):
        return inner
    return None


def _wall_ends_apart(
    members: list[int], along: np.ndarray, face_down: Sequence[bool]
) -> list[list[int]]:
    """A run of face-down tiles with face-up ones between them (a dead wall's indicators) and
    more face-up ones beyond its end stacks, at most five face-up tiles in all (more: a
    river's rows with wall tiles among them): those beyond are discards lying on past the
    wall's end (indicators lie between its stacks, the third from its end), a run of their
    own.

    >>> _wall_ends_apart([0, 1, 2, 3, 4, 5], np.arange(6.0), [0, 0, 1, 0, 1, 1])
    [[0, 1], [2, 3, 4, 5]]
    >>> _wall_ends_apart([0, 1, 2], np.arange(3.0), [0, 1, 1])  # no indicator between stacks
    [[0, 1, 2]]
    """
    order = sorted(members, key=lambda k: along[k])
    down = [n for n, k in enumerate(order) if face_down[k]]
    if not down or len(order) - len(down) > settings.MAX_INDICATORS:
        return [members]  # no wall, or a river's rows with wall tiles among them
    first, last = down[0], down[-1]
    inner = order[first : last + 1]
    if all(face_down[k] for k in inner) or (first == 0 and last == len(order) - 1):
        return [members]
    return [part for part in (order[:first], inner, order[last + 1 :]) if part]


@remembered
def _indicator_bands(
    geo: RowGeometry,
    dets: Sequence[Detection],
    others: Sequence[int],
    up: np.ndarray,
    *,
    ura_allowed: bool = True,
    dora_as: tuple[int, ...] | None = None,
) -> tuple[list[list[int]], list[GroupingWarning], list[list[list[int]]]]:
    """Dora and ura indicators above the hand (``up`` a unit vector): ``[dora, ura]``, the
    warnings, and other readings (each ``[dora, ura]``) the learned scorers give a fair
    chance (:data:`~vision.grouping.settings.INDICATOR_ALTERNATIVE`): offered to the user as
    alternatives, never taken.

    ``dora_as``: read the ura against these dora (a run above the hand holding exactly these
    face-up tiles; ``()``: no dora) instead of choosing the dora; how an alternative reading's
    ura are found. Warnings of such a reading say what they would of the hand taken that way.

    ``ura_allowed`` False: the hand has called melds, so it cannot have won with riichi and
    no ura indicators are turned over for it; no run is read as ura (a run beside or above
    the dora is then discards, or more dora).

    The dora are the nearest run of face-up tiles (at most :data:`MAX_INDICATORS`) within
    :data:`INDICATOR_REACH` tile heights; a run of six or more is discards and ends the
    search. The ura are a run beside the dora on their right, or the nearest run above
    them within :data:`URA_REACH` (or, further, within
    :data:`~vision.grouping.settings.URA_OWN_RISE` of the rows' own depth) over the same
    stretch, holding as many tiles as the dora (one ura under each dora indicator). A short
    run under a longer one that starts where it starts (itself a river row), at the river's
    row spacing and touching it (:data:`~vision.grouping.settings.RIVER_END_RISE`), is the
    river's last row: not indicators, and the search goes on beyond it
    (``possible_indicators`` names it).
    Face-up tiles beyond a wall (face-down tiles between them and the hand) are discards, and
    so are runs in a block of face-up tiles less than about half a tile's depth apart across
    the table (:data:`~vision.grouping.settings.CROWD_RISE`; indicators lie apart).
    """
    if not others:
        return [], [], []
    runs = _runs_above(geo, dets, others, up)

    def row_above(run: _Run) -> _Run | None:
        """The nearest face-up run above ``run``, over its stretch, starting where it starts."""
        above = [
            o for o in runs if o.face_up and 0.1 < o.height - run.height < 1.4 and _over(o, run)
        ]
        if not above:
            return None
        nxt = min(above, key=lambda o: o.height)
        aligned = abs(nxt.start - run.start) < settings.RIVER_ALIGN
        return nxt if aligned and len(nxt.dets) == len(nxt.face_up) else None

    def is_river(run: _Run) -> bool:
        if len(run.face_up) > settings.MAX_INDICATORS:
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
        if nxt.rise_px - run.rise_px > settings.RIVER_END_RISE * run.depth_px:
            return False  # a clear space between them: the river's rows touch
        top = row_above(nxt)
        # Two rows as long as each other over it, at one spacing (checked below): a river
        # whose rows show only so many tiles (the rest hidden or cut off), not indicators
        # (RIVER_EQUAL_ROWS): the run cannot be dora under as many ura. Rows growing away
        # from the hand are no river's (only its last row is short).
        equal_rows = (
            settings.RIVER_EQUAL_ROWS and top is not None and len(top.face_up) == len(nxt.face_up)
        )
        if len(nxt.face_up) <= settings.MAX_INDICATORS and not equal_rows and not river_end(nxt):
            return False
        if top is not None and len(top.face_up) >= len(nxt.face_up):
            rise = nxt.height - run.height
            return (
                rise
                < settings.RIVER_PITCH_SPREAD * (top.height - nxt.height)
                + settings.RIVER_PITCH_NOISE
            )
        return True

    # A player's wall stands between their hand and the river: face-up tiles beyond a row of
    # face-down tiles that lies between them and the hand are discards (indicators are
    # turned up on the wall itself, or laid out before it).
    walls = [w for w in runs if not w.face_up and len(w.dets) >= settings.WALL_TILES]

    def behind_wall(run: _Run) -> bool:
        return not _dead_wall(run) and any(
            w.height < run.height - settings.WALL_RISE and _over(w, run) for w in walls
        )

    def close(a: _Run, b: _Run) -> bool:
        # Face-up runs over one stretch, their rows less than about half their tiles' own
        # depth apart across the table: no two rows laid apart (rows of a river touch, a
        # row's centres lie a whole row step further). As many tiles starting together
        # aside: ura on their dora, seen from low down.
        return (
            _over(a, b)
            and abs(a.rise_px - b.rise_px) < settings.CROWD_RISE * (a.depth_px + b.depth_px) / 2
            and not (
                len(a.face_up) == len(b.face_up) and abs(a.start - b.start) < settings.URA_ALIGN
            )
        )

    def crowded(run: _Run) -> bool:
        # Part of a block of discards laid messily: another face-up run close to it.
        return any(o is not run and o.face_up and close(run, o) for o in runs)

    face_up_runs = [o for o in runs if o.face_up]
    face_up_total = sum(len(o.face_up) for o in face_up_runs)

    def clear_beyond(run: _Run, besides: Sequence[_Run] = ()) -> float:
        """How far (depths) the next face-up run lies beyond ``run``; minus infinity when one
        lies no further than it (``run`` is not the nearest), infinity when none. A run just
        above it of as many tiles starting where it starts (its ura), and ``besides`` (runs
        level with it), do not count."""
        rises = [
            o.height - run.height
            for o in face_up_runs
            if o is not run
            and not any(o is b for b in besides)
            and not (
                len(o.face_up) == len(run.face_up) == len(o.dets)
                and abs(o.start - run.start) < settings.URA_ALIGN
                and 0 < o.height - run.height < settings.URA_REACH
            )
        ]
        if any(r <= 0 for r in rises):
            return -math.inf
        return min(rises, default=math.inf)

    span = geo.positions * float(np.sign(np.array([-up[1], up[0]]) @ np.array(geo.direction)))
    span_lo, span_hi = float(span.min() / geo.unit), float(span.max() / geo.unit)

    @functools.cache  # both scorers measure the same tiles' shapes
    def shapes() -> dict[int, float]:
        """Each face-up tile's shape (along over across, log) against the others': a discard
        laid sideways (a riichi) stands out of a row of upright ones, indicators lie upright."""
        ups = [i for i in others if not dets[i].face_down]
        if not ups:
            return {}
        b = np.array([dets[i].box for i in ups], dtype=float)
        ratio = np.log(extent_on(b, (up[1], up[0])) / extent_on(b, up))
        return dict(zip(ups, (ratio - float(np.median(ratio))).tolist(), strict=True))

    def features(run: _Run, rule: _Run | None, shape: dict[int, float]) -> list[float]:
        """The candidate dora run's measurements, as :data:`indicator_scorer.FEATURES` names
        them (plain floats: this runs for every candidate of every reading)."""
        n = len(run.face_up)
        big = settings.MAX_INDICATORS
        ups = [o for o in face_up_runs if o is not run and _over(o, run)]
        below = [o for o in ups if o.height < run.height - 0.1]
        above = [o for o in ups if o.height > run.height + 0.1]
        nxt = min(above, key=lambda o: o.height) if above else None
        prv = max(below, key=lambda o: o.height) if below else None
        depth = max(run.depth_px, 1e-6)
        level = [
            o
            for o in face_up_runs
            if o is not run
            and abs(o.height - run.height) < 0.3
            and not _over(o, run)
            and abs(o.start - run.start) < 12
        ]
        rise_up = (nxt.rise_px - run.rise_px) / depth if nxt else 6.0
        rise_down = (run.rise_px - prv.rise_px) / depth if prv else run.rise_px / depth
        steps = run.steps or (1.0,)
        stray = sum(
            len(o.face_up)
            for o in face_up_runs
            if o is not run
            and max(0.0, o.start - run.end, run.start - o.end) < settings.STRAY_NEAR
            and abs(o.height - run.height) < settings.STRAY_NEAR
        )
        return [
            1.0,
            float(run is rule),
            float(rule is None),
            max(abs(shape.get(i, 0.0)) for i in run.face_up),
            min(stray, 6) / 6,
            min(run.height, 4.0) / 4,
            max(run.height - 4.0, 0.0) / 2,
            *(float(n == k) for k in range(1, big + 1)),
            float(_dead_wall(run)),
            float(is_river(run)),
            float(behind_wall(run)),
            float(crowded(run)),
            float(bool(below)),
            min(len(below), 3) / 3,
            float(any(not w.face_up and w.height < run.height and _over(w, run) for w in runs)),
            float(any(o.end < run.start for o in level)),
            float(any(o.start > run.end for o in level)),
            float(any(len(o.face_up) > big for o in level)),
            float(nxt is not None),
            min(rise_up, 6.0) / 6,
            float(nxt is not None and len(nxt.face_up) > n),
            float(nxt is not None and len(nxt.face_up) == n and abs(nxt.start - run.start) < 1.1),
            min(rise_down, 6.0) / 6,
            float(prv is not None and len(prv.face_up) > big),
            min(max(run.start - span_lo, -10.0), 10.0) / 10,
            min(max(run.end - span_hi, -10.0), 10.0) / 10,
            math.log(max(run.size, 0.1)),
            sum(steps) / len(steps) - 1.0,
            max(steps) - min(steps),
            math.log1p(face_up_total) / 5,
            float(any(len(o.face_up) > big for o in face_up_runs)),
        ]

    def level_with(r: _Run, first: _Run) -> bool:
        """``r`` lies level with ``first`` and beside it, not over the same stretch (a run
        just above is ura, not dora), and is no river: a run the dora may be read among."""
        return abs(r.height - first.height) < 0.3 and not is_river(r) and _apart(r, first)

    def beside_river(river: _Run, rest: list[_Run]) -> _Run | None:
        """The nearest short run of face-up tiles alone beside the river row ``river`` (clear
        of its stretch) and about level with it (:data:`RIVER_ASIDE_RISE`), with no face-up
        tiles between it and the hand and none close around: dora laid beside the player's
        river. None: none such (or the rule off)."""
        if settings.RIVER_ASIDE_RISE <= 0:
            return None
        found = [
            r
            for r in rest
            if 0 < len(r.face_up) <= settings.MAX_INDICATORS
            and len(r.dets) == len(r.face_up)
            and _apart(r, river)
            and abs(r.height - river.height) < settings.RIVER_ASIDE_RISE
            and not is_river(r)
            and not crowded(r)
            and not any(
                o is not r and o.face_up and o.height < r.height and _over(o, r) for o in runs
            )
        ]
        return min(found, key=lambda r: r.height) if found else None

    def rule_dora() -> tuple[_Run | None, list[_Run], list[GroupingWarning]]:
        """The dora as the rules read them (None: none), the runs level with them, and
        the warnings so far."""
        warnings: list[GroupingWarning] = []
        candidates = [
            r
            for r in runs
            if r.face_up
            and (
                r.height <= settings.INDICATOR_REACH
                or (_dead_wall(r) and r.height <= settings.DEAD_WALL_REACH)
            )
        ]
        crowd: list[int] = []
        while (
            candidates
            and len(candidates[0].face_up) <= settings.MAX_INDICATORS
            and crowded(candidates[0])
            # face-up tiles among face-down ones lie on a dead wall, never in a block of
            # discards (a river row just beyond it can come that close across)
            and not (settings.CROWD_SPARES_DEAD_WALL and _dead_wall(candidates[0]))
        ):
            crowd.extend(candidates[0].face_up)
            candidates = candidates[1:]
        if crowd:
            warnings.append(
                GroupingWarning(
                    "possible_indicators",
                    "face-up tiles lying among other face-up tiles, less than a tile's depth from "
                    "them across the table (a block of discards), were not read as dora indicators",
                    tuple(crowd),
                )
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
                    0 < len(r.face_up) <= settings.MAX_INDICATORS
                    and r.height <= settings.FAR_INDICATOR_REACH
                    and not is_river(r)
                )
            ]
            lone = [r for r in far if len(r.dets) == len(r.face_up)]
            nearest = min(lone, key=lambda r: r.height) if lone else None
            # runs level with it beside it (dora and ura laid side by side): the left is the dora
            beside = [r for r in lone if r is not nearest and level_with(r, nearest)]
            if (
                settings.FAR_LONE_RUN
                and nearest is not None
                and (
                    (len(lone) == 1 and len(nearest.face_up) == face_up_total)
                    or (
                        # five would need four kans called: a river's first row, more likely
                        all(len(r.face_up) < settings.MAX_INDICATORS for r in (nearest, *beside))
                        and len(beside) <= settings.FAR_NEAREST_BESIDE
                        and clear_beyond(nearest, beside) > settings.FAR_NEAREST_CLEAR
                    )
                )
                and not _dead_wall(nearest)
                and not behind_wall(nearest)
            ):
                # The only face-up tiles above the hand (or the nearest, the rest well beyond
                # them: FAR_NEAREST_CLEAR), a short run just beyond the reach
                # (the hand's depth, standing tiles seen from low down, understates how far
                # flat tiles lie): nothing else there to be the indicators. Named. Beyond a
                # player's wall it stays a discard (the wall stands between it and the hand).
                level = [nearest, *beside]  # beside is empty for the lone run
                return (
                    min(level, key=lambda r: r.start),
                    level,
                    [
                        GroupingWarning(
                            "possible_indicators",
                            "the nearest face-up tiles above the hand, well short of any others, "
                            "lie a little beyond the reach of indicators: they are read as the "
                            "dora indicators",
                            tuple(i for r in level for i in r.face_up),
                        )
                    ],
                )
            if far:
                return (
                    None,
                    [],
                    [
                        GroupingWarning(
                            "possible_indicators",
                            "face-up tiles beyond the reach of indicators (or on a dead wall far "
                            "beyond the hand) were not read as dora indicators",
                            tuple(i for r in far for i in r.face_up),
                        )
                    ],
                )
            return None, [], []

        def continues(run: _Run, end: _Run) -> bool:
            """``run`` carries on the river row ``end`` (level with it, next to it along)."""
            gap = max(run.start - end.end, end.start - run.end)
            return abs(run.height - end.height) < 0.3 and gap < settings.RIVER_ROW_GAP

        while (
            candidates
            and is_river(candidates[0])
            and len(candidates[0].face_up) <= settings.MAX_INDICATORS
        ):
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
                if not (is_river(r) and len(r.face_up) <= settings.MAX_INDICATORS)
                and not continues(r, end)
            ]
        if not candidates:
            return None, [], warnings
        if ura_allowed and settings.URA_SPLIT_LONG and _split_beside(candidates[0]) is not None:
            # Six to ten face-up tiles alone, the middle step clearly the widest: dora and
            # ura laid in one line, as many of each (a river's row steps evenly); split
            # below, named ``ura_beside_dora``.
            return candidates[0], [candidates[0]], warnings
        if is_river(candidates[0]):
            if len(candidates[0].face_up) > settings.MERGED_ROWS or len(candidates[0].dets) > len(
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
                return None, [], warnings
            aside = beside_river(candidates[0], candidates[1:])
            if aside is None:
                return None, [], warnings
            warnings.append(
                GroupingWarning(
                    "possible_indicators",
                    "a river's row lies nearer the hand than the tiles read as dora indicators, "
                    "which lie beside it: they could be discards too",
                    (*aside.face_up, *candidates[0].face_up),
                )
            )
            return aside, [aside], warnings
        # Of runs side by side at the nearest height, the dora are the left one.
        first = candidates[0]
        level = [r for r in candidates if r is first or level_with(r, first)]
        dora = min(level, key=lambda r: r.start)
        return dora, level, warnings

    def level_of(first: _Run) -> list[_Run]:
        """Runs beside ``first`` at its height (as the rules gather them)."""
        return [
            r
            for r in runs
            if r is first
            or (r.face_up and r.height <= settings.INDICATOR_REACH and level_with(r, first))
        ]

    def rescored(
        pool: list[_Run], scores: np.ndarray, dora: _Run | None, warnings: list[GroupingWarning]
    ) -> tuple[_Run | None, list[GroupingWarning]]:
        """The scorer's second opinion on the rules' dora (None: no dora)."""
        options: list[_Run | None] = [*pool, None]
        rule = next((k for k, r in enumerate(pool) if r is dora), len(pool))
        taken, rival = _second_opinion(
            scores, rule, settings.SCORER_OVERRIDE, settings.SCORER_DOUBT
        )
        if taken != rule:
            new = options[taken]
            taken = set(new.face_up) if new is not None else set()
            # the rules' notes that these tiles are not indicators no longer hold
            warnings = [
                w
                for w in warnings
                if not (w.code == "possible_indicators" and set(w.detections) <= taken)
            ]
            warnings.append(
                GroupingWarning(
                    "possible_indicators",
                    "the layout rules and the learned indicator scorer read the dora indicators "
                    "differently; the scorer's reading, clearly ahead, is taken",
                    tuple(i for r in (dora, new) if r is not None for i in r.face_up),
                )
            )
            return new, warnings
        if rival is not None:
            named = tuple(i for k in (rule, rival) if options[k] for i in options[k].face_up)
            if named:
                warnings.append(
                    GroupingWarning(
                        "possible_indicators",
                        "the learned indicator scorer finds another reading of the dora "
                        "indicators nearly as likely",
                        named,
                    )
                )
        return dora, warnings

    pool = [r for r in runs if 0 < len(r.face_up) <= settings.MAX_INDICATORS]
    scores: np.ndarray | None = None
    others_read: list[list[list[int]]] = []
    trace = TRACE.get() if dora_as is None else None
    if dora_as is not None:
        dora = next((r for r in pool if r.face_up == dora_as), None)
        if dora is None and dora_as:
            return [], [], []  # no run holds them alone (not a reading of these runs)
        level, warnings = (level_of(dora) if dora is not None else []), []
    else:
        dora, level, warnings = rule_dora()
    if dora_as is None and pool and (trace is not None or settings.SCORER_OVERRIDE > 0):
        shape = shapes()
        table = np.array([features(r, dora, shape) for r in pool])
        if trace is not None:
            trace.append(Candidates(geo.members, tuple(up), ura_allowed, pool, table, dora))
        if settings.SCORER_OVERRIDE > 0:
            ruled = dora
            scores = indicator_scorer.run_scores(table)
            dora, warnings = rescored(pool, scores, dora, warnings)
            if dora is not ruled and dora is not None:
                level = level_of(dora)
            others_read = [
                _indicator_bands(geo, dets, others, up, ura_allowed=ura_allowed, dora_as=other)[0]
                for other in _likely_others(pool, scores, dora)
            ]
    if dora is None:
        return [], warnings, others_read
    if dora.from_block and settings.BLOCK_DORA_DOUBTED:
        warnings.append(
            GroupingWarning(
                "possible_indicators",
                "the dora indicators were read on a dead wall's line among rows of tiles seen "
                "from low down, where a discard lying by a wall looks the same: check them",
                dora.face_up,
            )
        )
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
        middle = (run.start + run.end) / 2
        return any(
            o is not run
            and o is not dora
            and o.face_up
            and abs(o.height - run.height) < settings.COLUMN_RISE
            and _over(o, run)
            # a column's rows lie over each other; a river row ending just past the run's
            # end does not cover it (its middle), and ura on the dora lie there too
            and (not settings.COLUMN_COVER or o.start - 0.5 < middle < o.end + 0.5)
            for o in runs
        )

    def ura_features(
        run: _Run, rule: _Run | None, count: int, shape: dict[int, float]
    ) -> list[float]:
        """The candidate ura run's measurements against the dora, as
        :data:`indicator_scorer.URA_FEATURES` names them."""
        assert dora is not None
        n, nd = len(run.face_up), len(dora.face_up)
        depth = max((run.depth_px + dora.depth_px) / 2, 1e-6)
        size = max(1.0, (run.size + dora.size) / 2)
        rise = run.height - dora.height
        between = any(
            o is not run
            and o is not dora
            and o.face_up
            and _over(o, run)
            and dora.height + 0.1 < o.height < run.height - 0.1
            for o in runs
        )
        nxt = row_above(run)
        return [
            1.0,
            float(run is rule),
            float(rule is None),
            float(n == nd),
            min(abs(n - nd), 4) / 4,
            n / 5,
            nd / 5,
            min(max(rise, -1.0), 4.0) / 4,
            min(max((run.rise_px - dora.rise_px) / depth, -1.0), 4.0) / 4,
            min(abs(run.start - dora.start) / size, 4.0) / 4,
            min(abs(run.end - dora.end) / size, 4.0) / 4,
            min(max((run.start - dora.end) / size, -4.0), 4.0) / 4,
            float(abs(rise) < 0.3),
            float(_dead_wall(dora)),
            float(_dead_wall(run)),
            float(is_river(run)),
            float(stacked_on(run, dora)),
            float(crowded(run)),
            float(behind_wall(run)),
            math.log(max(run.size, 0.1) / max(dora.size, 0.1)),
            float(between),
            float(nxt is not None and len(nxt.face_up) > n),
            float(run.from_block),
            float(dora.from_block),
            max(abs(shape.get(i, 0.0)) for i in run.face_up),
            min(dora.height, 4.0) / 4,
            math.log1p(face_up_total) / 5,
            min(count, 8) / 8,
        ]

    def rescored_ura(
        pool: list[_Run],
        scores: np.ndarray,
        ura: _Run | None,
        possible: list[_Run],
        warnings: list[GroupingWarning],
    ) -> tuple[_Run | None, list[_Run], list[GroupingWarning]]:
        """The ura scorer's second opinion on the rules' ura (None: none): taken at a clear
        lead and named ``possible_ura``; a close call names both."""
        assert dora is not None
        options: list[_Run | None] = [*pool, None]
        rule = next((k for k, r in enumerate(pool) if r is ura), len(pool))
        taken, rival = _second_opinion(
            scores,
            rule,
            settings.URA_SCORER_OVERRIDE,
            settings.URA_SCORER_DOUBT,
        )
        if taken != rule:
            new = options[taken]
            warnings = [
                w
                for w in warnings
                if not (
                    w.code == "ura_beside_dora"
                    and ura is not None
                    and set(ura.face_up) <= set(w.detections)
                )
            ]
            warnings.append(
                GroupingWarning(
                    "possible_ura",
                    "the layout rules and the learned ura scorer read the ura indicators "
                    "differently; the scorer's reading, clearly ahead, is taken",
                    (*dora.face_up, *(i for r in (ura, new) if r is not None for i in r.face_up)),
                )
            )
            return new, [r for r in possible if r is not new], warnings
        if rival is not None:
            named = tuple(i for k in (rule, rival) if options[k] for i in options[k].face_up)
            warnings.append(
                GroupingWarning(
                    "possible_ura",
                    "the learned ura scorer finds another reading of the ura indicators "
                    "nearly as likely",
                    (*dora.face_up, *named),
                )
            )
        return ura, possible, warnings

    possible: list[_Run] = []
    # Dora on a dead wall stand a tier higher than ura on the table (see URA_ALIGN_WALL and
    # URA_OWN_RISE_WALL below).
    on_wall = _dead_wall(dora)
    for run in runs if ura is None and ura_allowed else ():
        if run is dora or not run.face_up:
            continue
        beside = abs(run.height - dora.height) < 0.3 and 0 < run.start - dora.end < 3.0
        if not beside and settings.URA_BESIDE_OWN:
            # Seen from the side, the run nearer the camera looks bigger: level and close in
            # the two runs' own depth and size.
            own = abs(run.rise_px - dora.rise_px) / ((run.depth_px + dora.depth_px) / 2)
            size = max(1.0, (run.size + dora.size) / 2)
            beside = own < 0.3 and 0 < (run.start - dora.end) / size < 3.0
        if is_river(run):
            # As many tiles as the dora, on them, nearer them than the river row above:
            # ura under a river (a river's short last row lies at the river's spacing). Level
            # with the dora and beside them, a river's short last row is only that: ura
            # under a river lie on the dora (URA_RIVER_END_BESIDE False: read as ura); named
            # ``possible_ura``, as it could still be the ura.
            nxt = row_above(run)
            if not (
                len(run.face_up) == len(dora.face_up)
                and nxt is not None
                and len(run.face_up) <= settings.MAX_INDICATORS
                and run.height - dora.height < nxt.height - run.height
            ):
                continue
            if beside and settings.URA_RIVER_END_BESIDE:
                possible.append(run)
                continue
        # Ura above the dora lie one on each dora: the rows start together.
        rise, shift = run.height - dora.height, abs(run.start - dora.start)
        # Dora on a dead wall stand a tier higher than ura on the table: seen from the side
        # the height shifts them along further. Seen from low down, ura lie just above.
        align = settings.URA_ALIGN_WALL if on_wall else settings.URA_ALIGN
        above = (0.3 <= rise <= settings.URA_REACH and shift < align) or (
            settings.URA_LOW_RISE <= rise < 0.3 and shift < 0.5
        )
        if not above and rise > settings.URA_REACH:
            # Rows nearer the camera than the hand (seen from across the table) look bigger
            # than its tiles: in the rows' own depth and size, ura lie one row on the dora.
            own = (run.rise_px - dora.rise_px) / ((run.depth_px + dora.depth_px) / 2)
            size = max(1.0, (run.size + dora.size) / 2)
            reach = settings.URA_OWN_RISE_WALL if on_wall else settings.URA_OWN_RISE
            above = own <= reach and shift / size < align
        if not (beside or above):
            if (
                len(run.face_up) == len(dora.face_up)
                and abs(run.height - dora.height) < settings.URA_NEAR_RISE
                and 0 < run.start - dora.end < 3.0
            ):
                # As many tiles just past the dora, a little off their level: ura laid beside
                # them along a line that the view tilts against the hand's; named, not read.
                possible.append(run)
            continue
        if above and not beside and stacked_on(run, dora):
            continue
        if len(run.face_up) == len(dora.face_up):
            ura = run
            # Beside the dora, a clear space between the runs tells them apart; runs nearly
            # touching, or a third run at that level, could split the other way.
            if beside and (run.start - dora.end < settings.URA_BESIDE_CLEAR or len(level) > 2):
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
    ura_trace = URA_TRACE.get() if dora_as is None else None
    if (
        ura_allowed
        and split is None
        and (ura_trace is not None or settings.URA_SCORER_OVERRIDE > 0)
    ):
        # The learned second opinion on the ura (indicator_scorer.URA_FEATURES): the rules'
        # fixed reaches miss ura on their dora seen from low down, or take discards for them.
        shape = shapes()
        upool = [
            r
            for r in runs
            if r is not dora
            and 0 < len(r.face_up) <= settings.MAX_INDICATORS
            and -settings.URA_POOL_BELOW < r.height - dora.height < settings.URA_POOL_ABOVE
            and r.start < dora.end + settings.URA_POOL_ALONG
            and r.end > dora.start - settings.URA_POOL_ALONG
        ]
        utable = np.array([ura_features(r, ura, len(upool), shape) for r in upool])
        if ura_trace is not None:
            ura_trace.append(UraCandidates(geo.members, tuple(up), dora.face_up, upool, utable))
        if upool and settings.URA_SCORER_OVERRIDE > 0:
            uscores = indicator_scorer.ura_scores(utable)
            ura, possible, warnings = rescored_ura(upool, uscores, ura, possible, warnings)
            if dora_as is None:
                others_read += [
                    [list(dora.face_up), *([list(other)] if other else [])]
                    for other in _likely_others(upool, uscores, ura)
                ]
    if ura is None and possible:
        warnings.append(
            GroupingWarning(
                "possible_ura",
                f"tiles near the {len(dora.face_up)} dora indicator(s) were not read as ura: "
                "their number differs, or they end a river's rows",
                tuple(i for r in possible for i in r.face_up),
            )
        )
    if ura is None and ura_allowed and _pair_spread(dora, runs):
        if dora_as is None and settings.INDICATOR_ALTERNATIVE > 0:
            # the pair as one dora and its ura beside it, offered: what the warning asks about
            others_read.append([[dora.face_up[0]], [dora.face_up[1]]])
        warnings.append(
            GroupingWarning(
                "possible_ura",
                "two dora indicators lie further apart than the other rows' touching tiles, "
                "or no other row shows how far apart touching tiles lie: the second may be an "
                "ura laid beside the first",
                dora.face_up,
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
    # Runs level with the dora further along, not read: the dora are taken as the left one,
    # which holds for ura laid beside them (as many tiles), not for a run of another length;
    # named, so that a discard taken for the dora (or the dora left out) is never silent.
    aside = [
        i
        for r in level
        if settings.WARN_LEVEL_RUNS
        and not set(r.face_up) & {*dora.face_up, *(ura.face_up if ura else ())}
        for i in r.face_up
        if i not in stray
    ]
    if aside:
        warnings.append(
            GroupingWarning(
                "possible_indicators",
                "face-up tiles level with the dora indicators, further along, were not read "
                "as indicators: either could be the dora",
                (*dora.face_up, *aside),
            )
        )
    # Tiles already named by the rules' doubts (the scorer's below name the dora's too).
    named = {i for w in warnings if w.code == "possible_indicators" for i in w.detections}
    if scores is not None:
        warnings.extend(_scorer_doubts(pool, scores, dora, ura, named))
    if (
        settings.FIVE_DORA_NAMED
        and len(dora.face_up) == settings.MAX_INDICATORS
        and not set(dora.face_up) <= named
    ):
        warnings.append(
            GroupingWarning(
                "possible_indicators",
                "five tiles read as dora indicators: a table shows five only after four kans, "
                "and a river's first row of five looks the same",
                dora.face_up,
            )
        )
    return chosen, warnings, others_read


def _likely_others(
    pool: Sequence[_Run], scores: np.ndarray, taken: _Run | None
) -> list[tuple[int, ...]]:
    """The face-up tiles of the options (``pool``'s runs, then ``()`` for none, scoring 0)
    other than the one ``taken`` that the scorer's softmax gives at least
    :data:`~vision.grouping.settings.INDICATOR_ALTERNATIVE`, likeliest first, at most
    :data:`~vision.grouping.settings.INDICATOR_ALTERNATIVES`.

    >>> run = _Run((1, 2), (1, 2), 1.0, 0.0, 1.0)
    >>> _likely_others([run], np.array([0.5]), run)  # "none" at 0 is likely too
    [()]
    >>> _likely_others([run], np.array([5.0]), None)
    [(1, 2)]
    """
    if settings.INDICATOR_ALTERNATIVE <= 0:
        return []
    full = np.append(scores, 0.0)
    chance = np.exp(full - full.max())
    chance /= chance.sum()
    options = [*(r.face_up for r in pool), ()]
    chosen = taken.face_up if taken is not None else ()
    ranked = sorted(range(len(options)), key=lambda k: -chance[k])
    return [
        options[k]
        for k in ranked
        if options[k] != chosen and chance[k] >= settings.INDICATOR_ALTERNATIVE
    ][: settings.INDICATOR_ALTERNATIVES]


def _split_beside(run: _Run) -> tuple[_Run, _Run] | None:
    """Four face-up tiles whose middle step is clearly the widest (by
    :data:`URA_SPLIT_STEP` over the others), face-down tiles around them or not (seen from
    low down, a wall behind runs into them): two dora and two ura side by side; six, eight
    or ten face-up tiles alone likewise (:data:`URA_SPLIT_LONG`). Two face-up tiles a space
    apart (:data:`URA_PAIR_GAP`): one dora, one ura."""
    n = len(run.face_up)
    if n == 2 and len(run.gaps) == 1:
        if run.gaps[0] < settings.URA_PAIR_GAP:
            return None
    elif n == 4 and len(run.steps) == 3:
        if not settings.URA_SPLIT_WALL and len(run.dets) != 4:
            return None
        left, middle, right = run.steps
        if middle < settings.URA_SPLIT_STEP * max(left, right):
            return None
    elif (
        settings.URA_SPLIT_LONG
        and n in (6, 8, 10)
        and len(run.steps) == n - 1
        and len(run.dets) == n
    ):
        # Three to five of each, face-up tiles alone (a wall running into them would hide
        # where a river's row ends).
        middle = run.steps[n // 2 - 1]
        others = run.steps[: n // 2 - 1] + run.steps[n // 2 :]
        if middle < settings.URA_SPLIT_STEP * max(others):
            return None
    else:
        return None
    p, h = run.places, n // 2
    return (
        replace(
            run,
            dets=run.face_up[:h],
            face_up=run.face_up[:h],
            steps=run.steps[: h - 1],
            gaps=run.gaps[: h - 1],
            places=p[:h],
            start=p[0],
            end=p[h - 1],
        ),
        replace(
            run,
            dets=run.face_up[h:],
            face_up=run.face_up[h:],
            steps=run.steps[h:],
            gaps=run.gaps[h:],
            places=p[h:],
            start=p[h],
            end=p[-1],
        ),
    )


def _pair_spread(dora: _Run, runs: Sequence[_Run]) -> bool:
    """Two dora read in one run whose centre step (in their size) exceeds the median step of
    the other runs of face-up tiles by :data:`URA_PAIR_SPREAD`, or, with no other run to
    compare with, exceeds :data:`URA_PAIR_ALONE_STEP`: seen from the side, a dora and the
    ura beside it can link into one run however far apart (the gap measure, box extents,
    overstates rotated tiles' widths), and then look like two dora."""
    if len(dora.face_up) != 2 or len(dora.dets) != 2 or not dora.steps:
        return False
    steps = [s for r in runs if r is not dora and len(r.dets) == len(r.face_up) for s in r.steps]
    if not steps:
        # Nothing to measure the step against: only a step clearly wider than touching
        # tiles' in the pair's own size (see URA_PAIR_ALONE_STEP).
        return dora.steps[0] > settings.URA_PAIR_ALONE_STEP
    return dora.steps[0] > settings.URA_PAIR_SPREAD * float(np.median(steps))


def _second_opinion(
    scores: np.ndarray, rule: int, override: float, doubt: float
) -> tuple[int, int | None]:
    """A learned scorer's say on the rules' choice among candidate runs: ``scores`` one a
    run, the last option ("none") scoring 0, ``rule`` the rules' option. Returns the option
    taken (the scorer's when it leads the rules' by ``override``, else the rules') and, when
    the rules' choice stands and leads the next option by less than ``doubt``, that option
    (a rival to name beside it; else None).

    >>> _second_opinion(np.array([3.0, -1.0]), 0, 2.0, 0.5)
    (0, None)
    >>> _second_opinion(np.array([-1.0, 3.0]), 0, 2.0, 0.5)
    (1, None)
    >>> _second_opinion(np.array([0.2, -1.0]), 0, 2.0, 0.5)
    (0, 2)
    """
    full = np.append(scores, 0.0)
    best = int(np.argmax(full))
    if best != rule and full[best] - full[rule] >= override:
        return best, None
    second = max((k for k in range(len(full)) if k != rule), key=lambda k: full[k])
    return rule, (second if full[rule] - full[second] < doubt else None)


def _scorer_doubts(
    pool: Sequence[_Run],
    scores: np.ndarray,
    dora: _Run,
    ura: _Run | None,
    named: set[int],
) -> list[GroupingWarning]:
    """What the learned scorer still doubts in the reading taken (``possible_indicators``),
    where no warning names the tiles yet (``named``): another run it finds clearly likelier
    than no dora (:data:`SCORER_RIVAL`)."""
    read = {*dora.face_up, *(ura.face_up if ura is not None else ())}
    rivals = [
        i
        for run, score in zip(pool, scores, strict=True)
        if score > settings.SCORER_RIVAL
        and not set(run.face_up) & read
        and not set(run.face_up) <= named
        for i in run.face_up
    ]
    if not rivals:
        return []
    return [
        GroupingWarning(
            "possible_indicators",
            "the learned indicator scorer finds other tiles above the hand likely "
            "indicators too: either could be the dora",
            (*dora.face_up, *rivals),
        )
    ]


def _dead_wall(run: _Run) -> bool:
    """Up to five face-up tiles among face-down ones: indicators turned up on a dead wall."""
    return 0 < len(run.face_up) <= settings.MAX_INDICATORS and len(run.dets) > len(run.face_up)


def _stray_near(runs: Sequence[_Run], chosen: Sequence[_Run]) -> tuple[int, ...]:
    """Face-up tiles of runs not chosen as indicators that lie within
    :data:`STRAY_NEAR` tiles of a chosen run (across and along the hand), face-down runs
    aside: a discard or a missed indicator could be either."""
    out: list[int] = []
    for run in runs:
        # (a run split into dora and ura is chosen as its halves)
        if not run.face_up or any(run is c or set(run.face_up) & set(c.face_up) for c in chosen):
            continue
        for c in chosen:
            along_gap = max(0.0, run.start - c.end, c.start - run.end)
            rise = run.height - c.height
            # A run as long as the dora further above them: ura seen more foreshortened.
            far_ura = (
                c is chosen[0]
                and len(chosen) == 1
                and len(run.face_up) == len(c.face_up)
                and 0 < rise < 2 * settings.URA_REACH
            )
            if along_gap < settings.STRAY_NEAR and (abs(rise) < settings.STRAY_NEAR or far_ura):
                out.extend(run.face_up)
                break
    return tuple(out)


def _cut_by_frame(
    grouping: Grouping, dets: Sequence[Detection], width: float, height: float
) -> Grouping:
    """The reading without indicators when a dora indicator touches the photo's edge (within
    :data:`~vision.grouping.settings.FRAME_MARGIN` pixels): a tile cut by the frame may end a
    row that goes on beyond the photo, such as a river's row, while a player shows the
    indicators whole beside the hand. Named ``possible_indicators``, never silent. Ura that
    touch the edge are left out the same way (``possible_ura``), the dora kept."""
    m = settings.FRAME_MARGIN
    if m < 0 or not grouping.dora:
        return grouping

    def cut(ids: Sequence[int]) -> bool:
        boxes = [dets[i].box for i in ids]
        return min(min(x1, y1, width - x2, height - y2) for x1, y1, x2, y2 in boxes) <= m

    # A cut dora takes the ura with it (they are read by the dora); cut ura go alone.
    if cut(grouping.dora):
        code, what, kept, dropped = (
            "possible_indicators",
            "dora",
            (),
            (*grouping.dora, *grouping.ura),
        )
    elif grouping.ura and cut(grouping.ura):
        code, what, kept, dropped = "possible_ura", "ura", grouping.dora, grouping.ura
    else:
        return grouping
    return replace(
        grouping,
        dora=kept,
        ura=(),
        warnings=(
            *grouping.warnings,
            GroupingWarning(
                code,
                f"face-up tiles at the photo's edge were not read as {what} indicators: the "
                "row they end may go on beyond the photo (a river), and indicators show whole",
                dropped,
            ),
        ),
    )
