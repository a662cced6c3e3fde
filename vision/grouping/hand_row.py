"""Finding and reading the hand row: candidate rows, colinear pieces and stacked tiles
joined, the standing/flat splits tried, each reading direction parsed."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.grouping import settings
from vision.grouping.indicators import _indicator_bands
from vision.grouping.melds import _parse
from vision.grouping.memo import remembered
from vision.grouping.row_geometry import (
    RowGeometry,
    _far_side,
    _gaps,
    _reading_geometry,
    _row_geometry,
)
from vision.grouping.values import Detection, Grouping, GroupingWarning, MeldGroup, Token, _kind
from vision.rows import Row, centres_of, extent_on, fit_line, sizes_of


def _dora_ura(bands: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``[dora, ura]`` as :func:`_indicator_bands` reads them (either may be missing) as the
    grouping's ``(dora, ura)``.

    >>> _dora_ura([[3, 4]]), _dora_ura([])
    (((3, 4), ()), ((), ()))
    """
    return (tuple(bands[0]) if bands else (), tuple(bands[1]) if len(bands) > 1 else ())


@remembered
def _hand_rows(rows: Sequence[Row], dets: Sequence[Detection]) -> list[list[int]]:
    """Rows that may hold the hand, each joined with its colinear pieces (a wide gap before
    the melds, tiles taken by a crossing line): those of 13-18 tiles, mostly face up, else
    the most hand-like one. ``rows`` must not be empty."""
    sizes = sizes_of(np.array([d.box for d in dets], dtype=float))

    def key(members: list[int]) -> tuple[float, float]:
        n = len(members)
        down = sum(dets[i].face_down for i in members)
        miss = max(settings.HAND_SIZE[0] - n, n - settings.HAND_SIZE[1], 0)
        if down > n / 2:
            miss += 20  # a wall or the backs of a standing hand
        return (min(miss, 30), -float(np.median(sizes[members])))

    joined: dict[frozenset[int], list[int]] = {}
    for row in rows:
        if len(row) >= 3 and sum(not dets[i].face_down for i in row.members) >= 2:
            members = _merge_colinear(row, rows, dets)
            joined.setdefault(frozenset(members), members)
    ranked = sorted(joined.values(), key=key) or [list(max(rows, key=len).members)]
    return [m for m in ranked[: settings.HAND_ROW_TRIES] if key(m)[0] <= 2] or ranked[:1]


def _thinned_rows(
    rows: Sequence[Row], dets: Sequence[Detection], tried: Sequence[list[int]]
) -> list[tuple[list[int], tuple[int, ...]]]:
    """The hand-sized rows that :func:`_without_interleaved_backs` thins (each joined with its
    colinear pieces), not among ``tried``, each with the backs left out: read only when no
    row read as a hand, since a river's row thinned of the walls on its line reads as a hand
    of discards."""
    seen = {frozenset(m) for m in tried}
    out: list[tuple[list[int], tuple[int, ...]]] = []
    for row in rows:
        thin = _without_interleaved_backs(row, dets)
        if len(thin) == len(row) or sum(not dets[i].face_down for i in thin.members) < 2:
            continue
        members = _merge_colinear(thin, rows, dets)
        n = len(members)
        if (
            frozenset(members) not in seen
            and settings.HAND_SIZE[0] - 2 <= n <= settings.HAND_SIZE[1] + 2
        ):
            seen.add(frozenset(members))
            # Named: the backs thinned out that joining the row's pieces did not bring back.
            left_out = set(row.members) - set(thin.members) - set(members)
            out.append((members, tuple(i for i in row.members if i in left_out)))
    return out


