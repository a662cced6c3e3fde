"""The whole step: detections in, the chosen grouping, its alternatives and warnings out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from vision.grouping import settings
from vision.grouping.doubts import (
    _confidence_warnings,
    _count_warnings,
    _droppable,
    _read_settled,
    _settle_doubts,
    hand_detections,
)
from vision.grouping.duplicates import _merge_duplicates
from vision.grouping.hand_row import _hand_rows, _reach_further, _read_row_splits, _thinned_rows
from vision.grouping.indicators import _cut_by_frame
from vision.grouping.memo import sharing
from vision.grouping.values import Detection, Grouping, GroupingResult, GroupingWarning
from vision.rows import Row, find_rows, sizes_of


def _normalise(dets: Sequence[Detection]) -> list[Detection]:
    return [
        replace(d, tile=settings.FACE_DOWN) if d.tile in settings.FACE_DOWN_NAMES else d
        for d in dets
    ]


def group_detections(
    detections: Sequence[Detection], *, width: float, height: float
) -> GroupingResult:
    """Group detected tiles into the player's hand. Never raises for odd layouts: every
    doubt becomes a warning (see :mod:`vision.grouping` for the steps)."""
    with sharing():  # the steps ask the same questions many times (vision.grouping.memo)
        return _group(detections, width=width, height=height)


def _indicators_side(
    candidates: list[Grouping],
) -> tuple[list[Grouping], list[GroupingWarning]]:
    """The best reading, or the same hand read the other way round when that reading finds
    the dora indicators on its far side and the best finds none (see
    :data:`~vision.grouping.settings.SIDE_BY_INDICATORS`): where both directions give one
    hand, the indicators are what tells the player's side."""
    best = candidates[0]
    margin = settings.SIDE_BY_INDICATORS
    if margin <= 0 or best.dora or best.hand() is None:
        return candidates, []
    for g in candidates[1:]:
        if g.penalty > best.penalty + margin:
            break
        if g.reading != best.reading and g.dora and g.key()[:3] == best.key()[:3]:
            return [g, *(c for c in candidates if c is not g)], [
                GroupingWarning(
                    "possible_indicators",
                    "the hand reads the same both ways round: the way with the dora indicators "
                    "beyond it (away from the player) was taken",
                    g.dora,
                )
            ]
    return candidates, []


def _indicator_alternatives(best: Grouping) -> list[Grouping]:
    """The chosen hand with each other reading of its indicators that the learned scorers
    give a fair chance (:data:`~vision.grouping.settings.INDICATOR_ALTERNATIVE`): one tap on
    the page where the photo cannot tell dora from discards. Never taken, and not a layout
    doubt (``ambiguous_grouping``): the indicator warnings already name the tiles. Not cut
    by the frame either: indicators the frame cut from the chosen hand may be offered."""
    return [
        replace(best, dora=dora, ura=ura, warnings=(), other_indicators=())
        for dora, ura in best.other_indicators
    ]


def _win_named_by_gaps(
    warnings: Sequence[GroupingWarning], best: Grouping
) -> list[GroupingWarning]:
    """Warnings about the best reading, a gap among the concealed tiles also naming the winning
    tile read (:data:`GAP_NAMES_WIN`), and so does a doubtful gap beside it
    (:data:`DOUBTFUL_GAP_NAMES_WIN`): such a gap is the mark that sets a winning tile apart,
    so either it means nothing or the winning tile is another. Named only here, after the
    reading: the gap's own tiles steer the re-reading of doubts."""
    if best.win is None:
        return list(warnings)
    win = best.win.det
    beside = _beside_win(best)

    def names_win(w: GroupingWarning) -> bool:
        if win in w.detections:
            return False
        if w.code == "gap_in_concealed":
            return settings.GAP_NAMES_WIN
        # A doubtful gap is named by the tile after it in the reading's order.
        return (
            w.code == "doubtful_gap"
            and settings.DOUBTFUL_GAP_NAMES_WIN
            and any(d in beside for d in w.detections)
        )

    return [
        replace(
            w,
            message=f"{w.message}; the winning tile read (named last) may be another",
            detections=(*w.detections, win),
            extra=(*w.extra, ("winning_tile_detection", win)),
        )
        if names_win(w)
        else w
        for w in warnings
    ]


def _beside_win(best: Grouping) -> set[int]:
    """The detections whose gap before them (in the reading's order) touches the winning
    tile: the winning tile itself and the tile after it."""
    dets = [t.det for t in best.order]
    if best.win is None or best.win.det not in dets:
        return set()
    k = dets.index(best.win.det)
    return set(dets[k : k + 2])


