"""The second stage: crops of the detector's boxes, named again by a crop classifier."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.classes import CLASS_NAMES
from scoring.errors import ModelError
from tests.vision.conftest import write_colour_classifier
from tests.vision.test_pipeline import COLOURS, ColourDetector, table_photo
from vision.detections import Detections
from vision.pipeline import detect_tiles
from vision.tile_classifier import (
    CLASSIFIER_CLASSES,
    CROP_SIZE,
    DETECTOR_WEIGHT,
    TileClassifier,
    crop_tiles,
)


@pytest.fixture
def classifier(tmp_path: Path) -> TileClassifier:
    return TileClassifier(write_colour_classifier(tmp_path / "cls.onnx", COLOURS))


def test_landscape_crops_are_turned_portrait() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    img[20:50, 40:80, 0] = 255  # left half of a sideways tile red, right half green
    img[20:50, 80:120, 1] = 255
    crop = crop_tiles(img, np.array([[40, 20, 120, 50]]), margin=0)[0]
    assert crop.shape == (*CROP_SIZE, 3)
    # Turned clockwise: the left half is now on top.
    assert crop[: CROP_SIZE[0] // 2 - 2, :, 0].min() == 255
    assert crop[CROP_SIZE[0] // 2 + 2 :, :, 1].min() == 255


def test_degenerate_and_outside_boxes_give_black_crops() -> None:
    img = np.full((50, 50, 3), 255, np.uint8)
    crops = crop_tiles(img, np.array([[10, 10, 10, 30], [60, 60, 90, 90]]))
    assert crops.max() == 0


def test_relabel_names_boxes_and_drops_what_is_not_a_tile(classifier: TileClassifier) -> None:
    img = np.zeros((200, 300, 3), np.uint8)
    img[50:110, 20:65] = COLOURS[2]  # blue = class 2
    img[50:110, 80:125] = COLOURS[3]  # yellow = class 3
    boxes = np.array([[20, 50, 65, 110], [80, 50, 125, 110], [200, 50, 245, 110]], np.float32)
    # The detector said class 0 for all three, unsure of the last (on an empty table).
    dets = Detections(boxes, np.array([0.9, 0.4, 0.3]), np.array([0, 0, 0]))
    named = classifier.relabel(img, dets)
    assert named.class_id.tolist() == [2, 3]
    np.testing.assert_array_equal(named.xyxy, boxes[:2])
    assert named.class_scores is not None and named.class_scores.shape == (2, len(CLASS_NAMES))
    # Confidence: the classifier's probability weighed by the detector's confidence.
    assert 0.9 < named.confidence[0] / 0.9**DETECTOR_WEIGHT <= 1.0
    assert named.confidence[1] < named.confidence[0]


def test_classifier_reads_tiles_the_detector_misnames(classifier: TileClassifier) -> None:
    img, _, classes = table_photo(1800, 1200)
    detector = ColourDetector()
    plain, _ = detect_tiles(img, detector, zoom=False)
    hand = plain[plain.xyxy[:, 1] > img.shape[0] * 0.7]
    assert hand.class_id[np.argsort(hand.xyxy[:, 0])].tolist() != classes.tolist()
    dets, _ = detect_tiles(img, detector, zoom=False, classifier=classifier)
    hand = dets[dets.xyxy[:, 1] > img.shape[0] * 0.7]
    assert hand.class_id[np.argsort(hand.xyxy[:, 0])].tolist() == classes.tolist()


def test_classifier_crops_from_the_high_resolution_photo(classifier: TileClassifier) -> None:
    full, _, classes = table_photo(2400, 1600)
    small = full[::4, ::4].copy()
    asked = []

    def hires() -> np.ndarray:
        asked.append(True)
        return full

    dets, _ = detect_tiles(small, ColourDetector(), hires=hires, classifier=classifier)
    assert len(asked) == 1  # one decode serves the zoom and the crops
    hand = dets[dets.xyxy[:, 1] > small.shape[0] * 0.7]
    assert hand.class_id[np.argsort(hand.xyxy[:, 0])].tolist() == classes.tolist()


def test_classifier_with_wrong_class_order_is_refused(tmp_path: Path) -> None:
    swapped = list(CLASSIFIER_CLASSES)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    path = write_colour_classifier(tmp_path / "bad.onnx", COLOURS, classes=swapped)
    with pytest.raises(ModelError, match="has classes") as err:
        TileClassifier(path).session  # noqa: B018
    assert err.value.code == "wrong_classes"


def test_missing_classifier_file_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as err:
        TileClassifier(tmp_path / "absent.onnx").session  # noqa: B018
    assert err.value.code == "missing_model"
