"""Whole-photo detection: one pass over the photo, then a zoomed pass over the hand.

In a whole-table photo the player's tiles may be 20 pixels tall once the photo is shrunk
to the network's input, too small to read. When the first pass finds small tiles, the
region of the largest ones (the hand, nearest the camera) is cropped from the decoded
photo and detected again at the network's full resolution; its boxes replace the first
pass's inside that region.

Then, when a crop classifier is given (:mod:`vision.tile_classifier`), every box is named
again from its crop of the photo: the detector runs at a low threshold to find the tiles,
the classifier decides what each is (or that it is none) and the final confidence.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import numpy as np

from vision.boxes import nms
from vision.detections import Detections

if TYPE_CHECKING:
    from vision.tile_classifier import TileClassifier

#: Zoom when tiles' long side is below this many network pixels (the training photos'
#: tiles are about 45-60 px at 512).
ZOOM_BELOW_PX = 32.0
#: Confidence of the boxes that decide on and place the zoom.
ZOOM_CONF = 0.25
#: Zoom only when the crop magnifies at least this much (else it is the same pass again).
MIN_ZOOM_GAIN = 1.4
#: With the classifier, the detector keeps boxes down to this confidence: it finds 97% of
#: real-photos-hk tiles at 0.05 but only 86% at 0.25, its doubt being mostly about the class.
TWO_STAGE_DETECTOR_CONF = 0.05
#: Crop from the higher-resolution decode when tiles' long side is below this many pixels
#: in the first decode (the classifier's crops are 64 px tall).
CLASSIFY_BELOW_PX = 56.0


class TileDetector(Protocol):
    """What the pipeline needs from a detector (our ONNX model, or the benchmark's peer)."""

    @property
    def input_size(self) -> tuple[int, int]: ...

    def detect(self, image: np.ndarray, *, conf: float = ..., iou: float = ...) -> Detections: ...


def hand_region(dets: Detections, image_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """``(x1, y1, x2, y2)`` around the largest tiles (those at least 3/4 of the 90th
    percentile tile height), with a margin of one and a half tiles.

    >>> d = Detections(np.array([[100, 100, 130, 140], [130, 100, 160, 140], [0, 0, 10, 12]]),
    ...                np.ones(3), np.zeros(3))
    >>> hand_region(d, (1000, 1000, 3))
    (40, 40, 220, 200)
    """
    long_side = np.maximum(dets.width, dets.height)
    big = long_side >= 0.75 * np.percentile(long_side, 90)
    x1, y1 = dets.xyxy[big, 0].min(), dets.xyxy[big, 1].min()
    x2, y2 = dets.xyxy[big, 2].max(), dets.xyxy[big, 3].max()
    margin = 1.5 * float(np.median(long_side[big]))
    height, width = image_shape[:2]
    return (
        int(max(0, x1 - margin)),
        int(max(0, y1 - margin)),
        int(min(width, x2 + margin)),
        int(min(height, y2 + margin)),
    )


def tile_size(dets: Detections) -> float:
    """The median long side of the boxes, in their pixels: how big the tiles are."""
    return float(np.median(np.maximum(dets.width, dets.height)))


def detect_tiles(
    image: np.ndarray,
    detector: TileDetector,
    *,
    conf: float = 0.25,
    iou: float = 0.5,
    zoom: bool = True,
    hires: Callable[[], np.ndarray] | None = None,
    classifier: TileClassifier | None = None,
    keep_unsure: bool = False,
) -> tuple[Detections, bool]:
    """Detect tiles in an RGB image; returns the detections and whether it zoomed.

    ``hires``, when given, returns the same photo at a higher resolution (a fuller JPEG
    decode); it is called at most once, when the zoomed crop or the classifier's crops
    would otherwise be upsampled. ``classifier``, when given, names every box again.
    ``keep_unsure`` (with a classifier): also return the boxes below ``conf`` that the
    classifier reads as a tile (not ``none``), for the caller to sort out (a tile whose
    class the classifier doubts is still a tile; :mod:`vision.recovery` uses them).
    """
    if hires is not None:
        hires = functools.cache(hires)  # a full decode of a 12 MP JPEG costs ~100 ms
    if classifier is None:
        return _detect(image, detector, conf=conf, iou=iou, zoom=zoom, hires=hires)
    dets, zoomed = _detect(
        image, detector, conf=min(conf, TWO_STAGE_DETECTOR_CONF), iou=iou, zoom=zoom, hires=hires
    )
    if len(dets) == 0:
        return dets, zoomed
    source, factor = image, 1.0
    sure = dets[dets.confidence >= ZOOM_CONF]
    if hires is not None and tile_size(sure if len(sure) else dets) < CLASSIFY_BELOW_PX:
        source = hires()
        factor = source.shape[1] / image.shape[1]
    named = classifier.relabel(source, dets.scaled(factor, factor)).scaled(1 / factor, 1 / factor)
    return (named if keep_unsure else named[named.confidence >= conf]), zoomed


def _detect(
    image: np.ndarray,
    detector: TileDetector,
    *,
    conf: float,
    iou: float,
    zoom: bool,
    hires: Callable[[], np.ndarray] | None,
) -> tuple[Detections, bool]:
    first = detector.detect(image, conf=conf, iou=iou)
    # The zoom decision looks only at confident boxes, whatever threshold the caller uses
    # (the accuracy benchmark asks for everything down to 0.001).
    sure = first[first.confidence >= max(conf, ZOOM_CONF)]
    if not zoom or len(sure) == 0:
        return first, False
    net_h, net_w = detector.input_size
    height, width = image.shape[:2]
    first_scale = min(net_h / height, net_w / width)
    tile_px = tile_size(sure) * first_scale
    if tile_px >= ZOOM_BELOW_PX:
        return first, False
    x1, y1, x2, y2 = hand_region(sure, image.shape)
    crop_scale = min(net_h / max(1, y2 - y1), net_w / max(1, x2 - x1))
    if crop_scale / first_scale < MIN_ZOOM_GAIN:
        return first, False
    source, factor = image, 1.0
    if hires is not None and crop_scale > 1.0:
        source = hires()
        factor = source.shape[1] / width
    crop = source[round(y1 * factor) : round(y2 * factor), round(x1 * factor) : round(x2 * factor)]
    second = detector.detect(crop, conf=conf, iou=iou).scaled(1 / factor, 1 / factor, x1, y1)
    cx = (first.xyxy[:, 0] + first.xyxy[:, 2]) / 2
    cy = (first.xyxy[:, 1] + first.xyxy[:, 3]) / 2
    inside = (cx >= x1) & (cx <= x2) & (cy >= y1) & (cy <= y2)
    # Keep first-pass tiles the crop's edge may have cut, unless the zoom saw them too.
    merged = Detections.merge([second, first[~inside]])
    keep = nms(merged.xyxy, merged.confidence, iou)
    return merged[keep], True
