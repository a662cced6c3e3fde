"""Second stage of recognition: name each detected tile from a crop of the photo.

Measured on the validation photos (``benchmarks/bench_detector_accuracy.py``), the detector
puts a box on almost every tile (97% of the real-photos-hk tiles at confidence 0.05) but
gives it the right class far less often: at 512-640 px a whole photo leaves a tile too few
pixels to tell a 7s from an 8s. This stage crops every box from the decoded photo (which
has several times the detector's pixels), turns it upright-ish (a landscape crop, a tile
lying sideways, is rotated to portrait), and classifies it with a small CNN trained on crops
of the same photos and of synthetic renders (:mod:`vision.classifier_training`).

The classifier has one class more than the detector, ``none`` (not a tile: a detector box
on a river edge, half a tile, the table), which drops the box. A box's final confidence is
the classifier's probability of its class times the detector's confidence raised to
:data:`DETECTOR_WEIGHT`, so that ranking still rewards boxes the detector was sure of.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import CLASS_NAMES
from vision.detections import Detections
from vision.onnx_detector import OnnxModel

CLASSIFIER_PATH = Path(__file__).resolve().parents[1] / "models" / "agari-tile-classifier.onnx"
#: The classifier's classes: the detector's 38, then ``none`` (not a tile).
NONE = "none"
CLASSIFIER_CLASSES: tuple[str, ...] = (*CLASS_NAMES, NONE)
#: Crop size, ``(height, width)``: the 3:4 portrait shape of an upright tile.
CROP_SIZE = (64, 48)
#: Each box grows by this share of its size on every side before cropping: detector boxes
#: are often a little tight, and the tile's edge shows the classifier where the face ends.
CROP_MARGIN = 0.08
#: Final confidence = P(class) * detector confidence ** DETECTOR_WEIGHT. Chosen on 150 fresh
#: synthetic renders (seed 5151, used nowhere else; benchmarks/tune_detector_weight.py):
#: mAP50 0.842 / 0.854 / 0.852 / 0.850 for weights 0 / 0.25 / 0.5 / 1; 0 keeps too many
#: false boxes (precision 0.56 at 0.25).
DETECTOR_WEIGHT = 0.25
#: Classify each crop turned half a turn too, and average (see ``probabilities``).
TURNED_TOO = True
#: Crops classified per onnxruntime call (bounds memory on whole-table photos).
BATCH = 64


def crop_tiles(
    image: np.ndarray,
    xyxy: np.ndarray,
    *,
    size: tuple[int, int] = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """``(N, height, width, 3)`` uint8 crops of the boxes, landscape crops turned portrait.

    >>> img = np.zeros((100, 200, 3), np.uint8); img[10:50, 20:50] = 255
    >>> crops = crop_tiles(img, np.array([[20, 10, 50, 50], [100, 10, 180, 40]]))
    >>> crops.shape, int(crops[0, 32, 24, 0])
    ((2, 64, 48, 3), 255)
    """
    out_h, out_w = size
    height, width = image.shape[:2]
    crops = np.zeros((len(xyxy), out_h, out_w, 3), np.uint8)
    for i, (x1, y1, x2, y2) in enumerate(np.asarray(xyxy, np.float32)):
        mx, my = margin * (x2 - x1), margin * (y2 - y1)
        left, top = int(max(0, np.floor(x1 - mx))), int(max(0, np.floor(y1 - my)))
        right, bottom = int(min(width, np.ceil(x2 + mx))), int(min(height, np.ceil(y2 + my)))
        if right - left < 2 or bottom - top < 2:
            continue  # a degenerate box stays black, and the classifier calls it `none`
        crop = image[top:bottom, left:right, :3]
        if crop.shape[1] > crop.shape[0]:
            # Sideways tile: turn it portrait. Which way is left to the classifier, trained
            # on both turns (a tile seen from across the table is upside down anyway).
            crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
        shrink = crop.shape[0] > out_h
        crops[i] = cv2.resize(
            crop, (out_w, out_h), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
        )
    return crops


def to_tensor(crops: np.ndarray) -> np.ndarray:
    """NCHW float32 in 0-1, the classifier's input."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


class TileClassifier(OnnxModel):
    """The crop classifier on one onnxruntime session, created on first use (thread-safe).

    Its stored class order must be :data:`CLASSIFIER_CLASSES`, or loading raises
    :class:`ModelError` ``wrong_classes``.
    """

    def __init__(
        self,
        path: Path | str = CLASSIFIER_PATH,
        *,
        class_names: Sequence[str] = CLASSIFIER_CLASSES,
        threads: int = 0,
    ) -> None:
        super().__init__(path, class_names=class_names, threads=threads)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """``(N, classes)`` softmax probabilities of ``(N, H, W, 3)`` uint8 crops, the mean
        over each crop and the crop turned half a turn (a tile's class does not change
        upside down, and the classifier was trained on both ways)."""
        if TURNED_TOO and len(crops):
            both = self._probabilities(np.concatenate([crops, crops[:, ::-1, ::-1]]))
            return (both[: len(crops)] + both[len(crops) :]) / 2
        return self._probabilities(crops)

    def _probabilities(self, crops: np.ndarray) -> np.ndarray:
        session = self.session
        name = session.get_inputs()[0].name
        parts = [
            session.run(None, {name: to_tensor(crops[i : i + BATCH])})[0]
            for i in range(0, len(crops), BATCH)
        ]
        if not parts:
            return np.zeros((0, len(self.class_names)), np.float32)
        logits = np.concatenate(parts).astype(np.float32)
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def relabel(self, image: np.ndarray, dets: Detections) -> Detections:
        """The detections renamed by the classifier; boxes it calls ``none`` are dropped.

        ``dets`` are in ``image``'s pixels. ``class_scores`` become the classifier's
        probabilities of the detector's classes.
        """
        if len(dets) == 0:
            return dets
        probs = self.probabilities(crop_tiles(image, dets.xyxy))
        tile_probs = probs[:, : len(CLASS_NAMES)]
        class_id = tile_probs.argmax(axis=1)
        p = tile_probs[np.arange(len(dets)), class_id]
        keep = probs[:, -1] < p  # `none` is likelier than the best tile: not a tile
        confidence = p * np.power(np.clip(dets.confidence, 1e-6, 1.0), DETECTOR_WEIGHT)
        relabelled = Detections(dets.xyxy, confidence, class_id, tile_probs)
        return relabelled[keep]


def default_classifier() -> TileClassifier | None:
    """The shipped classifier, or None when the model file is absent (one stage only)."""
    return _shipped_classifier() if CLASSIFIER_PATH.is_file() else None


@functools.cache
def _shipped_classifier() -> TileClassifier:
    # Cached like ``default_detector``: the session itself is opened lazily, once.
    return TileClassifier()