def _without_interleaved_backs(row: Row, dets: Sequence[Detection]) -> Row:
    """``row`` without the face-down tiles that have no place of their own among its face-up
    tiles along the line: between two face-up neighbours with no room for a tile between
    them (closer than :data:`BACKS_INTERLEAVED` of the face-up tiles' pitch), on a face-up
    tile's place (within half a pitch of it), more than one place beyond them, or beyond
    them with another back (a wall running on).
    Seen from low down, a wall just beyond the hand falls on the hand's line, its backs half
    a tile along from the hand's tiles; a closed kan's backs fill whole places of their own,
    the last at most one place beyond the face-up tiles."""
    pos = np.array(row.positions)
    down = np.array([dets[i].face_down for i in row.members], dtype=bool)
    up_pos = np.sort(pos[~down])
    if len(up_pos) < 3 or not down.any():
        return row
    pitch = float(np.median(np.diff(up_pos)))
    if pitch <= 0:
        return row

    def interleaved(p: float) -> bool:
        if float(np.abs(up_pos - p).min()) < 0.5 * pitch:
            return True
        k = int(np.searchsorted(up_pos, p))
        return (
            0 < k < len(up_pos) and up_pos[k] - up_pos[k - 1] < settings.BACKS_INTERLEAVED * pitch
        )

    # Beyond the face-up tiles' ends, a kan's last back alone, a place on: two backs or more
    # beyond one end are a wall running on.
    lo = up_pos[0] - (1.5 * pitch if int((down & (pos < up_pos[0])).sum()) < 2 else 0.0)
    hi = up_pos[-1] + (1.5 * pitch if int((down & (pos > up_pos[-1])).sum()) < 2 else 0.0)
    ks = [
        k
        for k, p in enumerate(row.positions)
        if not down[k] or (not interleaved(p) and lo < p < hi)
    ]
    return replace(
        row,
        members=tuple(row.members[k] for k in ks),
        positions=tuple(row.positions[k] for k in ks),
        offsets=tuple(row.offsets[k] for k in ks),
    )


@remembered
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
            if i in taken:
                continue
            rel = centres[i] - origin
            if (
                abs(rel @ normal) < 0.3 * size
                and pos.min() - 3 * pitch < rel @ d < pos.max() + 3 * pitch
                and not dets[i].face_down
            ):
                members.append(i)
                added = True
    if settings.FACE_DOWN_FILL:
        # Face-down tiles on the line filling a hole between its tiles: a closed kan's backs,
        # which a wall lying just behind the hand can claim for its own row (at the row's
        # ends face-down tiles stay out: a wall running on from the hand).
        pos = (centres[members] - origin) @ d
        for i in range(len(dets)):
            if i in members or not dets[i].face_down:
                continue
            rel = centres[i] - origin
            p = float(rel @ d)
            if (
                abs(rel @ normal) < 0.3 * size
                and pos.min() < p < pos.max()
                and float(np.abs(pos - p).min()) > settings.FACE_DOWN_FILL * pitch
            ):
                members.append(i)
    return _unstack(members, centres, sizes, xyxy)


def _reach_further(
    members: list[int], dets: Sequence[Detection], kept: Sequence[int], *, step: bool = False
) -> list[int]:
    """The row with face-up tiles on its line up to :data:`FAR_REACH` pitches beyond its
    ends, one after another, for a row short of tiles. Standing concealed tiles beside flat
    melds look larger (their centres higher, by a share of their own size), and a player
    may leave a wide space before the melds.

    ``step``: also the nearest face-up tile just beyond each end (:data:`STEP_REACH`) whose
    centre lies further off the line: standing tiles' faces stand up from the table and
    flat ones lie on it, so where standing tiles meet flat ones (a standing hand's winning
    tile laid flat beside it, standing tiles before flat melds) the faces' centres lie on
    two lines, apart across the row by up to ~0.7 of a tile."""
    xyxy = np.array([d.box for d in dets], dtype=float)
    centres, sizes = centres_of(xyxy), sizes_of(xyxy)
    size = float(np.median(sizes[members]))
    origin, d = fit_line(centres[members])
    normal = np.array([-d[1], d[0]])
    pos = (centres[members] - origin) @ d
    pitch = float(np.median(np.diff(np.sort(pos)))) if len(pos) > 2 else size
    pitch = pitch if pitch > 0 else size  # boxes repeated on one place: no spacing to read
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
            near = lo - settings.FAR_REACH * pitch < p < hi + settings.FAR_REACH * pitch
            if near and abs(rel @ normal) < 0.3 * max(size, float(sizes[i])):
                out.append(i)
                lo, hi = min(lo, p), max(hi, p)
                added = True
    out = _unstack(out, centres, sizes, xyxy)
    if step:
        # Beyond the end by more than a stacked tile lies along its base (0.6: as attached),
        # and not unstacked: off the line by design.
        along, across = settings.STEP_REACH
        for end, sign in ((lo, -1.0), (hi, 1.0)):
            beyond = []
            for i in kept:
                if i in out or dets[i].face_down:
                    continue
                rel = centres[i] - origin
                dist = sign * (float(rel @ d) - end) / pitch
                if 0.6 < dist < along and abs(rel @ normal) < across * max(size, float(sizes[i])):
                    beyond.append((dist, i))
            if beyond:
                out.append(min(beyond)[1])
    return out


