"""A hand the photo shows but the boxes do not quite give: completed, or read as a win.

First, boxes named the blank white dragon with some doubt (:data:`BLANK_CONF`) count only as
tiles of the hand: a stretch of table, a tile's side or a pale tile back looks blank too, and
such phantom blanks were read as dora indicators (:func:`without_doubtful_blanks`).

Measured on generated tuning scenes (seeds 992001-992009, 862 photos showing the whole
hand), 71 photos gave no hand at all. In most, every tile of the hand had a box from the
detector, but the crop classifier doubted one tile's class so much (the final confidence
below 0.25) that the box was left out: the hand row is one tile short, with a hole where
the tile lies or one tile missing at an end. :func:`recover_missing_tile` looks there when
the grouping reads a hand one tile short (``too_few_tiles``): first the boxes left out for
a doubtful class that lie in a hole of the row, then tile-sized boxes placed in each hole
(a step between neighbours of at least :data:`HOLE_STEPS` pitches) and a pitch beyond each
end, named by the crop classifier, which must be sure it is a tile (``none`` at most
:data:`MAX_NONE`: an empty stretch of table is ``none``). Of those that complete the hand,
the reading with the lowest penalty is kept; the added tile is marked ``recovered`` in
``detections``, always warned (``recovered_tile``) and kept below the grouping's
LOW_CONFIDENCE, so that its candidate classes are scored and asked about. A row one tile
short with no hole may hold one box over two neighbouring tiles:
:func:`split_straddling_box` reads each box of the row as two tiles, the classifier
reading both halves (warned ``split_tile``, both halves below LOW_CONFIDENCE too).

A hand read whole may still be no winning hand, a misnamed tile being the commonest
reason (on the same scenes, 43 of 231 lost hands had every key tile boxed but one named
wrong, most with a confidence of 0.3-0.6 and the right class as runner-up). A player shows
a winning hand, so :func:`read_for_win` reads such a hand with the uncertain tile's
candidate that makes it a win (the what-if rows of the ``group`` response already score
each candidate), warned ``read_for_win``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from datasets.classes import BACK, CLASS_NAMES
from vision.boxes import box_iou_batch
from vision.detections import Detections
from vision.image_io import Photo
from vision.recognition import FACE_DOWN, sideways_flags
from vision.rows import centres_of
from vision.tile_classifier import TileClassifier, crop_tiles

#: A step between neighbours' centres of at least this many pitches leaves room for a tile.
HOLE_STEPS = 1.75
#: The classifier must give the tile at least this probability (and ``none`` at most
#: :data:`MAX_NONE`) for a recovered tile: an empty stretch of table is ``none`` (0.7-0.99
#: on the holes of tuning scenes). 0.35 / 0.15 recovered one hand more than 0.5 / 0.05 on
#: tuning seeds 992001-992009 and changed nothing else; 0.25 / 0.3 no more hands right.
MIN_PROBABILITY = 0.35
MAX_NONE = 0.15
#: A candidate box overlapping an existing detection this much is that tile, not a new one.
MAX_OVERLAP = 0.3
#: At most this many candidates are tried in the grouping (each costs one grouping).
MAX_TRIES = 3
#: The confidence given to a recovered tile: below the grouping's LOW_CONFIDENCE, so that
#: the grouping itself names it uncertain (and scores its candidates), also when the page
#: re-reads the detections without this step.
RECOVERED_CONFIDENCE = 0.5
#: A box named the blank white dragon (5z) below this confidence counts only as a tile of the
#: hand: a blank face is also what a stretch of table, a tile's side or a pale tile back
#: shows, and the classifier names such crops 5z with middling confidence. On generated
#: tuning photos (seed 992001, 294 scenes) 282 of the 518 boxes named 5z were below 0.7, and
#: 217 of those were no white dragon (on no tile or a face-down one, 3 on other tiles); read
#: as dora indicators, such phantom blanks cost 9 of the 49 wrong hands. (Dropped from the
#: photo outright, the true blanks of hands went with them: 4 hands lost of 9 gained.) Left
#: out of all but the hand (:func:`without_doubtful_blanks`), exact hands went 245 -> 251 of
#: 294 (seed 992001), 236 -> 246 of 289 (992002) and, on a seed looked at only after the bar
#: was chosen, 221 -> 229 of 281 (992003), no hand silent, `recognize` 430 -> 444 ms a photo
#: (992004, 60 photos); on the first two, bars of 0.5 / 0.6 / 0.7 / 0.8 / 0.9 gave
#: 472 / 473 / 479 / 475 / 469 exact (replayed without the other mending steps).
BLANK_CONF = 0.7


@dataclass(frozen=True, slots=True)
class Candidate:
    """A box where a tile may be missing, and what the classifier reads there."""

    box: tuple[float, float, float, float]
    tile: str
    probability: float
    none: float
    runners_up: tuple[tuple[str, float], ...]


def hand_dets(grouped: dict[str, Any]) -> list[int]:
    """The detections of the hand row the grouping read (concealed, winning tile, melds)."""
    layout = grouped.get("layout") or {}
    out = list(layout.get("concealed") or [])
    if layout.get("win") is not None:
        out.append(layout["win"])
    for meld in layout.get("melds") or []:
        out.extend(meld)
    return out


def indicator_dets(grouped: dict[str, Any]) -> list[int]:
    """The detections the grouping read as dora and ura indicators.

    >>> indicator_dets({"layout": {"dora_indicators": [4], "ura_indicators": [7]}})
    [4, 7]
    """
    layout = grouped.get("layout") or {}
    return [*(layout.get("dora_indicators") or ()), *(layout.get("ura_indicators") or ())]


def doubtful_blanks(request: dict[str, Any], grouped: dict[str, Any]) -> list[int]:
    """The boxes named 5z below :data:`BLANK_CONF` that the reading leaves out of the hand.

    >>> blank = {"tile": "5z", "box": [0, 0, 3, 4], "confidence": 0.5}
    >>> sure = {**blank, "confidence": 0.9}
    >>> doubtful_blanks({"detections": [blank, sure, blank]}, {"layout": {"concealed": [2]}})
    [0]
    """
    in_hand = set(hand_dets(grouped))
    return [
        i
        for i, d in enumerate(request["detections"])
        if d["tile"] == "5z" and d.get("confidence", 1.0) < BLANK_CONF and i not in in_hand
    ]


def without_doubtful_blanks(
    request: dict[str, Any],
    grouped: dict[str, Any],
    found: list[dict[str, Any]],
    group: Callable[[dict[str, Any]], dict[str, Any]],
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]] | None:
    """The photo grouped again without its :func:`doubtful_blanks` (so that none is read as
    an indicator or lengthens a run of them): ``(request, grouping, found, dropped)``, the
    dropped boxes for the doubtful ones (the recovery may still put one in a hand's hole), or
    None when none of them takes part in the reading (read as an indicator or named by a
    warning). That condition spares the second grouping (~0.1-0.2 s) in most photos: on the
    tuning seeds 992001-992003, 342 of 864 photos held a doubtful blank, 99 took part, and
    the others' regrouping changed 1 hand."""
    blanks = set(doubtful_blanks(request, grouped))
    involved = {
        *indicator_dets(grouped),
        *(i for w in grouped.get("warnings") or () for i in w.get("detections") or ()),
    }
    if not blanks & involved:
        return None
    keep = [i for i in range(len(request["detections"])) if i not in blanks]
    request = {**request, "detections": [request["detections"][i] for i in keep]}
    dropped = [{k: v for k, v in found[i].items() if k != "sideways"} for i in sorted(blanks)]
    return request, group(request), [found[i] for i in keep], dropped


def is_one_short(grouped: dict[str, Any]) -> bool:
    """The grouping read a row that lacks exactly one tile to be a hand."""
    if grouped.get("hand") is not None:
        return False
    for w in grouped.get("warnings") or []:
        if w.get("code") == "too_few_tiles" and w.get("expected", 0) - w.get("count", 0) == 1:
            return True
    return False


def candidate_boxes(boxes: np.ndarray) -> np.ndarray:
    """``(M, 4)`` boxes where one tile may be missing from a row of tile boxes ``(N, 4)``.

    The row's direction is the principal axis of the centres; its pitch the median step
    between neighbours. A step of at least :data:`HOLE_STEPS` pitches gets a box beside each
    neighbour and one half way; each end gets one a pitch beyond. A box's size is that of
    the neighbour it stands beside (perspective makes far tiles smaller).

    >>> row = np.array([[0, 0, 30, 40], [32, 0, 62, 40], [96, 0, 126, 40], [128, 0, 158, 40]])
    >>> candidate_boxes(row).round().tolist()  # doctest: +NORMALIZE_WHITESPACE
    [[64.0, 0.0, 94.0, 40.0], [-32.0, 0.0, -2.0, 40.0], [160.0, 0.0, 190.0, 40.0]]
    """
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    if len(boxes) < 3:
        return np.zeros((0, 4))
    centres = centres_of(boxes)
    mean = centres.mean(axis=0)
    _, _, vt = np.linalg.svd(centres - mean)
    direction = vt[0]
    order = np.argsort((centres - mean) @ direction)
    boxes, centres = boxes[order], centres[order]
    steps = np.linalg.norm(np.diff(centres, axis=0), axis=1)
    pitch = float(np.median(steps))
    if pitch <= 0:
        return np.zeros((0, 4))
    sizes = boxes[:, 2:] - boxes[:, :2]
    out: list[np.ndarray] = []

    def place(centre: np.ndarray, size: np.ndarray) -> None:
        if all(np.linalg.norm(centre - (b[:2] + b[2:]) / 2) > 0.3 * pitch for b in out):
            out.append(np.concatenate([centre - size / 2, centre + size / 2]))

    for k, step in enumerate(steps):
        if step < HOLE_STEPS * pitch:
            continue
        a, b = centres[k], centres[k + 1]
        unit = (b - a) / step
        place(a + unit * pitch, sizes[k])
        place(b - unit * pitch, sizes[k + 1])
        place((a + b) / 2, (sizes[k] + sizes[k + 1]) / 2)
    first = (centres[1] - centres[0]) / max(steps[0], 1e-9)
    last = (centres[-1] - centres[-2]) / max(steps[-1], 1e-9)
    place(centres[0] - first * pitch, sizes[0])
    place(centres[-1] + last * pitch, sizes[-1])
    return np.array(out).reshape(-1, 4)


def split_boxes(boxes: np.ndarray) -> np.ndarray:
    """``(N, 2, 4)``: for each of a row's tile boxes ``(N, 4)`` (in the given order), the
    two tile boxes it would be if it lay across two tiles: centred half a pitch before and
    after its centre along the row, each the size of its neighbour on that side.

    The detector sometimes gives one box over two neighbouring tiles (on tuning seeds
    992001-992004, 7 of 26 hand rows read one or two tiles short): the row is a tile short
    with no hole, and each tile's crop is half table, half another tile.

    >>> row = np.array([[0, 0, 30, 40], [32, 0, 62, 40], [80, 0, 110, 40], [128, 0, 158, 40]])
    >>> split_boxes(row)[2].round().tolist()
    [[64.0, 0.0, 94.0, 40.0], [96.0, 0.0, 126.0, 40.0]]
    """
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    if len(boxes) < 3:
        return np.zeros((0, 2, 4))
    centres = centres_of(boxes)
    mean = centres.mean(axis=0)
    _, _, vt = np.linalg.svd(centres - mean)
    order = np.argsort((centres - mean) @ vt[0])
    steps = np.linalg.norm(np.diff(centres[order], axis=0), axis=1)
    sizes = boxes[:, 2:] - boxes[:, :2]
    out = np.zeros((len(boxes), 2, 4))
    for rank, k in enumerate(order):
        # The pitch near the box (perspective shrinks far tiles): the median of nearby
        # steps but the box's own two, each half a pitch too long when it straddles.
        window = range(max(0, rank - 4), min(len(steps), rank + 3))
        near = [steps[j] for j in window if j not in (rank - 1, rank)]
        pitch = float(np.median(near or steps))
        before = order[rank - 1] if rank > 0 else order[rank + 1]
        after = order[rank + 1] if rank + 1 < len(order) else order[rank - 1]
        unit = centres[order[min(rank + 1, len(order) - 1)]] - centres[order[max(rank - 1, 0)]]
        unit = unit / max(float(np.linalg.norm(unit)), 1e-9)
        for half, (sign, side) in enumerate(((-1, before), (1, after))):
            centre = centres[k] + sign * unit * pitch / 2
            out[k, half] = np.concatenate([centre - sizes[side] / 2, centre + sizes[side] / 2])
    return out


def read_candidates(
    boxes: np.ndarray, source: np.ndarray, factor: float, classifier: TileClassifier
) -> list[Candidate]:
    """The classifier's reading of each candidate box (photo pixels; ``source`` is the
    photo decoded at ``factor`` array pixels per photo pixel), surest first."""
    return sorted(_readings(boxes, source, factor, classifier), key=lambda c: -c.probability)


def _readings(
    boxes: np.ndarray, source: np.ndarray, factor: float, classifier: TileClassifier
) -> list[Candidate]:
    """The classifier's reading of each box, in the boxes' order."""
    if len(boxes) == 0:
        return []
    probs = classifier.probabilities(crop_tiles(source, np.asarray(boxes) * factor))
    tiles = probs[:, : len(CLASS_NAMES)]
    out = []
    for box, p, none in zip(boxes, tiles, probs[:, -1], strict=True):
        ranked = np.argsort(-p)
        best = int(ranked[0])
        runners = tuple((CLASS_NAMES[int(c)], float(p[c])) for c in ranked[1:3] if p[c] >= 0.05)
        out.append(
            Candidate(
                tuple(float(v) for v in box),
                CLASS_NAMES[best],
                float(p[best]),
                float(none),
                runners,
            )
        )
    return out


def is_tile(c: Candidate) -> bool:
    """The classifier is sure enough that a face-up tile lies there (whatever its class)."""
    return c.probability >= MIN_PROBABILITY and c.none <= MAX_NONE and c.tile != BACK


def near_holes(boxes: np.ndarray, row: np.ndarray, holes: np.ndarray) -> np.ndarray:
    """Which ``boxes`` lie where a tile of ``row`` may be missing: the centre within half a
    pitch of a hole's centre (``holes`` from :func:`candidate_boxes`).

    >>> row = np.array([[0, 0, 30, 40], [32, 0, 62, 40], [96, 0, 126, 40], [128, 0, 158, 40]])
    >>> near_holes(np.array([[60, 2, 96, 38], [200, 0, 230, 40]]), row, candidate_boxes(row))
    array([ True, False])
    """
    boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
    if len(boxes) == 0 or len(holes) == 0:
        return np.zeros(len(boxes), dtype=bool)
    centres = centres_of(boxes)
    row_centres = centres_of(np.asarray(row, dtype=float))
    # The pitch, whatever the row's direction: the median distance to the nearest neighbour.
    apart = np.linalg.norm(row_centres[:, None, :] - row_centres[None, :, :], axis=2)
    np.fill_diagonal(apart, np.inf)
    pitch = float(np.median(apart.min(axis=1)))
    hole_centres = centres_of(holes)
    dist = np.linalg.norm(centres[:, None, :] - hole_centres[None, :, :], axis=2)
    return dist.min(axis=1) <= 0.5 * pitch


def _unsure_in_holes(
    unsure: Sequence[dict[str, Any]],
    row: np.ndarray,
    holes: np.ndarray,
    free: Callable[[np.ndarray], np.ndarray],
) -> list[dict[str, Any]]:
    """The left-out boxes lying in a hole of the row, surest first, their confidence capped."""
    if not unsure:
        return []
    boxes = np.array([d["box"] for d in unsure], dtype=float)
    ok = free(boxes) & near_holes(boxes, row, holes)
    ranked = sorted(
        (d for d, k in zip(unsure, ok, strict=True) if k), key=lambda d: -d["confidence"]
    )
    return [{**d, "confidence": min(d["confidence"], RECOVERED_CONFIDENCE)} for d in ranked]


def _as_detection(c: Candidate) -> dict[str, Any]:
    return {
        "tile": c.tile,
        "box": [round(v) for v in c.box],
        "confidence": min(c.probability, RECOVERED_CONFIDENCE),
        "candidates": [{"tile": t, "confidence": round(p, 4)} for t, p in c.runners_up],
    }


def _least_penalty(
    request: dict[str, Any], tries: Sequence[tuple[Sequence[dict[str, Any]], Sequence[int]]]
) -> tuple[float, int] | None:
    """Of the first :data:`MAX_TRIES` readings (the request's detections as mended, and the
    mended ones' indices), the one grouped as a whole hand holding every mended detection,
    with the lowest penalty: ``(penalty, its index in tries)``.

    Each try is grouped alone (no what-if scoring, which regroups once per candidate of
    every uncertain tile: seconds on a doubtful photo); the caller makes the full response
    of the chosen one only.
    """
    from vision.grouping import group_detections, parse_detection

    width, height = float(request["width"]), float(request["height"])
    best: tuple[float, int] | None = None
    for k, (dets, mended) in enumerate(tries[:MAX_TRIES]):
        parsed = [parse_detection(d, j) for j, d in enumerate(dets)]
        result = group_detections(parsed, width=width, height=height)
        if result.best is None or result.hand() is None:
            continue
        used = {t.det for t in result.best.order} | {t.stacked for t in result.best.order}
        if not used.issuperset(mended):
            continue
        if best is None or result.best.penalty < best[0]:
            best = (result.best.penalty, k)
    return best


def _best_completion(
    request: dict[str, Any],
    tries: Sequence[dict[str, Any]],
    group: Callable[[dict[str, Any]], dict[str, Any]],
) -> tuple[float, dict[str, Any], dict[str, Any]] | None:
    """Of the first :data:`MAX_TRIES` detections, the one whose addition reads as a whole
    hand (holding it) with the lowest penalty (:func:`_least_penalty`): ``(penalty,
    detection, grouping)``; ``group`` makes the full response of the chosen one only."""
    dets = request["detections"]
    best = _least_penalty(request, [([*dets, added], [len(dets)]) for added in tries])
    if best is None:
        return None
    penalty, k = best
    again = group({**request, "detections": [*dets, tries[k]]})
    return (penalty, tries[k], again) if again.get("hand") is not None else None


def recover_missing_tile(
    request: dict[str, Any],
    grouped: dict[str, Any],
    unsure: Sequence[dict[str, Any]],
    source: Callable[[], tuple[np.ndarray, float]],
    classifier: TileClassifier | None,
    group: Callable[[dict[str, Any]], dict[str, Any]],
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The detection added and the new grouping, when a hand one tile short is completed.

    ``request`` is the ``group`` request that gave ``grouped``; ``unsure`` are detections
    (same form) the pipeline left out for a doubtful class; ``source()`` returns the photo's
    pixels and their scale (array pixels per photo pixel), decoded only when needed;
    ``group`` is the grouping call. None when nothing reads as the missing tile.
    """
    if not is_one_short(grouped):
        return None
    dets: Sequence[dict[str, Any]] = request["detections"]
    members = hand_dets(grouped)
    if len(members) < 3:
        return None
    row = np.array([dets[i]["box"] for i in members], dtype=float)
    holes = candidate_boxes(row)
    if len(holes) == 0:
        return None
    taken = np.array([d["box"] for d in dets], dtype=float).reshape(-1, 4)

    def free(boxes: np.ndarray) -> np.ndarray:
        if len(boxes) == 0 or len(taken) == 0:
            return np.ones(len(boxes), dtype=bool)
        return box_iou_batch(boxes, taken).max(axis=1) < MAX_OVERLAP

    # First the boxes left out for a doubtful class (the detector saw a tile there), then,
    # only when none completes the hand, the classifier's readings of the holes.
    best = _best_completion(request, _unsure_in_holes(unsure, row, holes, free), group)
    if best is None and classifier is not None:
        width, height = float(request["width"]), float(request["height"])
        inside = (
            (holes[:, 0] >= 0)
            & (holes[:, 1] >= 0)
            & (holes[:, 2] <= width)
            & (holes[:, 3] <= height)
        )
        holes = holes[inside & free(holes)]
        if len(holes):
            pixels, factor = source()
            readings = [c for c in read_candidates(holes, pixels, factor, classifier) if is_tile(c)]
            best = _best_completion(request, [_as_detection(c) for c in readings], group)
    if best is None:
        return None
    _, added, again = best
    again["warnings"].append(
        {
            "code": "recovered_tile",
            "message": (
                f"no tile was found at one place of the hand row; the photo there reads as "
                f"{added['tile']}, which completes the hand: check it"
            ),
            "detections": [len(dets)],
            "tiles": [added["tile"]],
        }
    )
    return {**added, "recovered": True}, again


def split_straddling_box(
    request: dict[str, Any],
    grouped: dict[str, Any],
    source: Callable[[], tuple[np.ndarray, float]],
    classifier: TileClassifier | None,
    group: Callable[[dict[str, Any]], dict[str, Any]],
) -> tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]] | None:
    """A hand one tile short completed by reading one box of its row as two tiles:
    ``(index, the box's detection as its first half, the second half appended, new
    grouping)``, or None.

    Each box of the row is split (:func:`split_boxes`); the classifier reads both halves,
    which must both be tiles as :func:`recover_missing_tile` asks of a hole; the splits
    whose halves it reads surest are grouped (at most :data:`MAX_TRIES`), the one whose
    grouping holds a whole hand with both halves with the lowest penalty kept. Both halves
    are warned (``split_tile``) and kept below the grouping's LOW_CONFIDENCE.
    """
    if classifier is None or not is_one_short(grouped):
        return None
    dets: Sequence[dict[str, Any]] = request["detections"]
    members = hand_dets(grouped)
    if len(members) < 3:
        return None
    halves = split_boxes(np.array([dets[i]["box"] for i in members], dtype=float))
    width, height = float(request["width"]), float(request["height"])
    flat = np.clip(halves.reshape(-1, 4), 0, [width, height, width, height])
    pixels, factor = source()
    read = _readings(flat, pixels, factor, classifier)
    readings = [
        (min(a.probability, b.probability), i, (a, b))
        for i, a, b in zip(members, read[0::2], read[1::2], strict=True)
        if is_tile(a) and is_tile(b)
    ]
    readings.sort(key=lambda r: -r[0])
    splits = [(i, _as_detection(a), _as_detection(b)) for _, i, (a, b) in readings[:MAX_TRIES]]
    tried = [[*dets[:i], first, *dets[i + 1 :], second] for i, first, second in splits]
    best = _least_penalty(
        request, [(t, [i, len(dets)]) for t, (i, _, _) in zip(tried, splits, strict=True)]
    )
    if best is None:
        return None
    i, first, second = splits[best[1]]
    again = _regrouped(
        request,
        tried[best[1]],
        group,
        {
            "code": "split_tile",
            "message": (
                f"the hand row was one tile short and one box of it lay across two tiles; "
                f"read as {first['tile']} and {second['tile']}, which complete the hand: "
                f"check them"
            ),
            "detections": [i, len(dets)],
            "tiles": [first["tile"], second["tile"]],
        },
    )
    return None if again is None else (i, first, second, again)


def _regrouped(
    request: dict[str, Any],
    dets: Sequence[dict[str, Any]],
    group: Callable[[dict[str, Any]], dict[str, Any]],
    warning: dict[str, Any],
) -> dict[str, Any] | None:
    """The grouping of ``request`` with ``dets`` as its detections, ``warning`` added; None
    when it reads no hand (a mended reading is kept only when it makes a whole hand)."""
    again = group({**request, "detections": list(dets)})
    if again.get("hand") is None:
        return None
    again["warnings"].append(warning)
    return again


#: A box left out for its doubtful class (the classifier sure it is a face-up tile, not
#: which) whose centre lies within this many indicator sizes of a dora or ura indicator may
#: be an indicator the hand is read without. On tuning seeds 992001-992004 one lay so in 17
#: of the 87 wrong hands (one with no other warning: both ura indicators unread) and in 5 of
#: the 302 right ones; on 992005-992006 in 7 of 24 and 2 of 164.
NEAR_INDICATORS = 1.2


def unread_near_indicators(
    request: dict[str, Any], grouped: dict[str, Any], unsure: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    """The ``unread_near_indicators`` warning when a box left out for its doubtful class
    (``unsure``, as :func:`recover_missing_tile` takes them) lies beside the indicators the
    grouping read: an indicator the score would miss. ``boxes`` gives where (none of them
    is among the response's ``detections``). None when no such box."""
    indicators = indicator_dets(grouped)
    dets: Sequence[dict[str, Any]] = request["detections"]
    kept = {tuple(d["box"]) for d in dets}
    # The dead wall's face-down tiles lie beside the dora indicators in every photo.
    face_up = [d for d in unsure if d["tile"] != FACE_DOWN and tuple(d["box"]) not in kept]
    if not indicators or not face_up:
        return None
    marks = np.array([dets[i]["box"] for i in indicators], dtype=float)
    size = float(np.median(np.maximum(marks[:, 2] - marks[:, 0], marks[:, 3] - marks[:, 1])))
    boxes = np.array([d["box"] for d in face_up], dtype=float)
    apart = np.linalg.norm(centres_of(boxes)[:, None] - centres_of(marks)[None], axis=2)
    near = [
        d for d, a in zip(face_up, apart.min(axis=1), strict=True) if a < NEAR_INDICATORS * size
    ]
    if not near:
        return None
    return {
        "code": "unread_near_indicators",
        "message": (
            f"{len(near)} tile(s) beside the dora indicators could not be read: an indicator "
            f"(dora or ura) may be missing from the hand; check them"
        ),
        "detections": [],
        "tiles": [],
        "boxes": [d["box"] for d in near],
    }


#: Outcomes of scoring a hand (``uncertain`` rows of the ``group`` response) that show the
#: tiles form a winning hand: scored, or a win without a yaku (the context may lack riichi).
WIN_OUTCOMES = (None, "no_yaku")
#: Outcomes that show the hand as read cannot be what the photo shows: a player reveals a
#: winning hand, of real melds (``bad_meld``: a chi not in sequence, a pon of two kinds;
#: on tuning seed 992002 a kan's 5m read 9m, its runner-up 5m) from one set of tiles
#: (``fifth_copy``).
NOT_A_WIN = ("not_a_win", "not_a_hand", "invalid_hand", "bad_meld", "fifth_copy")


def _outcome(row: dict[str, Any]) -> str | None:
    error = row.get("error")
    return error.get("code") if isinstance(error, dict) else None


def read_for_win(
    request: dict[str, Any],
    grouped: dict[str, Any],
    group: Callable[[dict[str, Any]], dict[str, Any]],
) -> tuple[int, dict[str, Any], dict[str, Any]] | None:
    """An uncertain tile read as its candidate, when the hand as read is no win and that
    candidate makes it one: ``(index, the detection as now read, new grouping)``, or None.

    The ``uncertain`` rows of ``grouped`` already score each doubtful tile's candidates
    (what-if scoring); this takes the likeliest candidate (by its confidence) whose hand is
    a win, when the hand read with every tile's own class is not. The tile keeps its low
    confidence and its old class becomes a candidate, so it stays asked about.
    """
    entries = grouped.get("uncertain") or []
    own = [r for e in entries for r in e.get("candidates", []) if r.get("tile") == e.get("tile")]
    if not own or _outcome(own[0]) not in NOT_A_WIN:
        return None
    dets: Sequence[dict[str, Any]] = request["detections"]
    best: tuple[float, int, str] | None = None
    for e in entries:
        i = int(e["detection"])
        confidence = {
            c["tile"]: float(c.get("confidence", 0.0)) for c in dets[i].get("candidates", [])
        }
        for row in e.get("candidates", []):
            tile = row.get("tile")
            if (
                tile == e.get("tile")
                or row.get("hand") is None
                or _outcome(row) not in WIN_OUTCOMES
            ):
                continue
            p = confidence.get(tile, 0.0)
            if best is None or p > best[0]:
                best = (p, i, tile)
    if best is None:
        return None
    p, i, tile = best
    old = dets[i]
    others = [c for c in old.get("candidates", []) if c["tile"] != tile]
    changed = {
        **old,
        "tile": tile,
        "confidence": min(float(old.get("confidence", 1.0)), max(p, 0.01)),
        "candidates": [{"tile": old["tile"], "confidence": old.get("confidence", 1.0)}, *others],
    }
    again = _regrouped(
        request,
        [*dets[:i], changed, *dets[i + 1 :]],
        group,
        {
            "code": "read_for_win",
            "message": (
                f"{old['tile']} ({float(old.get('confidence', 1.0)):.2f}) is read as its "
                f"candidate {tile} ({p:.2f}): as {old['tile']} the tiles form no winning hand, "
                f"as {tile} they do; check it"
            ),
            "detections": [i],
            "tiles": [tile],
            "was": old["tile"],
        },
    )
    return None if again is None else (i, changed, again)


def mend(
    hires: Callable[[], Photo],
    request: dict[str, Any],
    grouped: dict[str, Any],
    unsure: Sequence[dict[str, Any]],
    found: list[dict[str, Any]],
    group: Callable[[dict[str, Any]], dict[str, Any]],
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``recognize``'s last step: the doubtful blanks left out of everything but the hand
    (:func:`without_doubtful_blanks`), a hand one tile short completed
    (:func:`recover_missing_tile`), then a hand that is no win read with an uncertain
    tile's candidate (:func:`read_for_win`). Returns ``found`` (the response's detections,
    a recovered tile appended, a re-read tile renamed with ``was``) and the grouping.
    ``hires`` gives the photo's fuller decode (:func:`vision.recognition.hires_photo`:
    decoded once, shared with the detection step), read only when a hole must be read."""
    from vision.tile_classifier import default_classifier

    def source() -> tuple[np.ndarray, float]:
        photo = hires()
        return photo.pixels, 1.0 / photo.scale

    def sideways_of(dets: Sequence[dict[str, Any]]) -> np.ndarray:
        # Sideways as every other box of the response is judged: against the photo's
        # typical tile shape (a portrait photo's upright tiles are wider than tall).
        boxes = np.array([d["box"] for d in dets], dtype=float)
        return sideways_flags(Detections(boxes, np.ones(len(boxes)), np.zeros(len(boxes))))

    found = list(found)
    regrouped = without_doubtful_blanks(request, grouped, found, group)
    if regrouped is not None:
        request, grouped, found, dropped = regrouped
        unsure = [*unsure, *dropped]
    recovered = recover_missing_tile(request, grouped, unsure, source, default_classifier(), group)
    if recovered is not None:
        added, grouped = recovered
        found.append({**added, "sideways": bool(sideways_of([*found, added])[-1])})
        plain = {k: v for k, v in added.items() if k != "recovered"}
        request = {**request, "detections": [*request["detections"], plain]}
    else:
        split = split_straddling_box(request, grouped, source, default_classifier(), group)
        if split is not None:
            i, first, second, grouped = split
            dets = [*request["detections"][:i], first, *request["detections"][i + 1 :], second]
            sideways = sideways_of(dets)
            found[i] = {**first, "sideways": bool(sideways[i]), "split": True}
            found.append({**second, "sideways": bool(sideways[-1]), "split": True})
            request = {**request, "detections": dets}
    fixed = read_for_win(request, grouped, group)
    if fixed is not None:
        i, changed, grouped = fixed
        found[i] = {**found[i], **changed, "was": found[i]["tile"]}
    unread = unread_near_indicators(request, grouped, unsure)
    if unread is not None:
        grouped = {**grouped, "warnings": [*grouped["warnings"], unread]}
    return found, grouped
