"""Doubtful judgements re-read (sideways tiles, tiles that may be extra), and the
photo-wide warnings (tile counts, low confidence)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from vision.grouping import settings
from vision.grouping.hand_row import _beyond_upright, _read_row, _read_row_splits
from vision.grouping.melds import _meld_shaped, _meld_tiling
from vision.grouping.row_geometry import (
    RowGeometry,
    _far_side,
    _near_edge_offsets,
    _reading_geometry,
)
from vision.grouping.values import Detection, Grouping, GroupingWarning, _kind
from vision.rows import centres_of, fit_line, sizes_of


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
    groups = _gap_group_doubts(candidates[0], geo)
    gapped = [pick for pick, _ in groups]
    marks = _kakan_marks(candidates[0], geo, members, dets, kept, split)
    extra = [*gapped, *(h for h in marks if h not in gapped)]
    if extra:
        geo = replace(
            geo,
            doubtful_sideways=(*extra, *(d for d in geo.doubtful_sideways if d not in extra)),
        )
    row = _DoubtfulRow(geo, members, dets, kept, names, split, _near_edges(geo))
    doubts, flipped = _consequential_doubts(candidates[0], row)
    combined = _combined_flips(candidates[0], flipped, row)
    if settings.GAP_GROUP_CHAIN and len(gapped) >= 2:
        # The melds' called tiles found after a gap, all turned at once: a row of three or
        # four touching melds needs every one turned before any reads well.
        together = frozenset(gapped)
        g = row.read_turned(together)
        # A pon's called tile shows whom it came from, and its box need not be the one
        # nearest a sideways tile's: each other tile of the pon is tried in its place (one
        # called tile a pon: the one it holds now is given back).
        for pick, others in groups:
            called = pick
            for other in others:
                turned = (together - {called}) | {other}
                h = row.read_turned(turned)
                if h.penalty < g.penalty:
                    g, together, called = h, turned, other
        if g.penalty < candidates[0].penalty:
            combined.append((g, together))
    out = sorted([*candidates, *flipped, *(g for g, _ in combined)], key=lambda g: g.penalty)
    swapped = _chi_swap_after_turns(out[0], row)
    if swapped is not None:
        g, flips = swapped
        combined.append((g, flips))
        out = sorted([*out, g], key=lambda g: g.penalty)
    # A hand read with several judgements turned together is a doubt like a single turn's:
    # named, unless the turns give the hand as judged (they may explain it better).
    turned = next((flips for g, flips in combined if g is out[0]), None)
    if turned and out[0].key() != candidates[0].key():
        named = {i for w in doubts if w.code == "doubtful_sideways" for i in w.detections}
        if not turned <= named:
            doubts.append(
                GroupingWarning(
                    "doubtful_sideways",
                    "it is unclear whether these are upright or sideways; the hand is read with "
                    "them taken the other way together (see alternatives)",
                    tuple(sorted(turned)),
                )
            )
    return out, doubts


def _chi_swap_after_turns(
    best: Grouping, row: _DoubtfulRow
) -> tuple[Grouping, frozenset[int]] | None:
    """The best reading with each chi called from the wrong side (``chi_not_from_left``)
    read again with its sideways tile and its first tile turned, on top of the judgements
    already turned to reach it (:data:`CHI_SWAP_AFTER_TURNS`); with its turns, when it
    reads better. :func:`_called_tile_swaps` does this for the reading as judged, but when
    the melds appear only once doubts are turned (no tile judged sideways at first, as in a
    row seen from low down), the chi's called tile turned may be the wrong one of the three:
    a chi is only called from the left, so its first tile is the called one."""
    if not settings.CHI_SWAP_AFTER_TURNS or not best.order:
        return None
    side = {t.det for t in best.order if t.sideways}
    # A chi whose one sideways tile is not its first is the one called from the wrong side.
    swaps = set()
    for m in best.melds:
        called = [d for d in m.dets if d in side]
        if m.kind == "chi" and len(called) == 1 and called[0] != m.dets[0]:
            swaps ^= {called[0], m.dets[0]}
    if not swaps:
        return None
    geo = _reading_geometry(row.geo, row.members, row.dets, row.split, best.reading)
    judged = dict(zip(geo.members, geo.sideways.tolist(), strict=True))
    turned = {t.det for t in best.order if t.det in judged and t.sideways != judged[t.det]}
    if not turned:
        return None  # as judged: _called_tile_swaps has tried it
    flips = frozenset(turned ^ swaps)
    g = row.read_turned(flips)
    return (g, flips) if g.penalty < best.penalty else None


def _gap_group_doubts(best: Grouping, geo: RowGeometry) -> list[tuple[int, tuple[int, ...]]]:
    """Tiles to re-read as sideways where the best reading leaves gaps among the concealed
    tiles (:data:`GAP_GROUP_DOUBTS`): of the three (or four) tiles after each such gap, when
    they could be a meld and none lies sideways, the one whose box comes nearest a sideways
    tile's. Melds are set apart by gaps; in strong perspective (a row seen from low down or
    close up) a called tile's box can miss the sideways threshold by far, and then the melds
    read as concealed tiles with gaps among them (on study seeds 1001-1020, 36 hands lost
    every meld so). Rows near 45 degrees too: there the margins are the spacing's
    (:func:`~vision.grouping.row_geometry._spacing_judgement`). Each doubt comes with the
    other tiles of its group that could be the called one instead (a pon's, most
    sideways-looking first, :data:`GAP_GROUP_PON_SWEEP`; none for a chi's)."""
    if not settings.GAP_GROUP_DOUBTS or geo.margins is None:
        return []
    gapped = {d for w in best.warnings if w.code == "gap_in_concealed" for d in w.detections}
    if not gapped:
        return []
    margin = dict(zip(geo.members, geo.margins.tolist(), strict=True))
    order = [t for t in best.order if t.det in margin]
    out: list[tuple[int, tuple[int, ...]]] = []
    for k, tok in enumerate(order):
        if tok.det not in gapped:
            continue
        # Every meld from the gap to the row's end, when the tiles there split into melds
        # (GAP_GROUP_CHAIN: melds touch, only the first is set apart); else the first alone.
        windows = _meld_tiling(order[k:]) if settings.GAP_GROUP_CHAIN else None
        if windows is None:
            windows = [order[k : k + n] for n in (3, 4)]
        for window in windows:
            if len(window) < 3 or any(t.sideways or t.face_down for t in window):
                continue
            shape = [t.tile for t in window]
            if not _meld_shaped(shape):
                continue
            if settings.GAP_GROUP_CHI_FIRST and len(set(shape)) == 3:
                # A chi is only called from the left: its first tile is the called one,
                # whichever box looks most sideways. A pon's (or kan's) may be any of its
                # tiles: the most sideways-looking first, the others tried after it.
                ranked = [window[0].det]
            else:
                ranked = [t.det for t in sorted(window, key=lambda t: -margin[t.det])]
                ranked = ranked if settings.GAP_GROUP_PON_SWEEP else ranked[:1]
            if all(ranked[0] != p for p, _ in out):
                out.append((ranked[0], tuple(ranked[1:])))
    return out


@dataclass(frozen=True, slots=True)
class _DoubtfulRow:
    """The hand row whose doubtful judgements are re-read: what reading it again needs, and
    the near-edge offsets (``edge``, :func:`_near_edges`) that price each turned tile."""

    geo: RowGeometry
    members: list[int]
    dets: Sequence[Detection]
    kept: Sequence[int]
    names: tuple[str, ...]
    split: int | None
    edge: np.ndarray | None

    def read(self, **flips: frozenset[int]) -> Grouping:
        """The best reading with the judgements of ``flip_sideways`` / ``flip_gaps`` turned."""
        cands, _, _ = _read_row(
            self.members, self.dets, self.kept, self.names, split=self.split, **flips
        )
        return min(cands, key=lambda g: g.penalty)

    def flip_cost(self, flips: Iterable[int], reading: int) -> float:
        return _flip_cost(self.geo, self.edge, flips, reading)

    def read_turned(self, flips: frozenset[int]) -> Grouping:
        """The best reading with the sideways judgements of ``flips`` turned, priced with
        what turning them costs (:meth:`flip_cost`)."""
        g = self.read(flip_sideways=flips)
        return replace(g, penalty=g.penalty + self.flip_cost(flips, g.reading))


def _near_edges(geo: RowGeometry) -> np.ndarray | None:
    """Each row tile's near-edge offset (:func:`_near_edge_offsets`) where the cost of turning
    a doubtful tile weighs it (:data:`EDGE_FLIP`; rows the box shapes judge), else None."""
    if not settings.EDGE_FLIP or not geo.conditioned or not geo.doubtful_sideways:
        return None
    # A tile with no offset measured (a section under three) is no evidence either way: read
    # as 0, an upright tile's, a split before a meld's last two tiles would price their turns
    # as against the offset.
    return _near_edge_offsets(geo.positions, geo.offsets, geo.parts, unmeasured=np.nan)


def _flip_cost(
    geo: RowGeometry, edge: np.ndarray | None, flips: Iterable[int], reading: int
) -> float:
    """What reading these row tiles the other way costs: :data:`P_DOUBT_FLIP` each, less
    where the tile's near-edge offset (``edge``, :func:`_near_edges`) speaks for the turn
    and more where it speaks against it (:data:`EDGE_FLIP`): players line up a row's near
    edges, so a sideways tile's centre sits ~:data:`EDGE_SIDEWAYS` pitch nearer the player
    (the side the reading fixes) than its upright neighbours'.

    >>> geo = RowGeometry((7, 8), *[np.zeros(2)] * 4, np.array([False, True]), (), 1.0,
    ...     np.ones(2), 1.0, (1.0, 0.0), (0.0, 0.0), True, (np.arange(2),))
    >>> edge = np.array([0.14, 0.0])
    >>> round(_flip_cost(geo, edge, [7], 1), 3), round(_flip_cost(geo, edge, [7], -1), 3)
    (-0.8, 1.8)
    >>> round(_flip_cost(geo, edge, [7, 8], 1), 3), _flip_cost(geo, None, [7, 8], 1)
    (-1.6, 1.0)
    >>> _flip_cost(geo, np.array([np.nan, 0.0]), [7], 1)  # no offset measured: no evidence
    0.5

    Where the offset speaks for the turn more strongly than P_DOUBT_FLIP costs, the turn is
    rewarded (:data:`EDGE_FLIP` above P_DOUBT_FLIP): the box shape barely judged the tile.
    """
    flips = [m for m in flips if m in geo.members]  # an added kan's tile is no row tile
    cost = settings.P_DOUBT_FLIP * len(flips)
    if edge is None:
        return cost
    mid = settings.EDGE_SIDEWAYS / 2
    for m in flips:
        k = geo.members.index(m)
        if np.isnan(edge[k]):
            continue
        towards_sideways = (float(edge[k]) * reading - mid) / mid
        support = towards_sideways if not geo.sideways[k] else -towards_sideways
        cost -= settings.EDGE_FLIP * max(-1.0, min(1.0, support))
    return cost


def _combined_flips(
    best: Grouping, flipped: Sequence[Grouping], row: _DoubtfulRow
) -> list[tuple[Grouping, frozenset[int]]]:
    """Doubtful sideways judgements taken the other way together (every pair among the
    :data:`FLIP_POOL` nearest the threshold, then the best :data:`FLIP_BEAM` of each size
    one turn further): two melds whose called tiles both sit near the threshold (a row seen
    obliquely, standing tiles beside flat ones) need both turned before either hand
    reads well. Starts only when one turned tile already reads better than the layout
    as judged (those readings, and the warnings naming the doubts, come from
    :func:`_consequential_doubts`); each turned tile costs :func:`_flip_cost`. Returns each
    new reading with the tiles it turns.

    A hand a single turn gave is no new reading, unless the set reads it for less
    (:data:`KEEP_CHEAPER_TURNS`): one turn may give the right hand with a tile still
    unexplained, and the two turns that explain it would be dropped while a wrong hand
    cheaper than that single turn wins."""
    pool = list(row.geo.doubtful_sideways[: settings.FLIP_POOL])
    if (
        settings.MAX_FLIPS < 2
        or len(pool) < 2
        or not settings.FLIP_WHEN & {w.code for w in best.warnings}
    ):
        return []

    def read(flips: frozenset[int]) -> tuple[float, frozenset[int], Grouping]:
        g = row.read_turned(flips)
        return g.penalty, flips, g

    singles: dict[tuple[Any, ...], float] = {}
    for g in flipped:
        singles[g.key()] = min(g.penalty, singles.get(g.key(), math.inf))
    trials = [read(frozenset(pair)) for pair in itertools.combinations(pool, 2)]
    score = min(t[0] for t in trials)
    if score >= best.penalty:
        return []
    # The best few of each size are taken one turn further (a beam): the pair that reads
    # best need not be part of the best three.
    found = list(trials)
    beam = sorted(trials, key=lambda t: t[0])[: settings.FLIP_BEAM]
    for _ in range(settings.MAX_FLIPS - 2):
        sets = {flips | {det} for _, flips, _ in beam for det in pool if det not in flips}
        more = [read(flips) for flips in sorted(sets, key=sorted)]
        if not more:
            break
        found.extend(more)
        beam = sorted(more, key=lambda t: t[0])[: settings.FLIP_BEAM]
    out: dict[tuple[Any, ...], tuple[Grouping, frozenset[int]]] = {}
    for pen, flips, g in sorted(found, key=lambda t: t[0]):
        single = singles.get(g.key(), math.inf)
        if not settings.KEEP_CHEAPER_TURNS and single < math.inf:
            continue
        if pen < min(best.penalty, single) and g.key() not in out:
            out[g.key()] = (g, flips)
    return list(out.values())


def _droppable(
    best: Grouping, members: list[int], dets: Sequence[Detection]
) -> list[tuple[int, str]]:
    """Row tiles that may not belong to the hand, each with why: the least confident one
    (:func:`_doubtful_extra`), and a face-down tile at an end of the row when the reading
    has one there unexplained (a wall or another player's tile lying on the hand's line;
    a closed kan's face-down tiles read as one), and the tile furthest off the row's line
    when the reading has tiles too many (:data:`DROP_OFF_LINE`: an added kan's tile taken
    into the row). The row is re-read without each in turn;
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
    if settings.DROP_OFF_LINE and "too_many_tiles" in codes and len(members) >= 3:
        # An added kan's tile lies on the called tile's far side, a stray tile beside the
        # row: of a row with tiles too many, the one furthest off its line.
        boxes = np.array([dets[i].box for i in members], dtype=float)
        centres = centres_of(boxes)
        origin, d = fit_line(centres)
        off = np.abs((centres - origin) @ np.array([-d[1], d[0]]))
        far = members[int(np.argmax(off))]
        # Clearly off: a tile on the line is no more out of place than its neighbours.
        clear = off.max() > settings.DROP_OFF_LINE * float(np.median(sizes_of(boxes)))
        if clear and far not in {i for i, _ in out}:
            out.append((far, "the tile furthest off the hand's line, in a row with tiles too many"))
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
    return weakest if dets[weakest].confidence < settings.LOW_CONFIDENCE else None


def _consequential_doubts(
    best: Grouping, row: _DoubtfulRow
) -> tuple[list[GroupingWarning], list[Grouping]]:
    """Warnings for near-threshold judgements (sideways, gaps) that change the hand when
    taken the other way, and the hands they would give (returned as alternatives).

    A doubt that changes nothing (a gap between two melds, say) is not worth asking about.
    """
    side_doubts = list(row.geo.doubtful_sideways)
    gap_doubts = [
        t.det
        for t in best.order[1:]
        if settings.GAP_DOUBT[0] < t.gap_before < settings.GAP_DOUBT[1]
    ]
    tried = side_doubts[: settings.MAX_DOUBTS_TRIED]
    # A meld's doubtful called tile may be its neighbour instead (who it came from then
    # changes): the two are also taken the other way together.
    doubtful = set(tried)
    swaps = _called_tile_swaps(best, doubtful) + _kakan_swaps(best)
    named_only = set(_clear_called_swaps(best, doubtful))
    swaps += sorted(named_only - set(swaps))
    gap_tried = gap_doubts[: settings.MAX_DOUBTS_TRIED]
    changed: dict[str, list[int]] = {"doubtful_sideways": [], "doubtful_gap": []}
    others: list[Grouping] = []
    for code, flip, trials in (
        ("doubtful_sideways", "flip_sideways", [(det,) for det in tried] + swaps),
        ("doubtful_gap", "flip_gaps", [(det,) for det in gap_tried]),
    ):
        for flips in trials:
            other = row.read(**{flip: frozenset(flips)})
            cost = (
                row.flip_cost(flips, other.reading)
                if flip == "flip_sideways"
                else settings.P_DOUBT_FLIP
            )
            named = flips in named_only  # named and offered only: never chosen, no price cut
            if other.key() == best.key():
                # The hand as judged, explained better turned (a tile no longer left
                # unexplained): its reading at that price (SAME_HAND_TURNS), else the dearer
                # reading as judged lets a set of turns giving another hand win on price.
                # Gaps are left be: a gap turned changes how the layout reads, not the tiles.
                if flip == "flip_sideways" and not named and _cheaper_same_hand(other, cost, best):
                    others.append(replace(other, penalty=other.penalty + cost))
                continue
            # Taken the other way the hand changes, but reads far worse: not a real doubt.
            if other.penalty < best.penalty + settings.DOUBT_REACH:
                changed[code].extend(d for d in flips if d not in changed[code])
                penalty = other.penalty + cost
                if named:
                    penalty = _never_chosen(penalty, best)
                others.append(replace(other, penalty=penalty))
    if settings.SIDE_GAP_PAIRS:
        others += _side_gap_pairs(best, row, tried, gap_tried, changed)
    warnings: list[GroupingWarning] = []
    for code in ("doubtful_sideways", "doubtful_gap"):
        if changed[code]:
            what = "upright or sideways" if code == "doubtful_sideways" else "a gap or none"
            warnings.append(
                GroupingWarning(
                    code,
                    f"it is unclear whether these are {what}; the other way, the hand changes "
                    "(see alternatives)",
                    tuple(changed[code]),
                )
            )
    return warnings, others


def _side_gap_pairs(
    best: Grouping,
    row: _DoubtfulRow,
    sides: Sequence[int],
    gaps: Sequence[int],
    changed: dict[str, list[int]],
) -> list[Grouping]:
    """Readings with a doubtful sideways tile and a doubtful gap turned together
    (:data:`SIDE_GAP_PAIRS`) that give another hand within :data:`DOUBT_REACH`; their
    tiles join ``changed`` (named by the doubts' warnings). The winning tile is told by
    either a sideways tile at an end or a gap: a tile just past the sideways threshold at
    one end and a gap just under the threshold at the other each read the same hand
    turned alone (the other still tells the winning tile), and only turned together give
    the other winning tile. Such readings are alternatives, never the chosen reading."""
    out: list[Grouping] = []
    for side in sides:
        for gap in gaps:
            if gap == side:
                continue
            other = row.read(flip_sideways=frozenset([side]), flip_gaps=frozenset([gap]))
            if other.key() == best.key() or other.penalty >= best.penalty + settings.DOUBT_REACH:
                continue
            cost = row.flip_cost([side], other.reading) + settings.P_DOUBT_FLIP
            # Named, never chosen: let win where it read for less than the layout as judged,
            # the pair read one hand more right on the study seeds and one more wrong on the
            # check seeds.
            out.append(replace(other, penalty=_never_chosen(other.penalty + cost, best)))
            for code, det in (("doubtful_sideways", side), ("doubtful_gap", gap)):
                if det not in changed[code]:
                    changed[code].append(det)
    return out


def _never_chosen(penalty: float, best: Grouping) -> float:
    """A reading's price kept above the best reading's, so that it is offered and named but
    never chosen over it."""
    return max(penalty, math.nextafter(best.penalty, math.inf))


def _cheaper_same_hand(other: Grouping, cost: float, best: Grouping) -> bool:
    """Whether a turned judgement reads the hand as judged for less (:data:`SAME_HAND_TURNS`)."""
    return settings.SAME_HAND_TURNS and other.penalty + cost < best.penalty


def _called_tile_swaps(best: Grouping, doubtful: set[int]) -> list[tuple[int, int]]:
    """(called tile, neighbour) pairs of the best reading's melds whose sideways tile is a
    doubtful judgement and whose upright neighbour in the meld could be the called one (in a
    pon or open kan any other tile of it, :data:`PON_SWEEP_SWAPS`); and
    (called tile, first tile) of a chi read with its sideways tile not first, doubtful or
    not (:data:`CHI_FIRST_SWAP`): a chi is called only from the left player, so if the
    tiles are a chi, its first tile is the sideways one."""
    side = {t.det for t in best.order if t.sideways}
    out = []
    for meld in best.melds:
        dets = list(meld.dets)
        for k, det in enumerate(dets):
            if det in side and det in doubtful:
                near = (k - 1, k + 1)
                if settings.PON_SWEEP_SWAPS and meld.kind != "chi":
                    # A pon's or kan's tiles are all alike: any of them may be the called one.
                    near = tuple(j for j in range(len(dets)) if j != k)
                for j in near:
                    if 0 <= j < len(dets) and dets[j] not in side:
                        out.append((det, dets[j]))
            if (
                settings.CHI_FIRST_SWAP
                and meld.kind == "chi"
                and det in side
                and k > 0
                and dets[0] not in side
                and (det, dets[0]) not in out
            ):
                out.append((det, dets[0]))
    return out


def _clear_called_swaps(best: Grouping, doubtful: set[int]) -> list[tuple[int, int]]:
    """(called tile, other tile) pairs of the best reading's pons and open kans whose
    called tile is judged sideways beyond doubt and whose other tile is a doubt
    (:data:`SWAP_TO_DOUBTFUL`): seen end-on or from low down, the box judged widest need not
    be the called tile's, and whom the meld came from then changes. Such readings are named
    and offered, never chosen: chosen, they read more hands wrong than right on the study
    seeds."""
    if not settings.SWAP_TO_DOUBTFUL:
        return []
    side = {t.det for t in best.order if t.sideways}
    return [
        (det, other)
        for meld in best.melds
        if meld.kind != "chi"
        for det in meld.dets
        if det in side and det not in doubtful
        for other in meld.dets
        if other != det and other in doubtful and other not in side
    ]


def _kakan_marks(
    best: Grouping,
    geo: RowGeometry,
    members: list[int],
    dets: Sequence[Detection],
    kept: Sequence[int],
    split: int | None,
) -> list[int]:
    """Upright row tiles of the best reading with a fourth copy of their tile lying just
    beyond them (:func:`hand_row._beyond_upright`): doubts, each may be an added kan's called
    tile (when the meld was not read at all, the tile turned alone reads it)."""
    if not settings.STACK_ON_UPRIGHT or not best.order:
        return []
    geo = _reading_geometry(geo, members, dets, split, best.reading)
    up = _far_side(geo.direction, best.reading)
    row = set(geo.members) | {t.stacked for t in best.order if t.stacked is not None}
    others = [i for i in kept if i not in row]
    return [h for h, _ in _beyond_upright(geo, dets, others, up)]


def _kakan_swaps(best: Grouping) -> list[tuple[int, int]]:
    """(called tile, upright tile) pairs of the best reading's pons and open kans with a
    fourth copy of their tile lying just beyond the upright one (``possible_kakan`` with
    ``beyond_upright``, :func:`hand_row._stack_on_upright`): turned together, the upright tile
    becomes the called one and the copy beyond it its added tile."""
    pairs = [
        pair
        for w in best.warnings
        if w.code == "possible_kakan" and dict(w.extra).get("beyond_upright")
        for pair in zip(w.detections[::2], w.detections[1::2], strict=True)
    ]
    side = {t.det for t in best.order if t.sideways}
    out = []
    for h, _ in pairs:
        meld = next((m for m in best.melds if h in m.dets), None)
        called = [d for d in meld.dets if d in side] if meld is not None else []
        if len(called) == 1 and (called[0], h) not in out:
            out.append((called[0], h))
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
        if det.confidence >= settings.LOW_CONFIDENCE and len(cands) == 1:
            continue
        if det.confidence >= settings.LOW_CONFIDENCE and all(
            c < settings.LOW_CONFIDENCE / 2 for t, c in cands.items() if t != det.tile
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