def _unstack(
    members: list[int], centres: np.ndarray, sizes: np.ndarray, xyxy: np.ndarray
) -> list[int]:
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
        rel_steps = steps / np.sqrt(size[order[:-1]] * size[order[1:]])
        # Each step's pair's box shape across the row over along it (a standing tile's face
        # stands tall, a flat tile seen from low down is thin).
        box = xyxy[members][order]
        shape = extent_on(box, (d[1], d[0])) / np.maximum(extent_on(box, d), 1e-6)
        pitches = _pair_pitches(rel_steps, np.sqrt(shape[:-1] * shape[1:]))
        # ... or nearer than touching tiles and one clearly beyond the other across the
        # row: an added kan's tile on the far side of the one it was added to; or within two
        # thirds of a touching step (no tile lies beside another there) and a little off
        # across: seen from low down, the added tile's offset shrinks with the view.
        close = [
            (a, b)
            for (a, b), pitch in zip(itertools.pairwise(order), pitches, strict=True)
            if pos[b] - pos[a] < 0.45 * pitch * max(size[a], size[b])
            or (
                pos[b] - pos[a] < settings.STACK_STEP * pitch * max(size[a], size[b])
                and abs(signed[a] - signed[b]) > settings.STACK_ACROSS * max(size[a], size[b])
            )
            or (
                pos[b] - pos[a] < settings.STACK_NEAR[0] * pitch * max(size[a], size[b])
                and abs(signed[a] - signed[b]) > settings.STACK_NEAR[1] * max(size[a], size[b])
            )
        ]
        if not close:
            break
        a, b = close[0]
        members = [m for k, m in enumerate(members) if k != (a if off[a] > off[b] else b)]
    return members


def _pair_pitches(rel_steps: np.ndarray, shapes: np.ndarray | None = None) -> np.ndarray:
    """Per step between row neighbours, the touching step it is measured against (centre
    steps in the pair's own size): the row's median step, or with :data:`STACK_LOCAL` the
    smaller of the median steps on either side (up to that many places; one side at the
    row's ends), if smaller than the row's. Standing tiles' boxes are larger than flat
    ones' at the same pitch (the face stands up to the camera), so the steps between
    standing tiles, in their own size, are far shorter than a row of flat melds' and they
    would look stacked; a tile stacked on another is close to its neighbours on both
    sides, a standing tile at the end of the standing ones on one side only.

    >>> _pair_pitches(np.array([0.7, 0.7, 0.7, 1.8, 1.8, 1.8, 1.8])).round(2).tolist()
    [0.7, 0.7, 0.7, 0.7, 0.7, 1.8, 1.8]
    """
    whole = float(np.median(rel_steps))
    reach = settings.STACK_LOCAL
    out = np.full(len(rel_steps), whole)
    if not reach:
        return out
    like = settings.STACK_CAP_LIKE
    for j in range(len(rel_steps)):
        sides = [rel_steps[max(j - reach, 0) : j], rel_steps[j + 1 : j + 1 + reach]]
        medians = [float(np.median(side)) for side in sides if len(side)]
        # Never above the row's median: a few places may be mostly gaps (the winning
        # tile's, the melds'), which would make touching neighbours look stacked. With
        # ``shapes``, the median of the steps between tiles shaped like this pair: flat melds
        # beside a standing hand step further, in their own size, than its standing tiles.
        cap = whole
        if like and shapes is not None:
            same = np.abs(np.log(shapes / shapes[j])) < np.log(like)
            cap = float(np.median(rel_steps[same]))
        out[j] = min([*medians, cap])
    return out


@remembered
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
            and dist_along[j] < 0.6
            and 0.5 < abs(dist_across[j]) < 1.7
            and not dets[others[j]].face_down  # an added tile shows its face
        ]
        if ok:
            j = min(ok, key=lambda j: abs(abs(dist_across[j]) - 1.0) + dist_along[j])
            used.add(j)
            out[int(k)] = (others[j], float(np.sign(dist_across[j])))
    return out


@remembered
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
            above = (rise[j] - hand_rise) / depth
            if (
                abs(along[j] - geo.positions[k]) < 0.6 * geo.unit
                and 0.3 < above < 1.9
                and not dets[i].face_down
            ):
                out.append((geo.members[k], i))
    return out


