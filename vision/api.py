"""The public vision API: photo bytes in, the ``recognize`` / ``group`` JSON of CONTRACT.md out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoring.errors import AgariError

if TYPE_CHECKING:
    from vision.pipeline import TileDetector


def recognize(image: bytes, *, detector: TileDetector | None = None) -> dict[str, Any]:
    """Detect every tile in a photo (JPEG/PNG/... bytes) and rebuild the hand.

    ``detector``: another tile detector than the shipped one (benchmarks compare models).

    Raises :class:`~scoring.errors.ImageError` for bytes that are not a readable photo and
    :class:`~scoring.errors.ModelError` when the shipped model is missing or mismatched.
    """
    from vision.recognition import detect_photo, detections_to_json

    photo, dets, zoomed = detect_photo(image, detector)
    found = detections_to_json(dets, photo)
    response: dict[str, Any] = {"width": photo.width, "height": photo.height, "detections": found}
    # The grouping step judges sideways tiles along each row, better than the photo-wide
    # estimate in ``found``; so it gets the boxes without that flag.
    boxes_only = [{k: v for k, v in d.items() if k != "sideways"} for d in found]
    try:
        grouped = group({"width": photo.width, "height": photo.height, "detections": boxes_only})
    except AgariError as exc:
        if exc.code != "not_implemented":
            raise
        grouped = {
            "hand_tiles": [],
            "hand": None,
            "warnings": [{"code": "grouping_unavailable", "message": exc.message}],
        }
    response.update(grouped)
    response["zoomed"] = zoomed
    return response


def group(request: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the hand from detections (``{"width", "height", "detections"}``).

    Optional ``context``: the score request's other fields (``ruleset``, ``win``, winds,
    ``flags`` ...) used to score each uncertain tile's candidates (``uncertain``).
    Raises :class:`~scoring.errors.RequestError` for unknown fields or wrong types.
    """
    from vision.grouping import group_request

    return group_request(request)
