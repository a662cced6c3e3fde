"""The public vision API: photo bytes in, the ``recognize`` / ``group`` JSON of CONTRACT.md out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoring.errors import AgariError, RequestError, parse_json

if TYPE_CHECKING:
    from vision.pipeline import TileDetector


def recognize(
    image: bytes,
    *,
    detector: TileDetector | None = None,
    context: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Detect every tile in a photo (JPEG/PNG/... bytes) and rebuild the hand.

    ``detector``: another tile detector than the shipped one (benchmarks compare models).
    ``context``: as in :func:`group`, the score request's other fields; with a ruleset
    without red fives a closed kan of fives is read plain instead of holding the red one.

    Raises :class:`~scoring.errors.ImageError` for bytes that are not a readable photo and
    :class:`~scoring.errors.ModelError` when the shipped model is missing or mismatched.
    """
    import numpy as np

    from vision.grouping.request import MAX_DETECTIONS, check_context
    from vision.image_io import is_monochrome
    from vision.recognition import CONF, detect_photo, detections_to_json, hires_photo
    from vision.recovery import mend

    check_context(context)  # before the photo's second of work, not after
    hires = hires_photo(image)  # decoded once, if the zoomed pass or the recovery needs it
    photo, dets, zoomed = detect_photo(image, detector, keep_unsure=True, hires=hires)
    # Boxes whose class the classifier doubts stay out of the hand unless one completes it.
    unsure = [
        {k: v for k, v in d.items() if k != "sideways"}
        for d in detections_to_json(dets[dets.confidence < CONF], photo)
    ]
    dets = dets[dets.confidence >= CONF]
    if len(dets) > MAX_DETECTIONS:
        # A group request holds at most this many boxes (a whole table shows 136 tiles):
        # past it, the most confident, in their order in the photo.
        keep = np.sort(np.argsort(-dets.confidence)[:MAX_DETECTIONS])
        dets = dets[keep]
    found = detections_to_json(dets, photo)
    response: dict[str, Any] = {"width": photo.width, "height": photo.height, "detections": found}
    # The grouping step judges sideways tiles along each row, better than the photo-wide
    # estimate in ``found``; so it gets the boxes without that flag.
    boxes_only = [{k: v for k, v in d.items() if k != "sideways"} for d in found]
    request: dict[str, Any] = {"width": photo.width, "height": photo.height}
    request["detections"] = boxes_only
    if context is not None:
        request["context"] = context
    try:
        grouped = group(request)
        found, grouped = mend(hires, request, grouped, unsure, found, group)
    except AgariError as exc:
        if exc.code != "not_implemented":
            raise
        grouped = {
            "hand_tiles": [],
            "hand": None,
            "warnings": [{"code": "grouping_unavailable", "message": exc.message}],
        }
    layout = grouped.get("layout")
    if layout is not None:
        # The hand's tiles carry the grouping's own sideways reading (judged along the row),
        # not the photo-wide guess from each box: this response's detections, sent to
        # ``group`` as CONTRACT.md allows, then read as the same hand.
        sideways = set(layout["sideways"])
        members = {*layout["concealed"], *(d for m in layout["melds"] for d in m)}
        if layout["win"] is not None:
            members.add(layout["win"])
        found = [
            {**d, "sideways": i in sideways} if i in members else d for i, d in enumerate(found)
        ]
    response["detections"] = found
    response.update(grouped)
    response["zoomed"] = zoomed
    if is_monochrome(photo.pixels):
        response["warnings"] = [*response.get("warnings", []), _no_colour(response)]
    return response


#: The tiles a red five may hide behind in a photo without colour.
_FIVES = frozenset({"5m", "5p", "5s", "0m", "0p", "0s"})


def _no_colour(response: dict[str, Any]) -> dict[str, Any]:
    """The warning for a photo without colour, naming the hand's fives: a red five is told
    from a plain one by its colour alone, so each could be either (the score differs by a
    han of aka dora)."""
    layout = response.get("layout") or {}
    hand = [*layout.get("concealed", []), *(i for meld in layout.get("melds", []) for i in meld)]
    if layout.get("win") is not None:
        hand.append(layout["win"])
    dets = response["detections"]
    fives = sorted(i for i in hand if dets[i]["tile"].rstrip("'") in _FIVES)
    return {
        "code": "no_colour",
        "message": "the photo has no colour, so red fives cannot be told from plain ones: "
        "check each five of the hand",
        "detections": fives,
        "tiles": [dets[i]["tile"] for i in fives],
    }


def group(request: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the hand from detections (``{"width", "height", "detections"}``).

    Optional ``context``: the score request's other fields (``ruleset``, ``win``, winds,
    ``flags`` ...) used to score each uncertain tile's candidates (``uncertain``).
    Raises :class:`~scoring.errors.RequestError` for unknown fields or wrong types and
    :class:`~scoring.errors.RulesetError` for a context's unknown or malformed ruleset.
    """
    from vision.grouping import group_request

    return group_request(request)


def context_from_json(text: str | None, *, what: str = "context") -> dict[str, Any] | None:
    """A context given as JSON text (the ``/recognize`` form field, ``--context``): the
    object, or None when empty. ``what`` names where it came from in the error."""
    if text is None or not text.strip():
        return None
    context = parse_json(text, what=what)
    if not isinstance(context, dict):
        raise RequestError(f"{what} must be a JSON object of score request fields")
    return context