def _flip_gap(gap: float) -> float:
    """A gap taken the other way: none where there was one, a clear one where there was none."""
    return 0.0 if gap > settings.GAP else 2 * settings.GAP


def _split_candidates(geo: RowGeometry) -> list[int]:
    """Where standing tiles may end besides the automatic choice: at any gap of the row
    (automatic tables; the steps in the boxes' shapes can be too small to see)."""
    n = len(geo.positions)
    if n < 6:
        return []
    pitch = float(np.median(np.diff(geo.positions)))
    found = [
        k
        for k in range(2, n - 1)
        if (geo.positions[k] - geo.positions[k - 1]) / pitch >= 1.0 + settings.GAP
    ]
    return found[: settings.MAX_SPLITS_TRIED]


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
        pen = settings.P_SPLIT
        if split:
            # Standing faces and flat ones differ in depth where they meet: a cut where the
            # depths run on alike explains the sideways tiles it makes, not the layout.
            step = abs(
                math.log(
                    np.median(across[max(split - 3, 0) : split])
                    / np.median(across[split : split + 3])
                )
            )
            pen += settings.P_SPLIT_UNSEEN * (step < math.log(settings.STANDING_STEP))
        cands = [replace(g, penalty=g.penalty + pen) for g in cands]
        runs.append((cands, geo, warns, split))
    return min(runs, key=lambda r: min(g.penalty for g in r[0]))


StackVariant = tuple[dict[int, tuple[int, float]], float, list[GroupingWarning]]


def _stack_variants(
    geo: RowGeometry,
    dets: Sequence[Detection],
    attached: dict[int, tuple[int, float]],
    loose: list[tuple[int, int]],
    up_sign: float,
) -> list[StackVariant]:
    """The ways to read the tiles beyond sideways meld tiles: ``(stacks, penalty, warnings)``.

    A loose tile of the meld's own kind (:func:`_unattached_stacks`) is read both ways:
    stacked (an added kan) and not; leaving it out costs a little (a tile of the meld's kind
    left unexplained). An added kan's tile is a fourth copy of the pon's tiles, so an attached
    tile of another kind is something else lying beyond the meld (a discard, an indicator):
    each reading is also taken with it left out, named as a possible added kan. Both choices
    combine: near 45 degrees an indicator can lie where an added tile would, on one sideways
    tile, while the real added tile, loose, lies beyond the same or another one.
    """
    unlike = {
        k
        for k, (i, _) in attached.items()
        if settings.KAKAN_SAME_KIND and _kind(dets[i].tile) != _kind(dets[geo.members[k]].tile)
    }
    addable: dict[int, tuple[int, float]] = {}
    for h, i in loose:
        k = geo.members.index(h)
        if k not in addable and _kind(dets[h].tile) == _kind(dets[i].tile):
            addable[k] = (i, up_sign)
    unlike_warn = GroupingWarning(
        "possible_kakan",
        "a tile of another kind lies on a sideways meld tile's far side: "
        "it is read as not stacked on it (an added kan adds a fourth copy)",
        tuple(i for k in sorted(unlike) for i in (geo.members[k], attached[k][0])),
    )
    variants: list[StackVariant] = []
    seen: list[dict[int, tuple[int, float]]] = []
    for drop in (False, True) if unlike else (False,):
        base = {k: v for k, v in attached.items() if not (drop and k in unlike)}
        for add in (False, True) if addable else (False,):
            stacks = dict(base)
            if add:
                stacks.update({k: v for k, v in addable.items() if k not in stacks})
            left_out = sum(1 for k, v in addable.items() if stacks.get(k) != v)
            if stacks in seen:
                continue
            seen.append(stacks)
            pen = settings.P_LOOSE_STACK * (left_out + (len(unlike) if drop else 0))
            variants.append((stacks, pen, [unlike_warn] if drop else []))
    return variants


def _beyond_upright(
    geo: RowGeometry, dets: Sequence[Detection], others: Sequence[int], up: np.ndarray
) -> list[tuple[int, int]]:
    """(row tile, tile) pairs: a fourth copy of an upright row tile lying just beyond it
    (where an added kan's tile lies beyond its called one; :data:`STACK_ON_UPRIGHT`). The
    tile under it may be that called tile, misjudged upright."""
    if not settings.STACK_ON_UPRIGHT:
        return []
    beyond = _unattached_stacks(replace(geo, sideways=~geo.sideways), dets, others, up)
    return [(h, i) for h, i in beyond if _kind(dets[h].tile) == _kind(dets[i].tile)]


