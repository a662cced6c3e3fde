"""The ``group`` JSON interface of CONTRACT.md: the request validated, grouped, scored."""

from __future__ import annotations

import math
from typing import Any

from scoring.errors import NotationError, RequestError
from scoring.tiles import Tile
from vision.grouping import settings
from vision.grouping.group import group_detections
from vision.grouping.memo import sharing
from vision.grouping.values import Detection
from vision.grouping.what_if import follow_red_fives, red_fives_of, what_if

#: A group request's most boxes: a photo of the whole table shows its 136 tiles; what is far
#: beyond is no photo, and each box costs grouping time.
MAX_DETECTIONS = 400
#: A box's most candidate classes (recognize gives two besides its own): each costs one
#: grouping of the whole photo for the what-if scores.
MAX_REQUEST_CANDIDATES = 8

_REQUEST_FIELDS = {"width", "height", "detections", "context"}

#: ... and the recovery step's marks on a recognize response's boxes (``was``: the class the
#: detector gave a box it renamed; ``recovered``: a tile it found; ``split``: one of the two
#: tiles of a box it split), so that a request copied from a recognize response is taken:
#: they are not used here.
_DETECTION_FIELDS = {
    "tile",
    "box",
    "confidence",
    "sideways",
    "candidates",
    "was",
    "recovered",
    "split",
}

#: A box may reach past the photo's edge (a tile cut by the frame, a detector that does not
#: clip its boxes), but its centre lies in the photo, give or take this share of the side
#: (at least :data:`EDGE_SLACK_PX`) for rounding. A box centred outside is not a tile seen
#: in this photo: coordinates of another image, or swapped width and height.
EDGE_TOLERANCE = 0.01
EDGE_SLACK_PX = 2.0


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RequestError(f"{what} must be a finite number, not {value!r}", code="bad_request")
    return float(value)


def _tile_name(value: Any, what: str) -> tuple[str, bool]:
    """A detection's tile and whether its name marks it sideways (``5'm``)."""
    if not isinstance(value, str):
        raise RequestError(f"{what} must be a string, not {value!r}", code="bad_request")
    if value in settings.FACE_DOWN_NAMES:
        return settings.FACE_DOWN, False
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
    if len(cands_raw) > MAX_REQUEST_CANDIDATES:
        # Each candidate of an unsure tile costs a grouping of the whole photo (what_if).
        raise RequestError(
            f"{where} has {len(cands_raw)} candidates: at most {MAX_REQUEST_CANDIDATES}",
            code="bad_request",
        )
    cands = []
    for j, c in enumerate(cands_raw):
        if not isinstance(c, dict) or set(c) - {"tile", "confidence"} or "tile" not in c:
            raise RequestError(
                f"{where}.candidates[{j}] must be {{'tile', 'confidence'}}, not {c!r}",
                code="bad_request",
            )
        name, _ = _tile_name(c["tile"], f"{where}.candidates[{j}].tile")
        c_conf = _number(c.get("confidence", 0.0), f"{where}.candidates[{j}].confidence")
        if not 0.0 <= c_conf <= 1.0:
            raise RequestError(
                f"{where}.candidates[{j}].confidence {c_conf!r} is outside 0-1",
                code="bad_request",
            )
        cands.append((name, c_conf))
    return Detection(tile, (x1, y1, x2, y2), conf, sideways, tuple(cands))


def check_in_photo(det: Detection, k: int, width: float, height: float) -> None:
    """Refuse (``bad_box``) a box centred outside the ``width`` x ``height`` photo, or
    larger than it, beyond :data:`EDGE_TOLERANCE`, rather than group it with the rest.

    >>> check_in_photo(Detection("1m", (-20, 0, 20, 40)), 0, 640, 480)  # half cut off
    >>> check_in_photo(Detection("1m", (700, 0, 740, 40)), 3, 640, 480)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.RequestError: detections[3].box [700, 0, 740, 40] lies outside the 640x480 ...
    """
    x1, y1, x2, y2 = det.box
    slack_x = max(EDGE_SLACK_PX, EDGE_TOLERANCE * width)
    slack_y = max(EDGE_SLACK_PX, EDGE_TOLERANCE * height)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    box = "[" + ", ".join(f"{v:g}" for v in det.box) + "]"
    where = f"detections[{k}].box {box}"
    if not (-slack_x <= cx <= width + slack_x and -slack_y <= cy <= height + slack_y):
        raise RequestError(
            f"{where} lies outside the {width:g}x{height:g} photo: its centre ({cx:g}, {cy:g}) "
            "is not in it (a box may reach past the edge, a tile cut by the frame, not lie "
            "beyond it)",
            code="bad_box",
        )
    if x2 - x1 > width + 2 * slack_x or y2 - y1 > height + 2 * slack_y:
        raise RequestError(f"{where} is larger than the {width:g}x{height:g} photo", code="bad_box")


def check_context(context: Any) -> None:
    """Refuse a what-if ``context`` that is not an object, or with an unknown field or a
    wrong value (a ruleset that does not exist, ``"honba": "1"``), as scoring would: checked
    up front, since otherwise every candidate's what-if score would quietly carry the same
    error."""
    if context is None:
        return
    if not isinstance(context, dict):
        raise RequestError("context must be an object of score request fields")
    from scoring import api as scoring_api  # the public scoring API, as the what-if scores

    scoring_api.check_context(context)


def group_request(request: Any) -> dict[str, Any]:
    """The ``group`` JSON call: validate, group, score the uncertain tiles' candidates."""
    if not isinstance(request, dict):
        raise RequestError("the group request must be a JSON object", code="bad_request")
    check_context(request.get("context"))
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
    if len(raw) > MAX_DETECTIONS:
        raise RequestError(
            f"{len(raw)} detections: at most {MAX_DETECTIONS} (a whole table's 136 tiles "
            "with room for doubles)",
            code="too_many_detections",
        )
    context = request.get("context")
    dets = [parse_detection(obj, k) for k, obj in enumerate(raw)]
    for k, det in enumerate(dets):
        check_in_photo(det, k, width, height)
    # The what-if scores group the same boxes again: one memo for all (vision.grouping.memo).
    with sharing():
        result = group_detections(dets, width=width, height=height)
        out = result.to_dict()
        if context is not None:
            out = follow_red_fives(out, red_fives_of(context))
        out["uncertain"] = what_if(dets, result, width=width, height=height, context=context)
    return out
