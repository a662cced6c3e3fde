"""Photo bytes to tile detections in original-photo pixels, and their CONTRACT JSON form."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from datasets.classes import BACK, CLASS_NAMES
from vision.detections import Detections
from vision.image_io import Photo, decode_image
from vision.onnx_detector import default_detector
from vision.pipeline import TileDetector, detect_tiles
from vision.tile_classifier import TileClassifier, default_classifier

#: The zoomed pass re-decodes the photo this large when the first decode is too small.
HIRES_LONG_SIDE = 2000
#: CONTRACT.md writes a face-down tile as ``x`` in photo output.
FACE_DOWN = "x"
#: Boxes less sure than this list their runner-up classes (at least CANDIDATE_MIN each).
CERTAIN = 0.8
CANDIDATE_MIN = 0.05
MAX_CANDIDATES = 2
#: A tile whose aspect ratio differs from the photo's typical tile by more than this factor
#: lies sideways (upright 0.75 vs sideways 1.33: a factor 1.78, threshold its square root).
SIDEWAYS_FACTOR = 1.33


#: ``detect_photo(classifier=SHIPPED)``: the shipped crop classifier when its file exists.
SHIPPED = "shipped"


#: Boxes below this final confidence are left out of ``detections`` (``detect_photo``'s
#: default ``conf``); with ``keep_unsure`` they come back for :mod:`vision.recovery`.
CONF = 0.25


def hires_photo(image: bytes) -> Callable[[], Photo]:
    """The photo decoded at :data:`HIRES_LONG_SIDE`, decoded when first asked for and only
    once (the zoomed pass, the classifier's crops of small tiles and the recovery of a
    missing tile read it; a 12 MP JPEG's fuller decode costs ~100 ms)."""
    return functools.cache(lambda: decode_image(image, long_side=HIRES_LONG_SIDE))


def detect_photo(
    image: bytes,
    detector: TileDetector | None = None,
    *,
    conf: float = CONF,
    classifier: TileClassifier | str | None = SHIPPED,
    keep_unsure: bool = False,
    hires: Callable[[], Photo] | None = None,
) -> tuple[Photo, Detections, bool]:
    """Decode, detect (with the zoomed pass when tiles are small), name each tile from its
    crop (``classifier``; None for the detector's own classes) and map to photo pixels.

    ``keep_unsure``: also return the boxes below ``conf`` that the crop classifier still
    reads as a tile (its class in doubt), for the caller to split off by confidence.
    ``hires``: the photo's fuller decode (:func:`hires_photo` of ``image``), for a caller
    that reads it again afterwards."""
    photo = decode_image(image)
    fuller = hires or hires_photo(image)

    def hires_pixels() -> np.ndarray:
        return fuller().pixels

    if classifier == SHIPPED:
        classifier = default_classifier()
    named = classifier if isinstance(classifier, TileClassifier) else None
    dets, zoomed = detect_tiles(
        photo.pixels,
        detector or default_detector(),
        conf=conf,
        hires=hires_pixels,
        classifier=named,
        keep_unsure=keep_unsure and named is not None,
    )
    return photo, dets.scaled(photo.scale, photo.scale), zoomed


def sideways_flags(dets: Detections) -> np.ndarray:
    """Which boxes lie across the photo's typical tile orientation.

    >>> d = Detections(np.array([[0, 0, 30, 40], [30, 0, 60, 40], [60, 10, 100, 40]]),
    ...                np.ones(3), np.zeros(3))
    >>> sideways_flags(d).tolist()
    [False, False, True]
    """
    if len(dets) == 0:
        return np.zeros(0, dtype=bool)
    ratio = np.log(np.maximum(dets.width, 1e-3) / np.maximum(dets.height, 1e-3))
    return np.abs(ratio - np.median(ratio)) > np.log(SIDEWAYS_FACTOR)


def detections_to_json(dets: Detections, photo: Photo) -> list[dict[str, Any]]:
    """The ``detections`` list of the ``recognize`` response, left to right."""
    order = np.lexsort((dets.xyxy[:, 1], dets.xyxy[:, 0]))
    sideways = sideways_flags(dets)
    out = []
    for i in order:
        x1, y1, x2, y2 = (float(v) for v in dets.xyxy[i])
        out.append(
            {
                "tile": _name(int(dets.class_id[i])),
                "box": [
                    round(max(0.0, x1)),
                    round(max(0.0, y1)),
                    round(min(float(photo.width), x2)),
                    round(min(float(photo.height), y2)),
                ],
                "confidence": round(float(dets.confidence[i]), 4),
                "sideways": bool(sideways[i]),
            }
        )
        runners_up = candidates(dets, int(i))
        if runners_up:
            out[-1]["candidates"] = runners_up
    return out


def candidates(dets: Detections, i: int) -> list[dict[str, Any]]:
    """The other classes an uncertain box scored (for the grouping's what-if scoring).

    >>> scores = np.zeros((1, len(CLASS_NAMES))); scores[0, [4, 34, 5]] = [0.6, 0.3, 0.01]
    >>> d = Detections(np.array([[0, 0, 3, 4]]), np.array([0.6]), np.array([4]), scores)
    >>> candidates(d, 0)
    [{'tile': '0m', 'confidence': 0.3}]
    """
    if dets.class_scores is None or dets.confidence[i] >= CERTAIN:
        return []
    scores = dets.class_scores[i]
    order = np.argsort(-scores)[: 1 + MAX_CANDIDATES]
    return [
        {"tile": _name(int(c)), "confidence": round(float(scores[c]), 4)}
        for c in order
        if c != dets.class_id[i] and scores[c] >= CANDIDATE_MIN
    ]


def _name(class_id: int) -> str:
    name = CLASS_NAMES[class_id]
    return FACE_DOWN if name == BACK else name