def _stack_on_upright(
    melds: Sequence[MeldGroup],
    on_upright: Sequence[tuple[int, int]],
    stacks: dict[int, tuple[int, float]],
) -> tuple[float, list[GroupingWarning]]:
    """What a reading pays for a fourth copy of a pon's (or open kan's) tile lying just
    beyond one of its upright tiles (``on_upright``: (row tile, tile beyond) pairs): an added
    kan whose called tile was misjudged, the sideways tile read elsewhere in the meld. The
    reading with that tile turned (:func:`doubts._kakan_swaps`) explains it."""
    stacked = {d for d, _ in stacks.values()}
    found = [
        (h, i)
        for m in melds
        if m.kind in ("pon", "daiminkan")
        for h, i in on_upright
        if h in m.dets and i not in stacked
    ]
    if not found:
        return 0.0, []
    return settings.P_STACK_ON_UPRIGHT * len(found), [
        GroupingWarning(
            "possible_kakan",
            "a fourth copy of a meld's tile lies just beyond one of its upright tiles: the "
            "meld may be an added kan called with that tile",
            tuple(x for pair in found for x in pair),
            (("beyond_upright", True),),
        )
    ]


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
        geo = _reading_geometry(first, members, dets, split, reading)
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
        up = _far_side(geo.direction, reading)
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
        variants = _stack_variants(geo, dets, attached, loose, up_sign)
        on_upright = _beyond_upright(geo, dets, [i for i in others_all if i not in taken], up)
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
            side_pen += settings.P_WRONG_SIDE * len(wrong_stacks)
            bands, band_warn, band_others = _indicator_bands(geo, dets, others, up)
            down_bands, _, _ = _indicator_bands(geo, dets, others, -up)
            side_pen += (
                settings.P_WRONG_SIDE * max(len(down_bands) - len(bands), 0) * settings.P_BAND_SIDE
            )
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
            side_pen += settings.P_PRIOR * (1 - float(up @ np.array([0.0, -1.0]))) / 2
            side_pen += settings.P_PRIOR * 0.5 * (1 - float(rd @ np.array([0.0, 1.0]))) / 2
            open_bands: (
                tuple[list[list[int]], list[GroupingWarning], list[list[list[int]]]] | None
            ) = None
            for parse in _parse(tokens):
                hand_bands, hand_warn, hand_others = bands, band_warn, band_others
                upright_pen, upright_warn = _stack_on_upright(parse.melds, on_upright, stacks)
                open_hand = any(m.kind != "ankan" for m in parse.melds)
                if len(bands) > 1 and open_hand and settings.URA_NEEDS_CLOSED_HAND:
                    # Ura indicators are turned over only for a riichi winner, whose hand
                    # is closed: beside an open hand they are something else.
                    if open_bands is None:
                        open_bands = _indicator_bands(geo, dets, others, up, ura_allowed=False)
                    hand_bands, hand_warn, hand_others = open_bands
                dora, ura = _dora_ura(hand_bands)
                candidates.append(
                    Grouping(
                        concealed=parse.concealed,
                        win=parse.win,
                        melds=parse.melds,
                        order=tuple(tokens),
                        dora=dora,
                        ura=ura,
                        other_indicators=tuple(_dora_ura(b) for b in hand_others),
                        penalty=parse.penalty + side_pen + upright_pen,
                        reading=reading,
                        warnings=(
                            *parse.warnings,
                            *upright_warn,
                            *loose_warn,
                            *variant_warn,
                            *hand_warn,
                            *down_warn,
                        ),
                        names=names,
                    )
                )
    best_reading = min(candidates, key=lambda g: g.penalty).reading if candidates else 1
    geo = geos[best_reading]
    if settings.DIAGONAL_DOUBTS_BOTH and not first.conditioned:
        # Near 45 degrees each reading direction judges the row again (the player's side
        # prices the sideways tiles): a tile the other direction judged near its threshold is
        # as doubtful, and its turn may be what that direction's reading needs.
        mine = set(geo.doubtful_sideways)
        more = tuple(d for d in geos[-best_reading].doubtful_sideways if d not in mine)
        geo = replace(geo, doubtful_sideways=(*geo.doubtful_sideways, *more))
    return candidates, geo, warnings
