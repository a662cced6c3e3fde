"""The zoomed second pass, with a stand-in detector that reads coloured rectangles."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detections import Detections
from vision.onnx_detector import letterbox
from vision.pipeline import detect_tiles

#: Tile colours; the class id is the index. The stand-in names a tile right only when it
#: is at least READABLE_PX tall in network pixels, like a real detector on small tiles.
COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (200, 200, 30)]
READABLE_PX = 14


class ColourDetector:
    """Finds filled rectangles in the letterboxed image; tiny ones get a wrong class."""

    input_size = (320, 320)

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def detect(self, image: np.ndarray, *, conf: float = 0.25, iou: float = 0.5) -> Detections:
        self.calls.append(image.shape[:2])
        tensor, scale, (left, top) = letterbox(image, self.input_size, pad_value=0)
        net = (tensor[0].transpose(1, 2, 0) * 255).astype(np.uint8)
        count, _, stats, _ = cv2.connectedComponentsWithStats(
            (net.max(axis=2) > 60).astype(np.uint8)
        )
        boxes, classes = [], []
        for x, y, w, h, _area in stats[1:count]:
            if h < 3:
                continue
            colour = net[y + h // 2, x + w // 2].astype(int)
            cls = int(np.argmin([np.abs(colour - c).sum() for c in COLOURS]))
            boxes.append([x, y, x + w, y + h])
            classes.append(cls if h >= READABLE_PX else (cls + 1) % len(COLOURS))
        if not boxes:
            return Detections.empty()
        xyxy = (np.array(boxes, np.float32) - [left, top, left, top]) / scale
        return Detections(xyxy, np.full(len(boxes), 0.9), np.array(classes))


def table_photo(width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A dark photo with a hand of 14 small tiles near the bottom and two far tiles."""
    img = np.zeros((height, width, 3), np.uint8)
    tile_w, tile_h = width // 60, int(width // 60 * 1.35)
    x0, y0 = width // 3, int(height * 0.8)
    boxes, classes = [], []
    for i in range(14):
        x = x0 + i * (tile_w * 3 // 2)  # gaps the stand-in can see at 1/6 scale
        cls = i % len(COLOURS)
        img[y0 : y0 + tile_h, x : x + tile_w] = COLOURS[cls]
        boxes.append([x, y0, x + tile_w, y0 + tile_h])
        classes.append(cls)
    for x in (width // 10, width // 5):  # discards far away, smaller
        img[height // 5 : height // 5 + tile_h // 2, x : x + tile_w // 2] = COLOURS[0]
    return img, np.array(boxes, np.float32), np.array(classes)


def test_small_tiles_trigger_the_zoom_and_are_read_right() -> None:
    img, boxes, classes = table_photo(1800, 1200)
    detector = ColourDetector()
    plain, zoomed_flag = detect_tiles(img, detector, zoom=False)
    assert not zoomed_flag
    dets, zoomed_flag = detect_tiles(img, detector)
    assert zoomed_flag and len(detector.calls) == 3  # plain, then first pass + zoom
    hand = dets[dets.xyxy[:, 1] > img.shape[0] * 0.7]
    order = np.argsort(hand.xyxy[:, 0])
    assert hand.class_id[order].tolist() == classes.tolist()
    np.testing.assert_allclose(hand.xyxy[order], boxes, atol=4)
    # Without the zoom the same tiles are too small to read.
    plain_hand = plain[plain.xyxy[:, 1] > img.shape[0] * 0.7]
    assert plain_hand.class_id[np.argsort(plain_hand.xyxy[:, 0])].tolist() != classes.tolist()
    # The far tiles outside the hand region are kept from the first pass.
    assert len(dets) == len(hand) + 2


def test_zoom_reads_the_crop_from_the_high_resolution_photo() -> None:
    full, boxes, classes = table_photo(2400, 1600)
    small = cv2.resize(full, (600, 400), interpolation=cv2.INTER_AREA)
    detector = ColourDetector()
    asked = []

    def hires() -> np.ndarray:
        asked.append(True)
        return full

    dets, zoomed_flag = detect_tiles(small, detector, hires=hires)
    assert zoomed_flag and asked
    hand = dets[dets.xyxy[:, 1] > small.shape[0] * 0.7]
    order = np.argsort(hand.xyxy[:, 0])
    assert hand.class_id[order].tolist() == classes.tolist()
    # Boxes come back in the small image's pixels.
    np.testing.assert_allclose(hand.xyxy[order], boxes / 4, atol=2)


@pytest.mark.parametrize("width", [640, 900])
def test_large_tiles_need_no_zoom(width: int) -> None:
    img = np.zeros((width * 3 // 4, width, 3), np.uint8)
    img[100:200, 100:170] = COLOURS[2]
    detector = ColourDetector()
    dets, zoomed_flag = detect_tiles(img, detector)
    assert not zoomed_flag and len(detector.calls) == 1
    assert dets.class_id.tolist() == [2]