def _group(detections: Sequence[Detection], *, width: float, height: float) -> GroupingResult:
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
        score = min(g.penalty for g in cands) + settings.P_FAR * math.log(biggest / size)
        read.append((score, cands, geo, row_warnings, members, split))
    _, candidates, geo, row_warnings, members, split = min(read, key=lambda r: r[0])
    judged = min(candidates, key=lambda g: g.penalty)
    candidates, doubts = _settle_doubts(candidates, geo, members, dets, kept, names, split)
    best = candidates[0]
    # A row short of tiles: tiles on its line further on, then also tiles just beyond its
    # ends whose faces lie on a standing/flat neighbour line (see _reach_further).
    joined = members
    for step in (False, True) if settings.STEP_REACH[1] else (False,):
        if not any(w.code == "too_few_tiles" for w in best.warnings):
            break
        wider = _reach_further(members, dets, kept, step=step)
        if len(wider) > len(members):
            cands, other_doubts, other_warnings = _read_settled(wider, dets, kept, names)
            if cands[0].penalty < best.penalty:
                added = tuple(i for i in wider if i not in joined)
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
    droppable = _droppable(best, members, dets)
    if settings.DROP_AS_JUDGED and best is not judged and members is joined:
        # A turned judgement may have settled the row's tile too many (DROP_AS_JUDGED).
        seen = {i for i, _ in droppable}
        droppable += [(i, why) for i, why in _droppable(judged, members, dets) if i not in seen]
    dropped: list[GroupingWarning] = []
    for _ in range(settings.DROP_ROUNDS):
        before = len(dropped)
        for weakest, why in droppable:
            rest = [i for i in members if i != weakest]
            if not rest or weakest not in members:
                # Left out in an earlier round, or a row of one face-down tile: nothing
                # left to read without it.
                continue
            cands, other_doubts, other_warnings = _read_settled(rest, dets, kept, names)
            if cands[0].penalty < best.penalty:
                candidates, doubts, members = cands, other_doubts, rest
                dropped.append(
                    GroupingWarning(
                        "dropped_tile",
                        f"left out {dets[weakest].tile} ({dets[weakest].confidence:.2f}): {why}",
                        (weakest,),
                    )
                )
                row_warnings = [*other_warnings, *dropped]
                best = candidates[0]
        if len(dropped) == before:
            break
        # The row read without a tile may show another out of place (a dead wall lying on
        # the hand's line: its indicator off the line, then a face-down tile at the end).
        droppable = _droppable(best, members, dets)
    if settings.BACKS_INTERLEAVED and best.hand() is None:
        # No hand read, even with tiles dropped: a wall on the hand's line may have taken it
        # (seen from low down from across the table). The rows without the wall's backs, as
        # a last resort only (a river's row so thinned can read as a hand of discards).
        thinned = [
            (thin, left_out, *_read_settled(thin, dets, kept, names))
            for thin, left_out in _thinned_rows(rows, dets, hand_rows)
        ]
        found = [t for t in thinned if t[2][0].hand() is not None]
        if found:
            members, left_out, candidates, doubts, row_warnings = min(
                found, key=lambda t: t[2][0].penalty
            )
            best = candidates[0]
            warnings.append(
                GroupingWarning(
                    "backs_left_out",
                    "face-down tiles on the hand's line with no place of their own among its "
                    "tiles (a wall just beyond the hand) were left out of it",
                    left_out,
                )
            )
    candidates, side_warnings = _indicators_side(candidates)
    row_warnings = [*row_warnings, *side_warnings]
    # Dora indicators cut by the photo's edge (only here is the frame's size known).
    candidates = [_cut_by_frame(g, dets, width, height) for g in candidates]
    best = candidates[0]
    warnings.extend(row_warnings)
    alternatives: list[Grouping] = []
    seen = {best.key()}
    for g in candidates[1:]:
        if g.penalty > best.penalty + settings.ALTERNATIVE_MARGIN:
            break
        if g.key() not in seen:
            seen.add(g.key())
            alternatives.append(g)
    warnings.extend(_win_named_by_gaps(best.warnings, best))
    if settings.WARN_NO_DORA and not best.dora and best.hand() is not None:
        # A riichi table always shows a dora indicator: none read means it is out of the
        # photo or was not found (a tile with no box), and the score would count no dora.
        warnings.append(
            GroupingWarning(
                "no_dora_indicator",
                "no dora indicator read beside the hand: the score counts no dora; add the "
                "indicator if the ruleset uses them",
            )
        )
    close = [g for g in alternatives if g.penalty <= best.penalty + settings.AMBIGUOUS_MARGIN]
    if close:
        warnings.append(
            GroupingWarning(
                "ambiguous_grouping",
                f"the layout reads as {len(close) + 1} different hands almost equally well",
                tuple(t.det for t in best.order),
            )
        )
    for g in _indicator_alternatives(best):
        if g.key() not in seen:
            seen.add(g.key())
            alternatives.append(g)
    warnings.extend(_win_named_by_gaps(doubts, best))
    warnings.extend(_count_warnings(dets, kept, set(hand_detections(best))))
    warnings.extend(_confidence_warnings(dets, best, extra_candidates))
    return GroupingResult(best, tuple(alternatives), tuple(warnings), names, tuple(rows))
