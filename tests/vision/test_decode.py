"""letterbox -> run -> decode on non-square images, with synthetic tensors (no trained model)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from datasets.classes import CLASS_NAMES
from vision.boxes import xyxy_to_xcycwh
from vision.onnx_detector import OnnxDetector, decode, letterbox

NC = len(CLASS_NAMES)


def raw_for(
    boxes_in_image: np.ndarray,
    classes: list[int],
    scale: float,
    pad: tuple[int, int],
    anchors: int = 50,
) -> np.ndarray:
    """The YOLO output a perfect model would give for these boxes (plus empty anchors)."""
    raw = np.zeros((1, 4 + NC, anchors), np.float32)
    left, top = pad
    net = boxes_in_image * scale + np.array([left, top, left, top])
    raw[0, :4, : len(net)] = xyxy_to_xcycwh(net).T
    for i, c in enumerate(classes):
        raw[0, 4 + c, i] = 0.9
    return raw


@pytest.mark.parametrize(
    ("height", "width"),
    [pytest.param(300, 700, id="landscape"), pytest.param(900, 400, id="portrait")],
)
def test_box_survives_letterbox_and_decode(height: int, width: int) -> None:
    image = np.zeros((height, width, 3), np.uint8)
    box = np.array([[width * 0.6, height * 0.3, width * 0.6 + 40, height * 0.3 + 55]])
    image[int(box[0, 1]) : int(box[0, 3]), int(box[0, 0]) : int(box[0, 2])] = 255
    tensor, scale, (left, top) = letterbox(image, (320, 256))
    _, _, net_h, net_w = tensor.shape
    assert (net_h, net_w) == (320, 256)
    # The white patch lands where the forward mapping says (catches a height/width swap).
    cx, cy = (box[0, 0] + box[0, 2]) / 2 * scale + left, (box[0, 1] + box[0, 3]) / 2 * scale + top
    assert tensor[0, :, round(cy), round(cx)].min() > 0.9
    assert tensor[0, :, 2, 2].tolist() == pytest.approx([114 / 255] * 3)  # padding or black
    dets = decode(
        raw_for(box, [CLASS_NAMES.index("7z")], scale, (left, top)),
        scale,
        (left, top),
        image_size=(height, width),
    )
    assert dets.class_id.tolist() == [CLASS_NAMES.index("7z")]
    np.testing.assert_allclose(dets.xyxy, box, atol=1.0)


def test_decode_filters_by_confidence_suppresses_duplicates_and_clips() -> None:
    boxes = np.array(
        [[10, 10, 50, 60], [11, 10, 51, 61], [100, 10, 140, 60], [180, 5, 260, 60]], np.float32
    )
    raw = raw_for(boxes, [0, 5, 9, 3], 1.0, (0, 0))
    raw[0, 4 + 5, 1] = 0.5  # the duplicate of box 0 under another class, less sure
    raw[0, 4 + 9, 2] = 0.1  # below the threshold
    dets = decode(raw, 1.0, (0, 0), image_size=(100, 200), conf=0.25)
    assert sorted(dets.class_id.tolist()) == [0, 3]
    assert dets.xyxy[:, 2].max() == 200  # clipped to the image width


def test_decode_empty_output_is_empty_detections() -> None:
    dets = decode(np.zeros((1, 4 + NC, 10), np.float32), 1.0, (0, 0))
    assert len(dets) == 0 and dets.xyxy.shape == (0, 4)


def test_detector_runs_the_three_steps_on_a_non_square_image(
    fake_model: Callable[..., Path],
) -> None:
    height, width, net = 480, 1000, (320, 320)
    image = np.zeros((height, width, 3), np.uint8)
    _, scale, pad = letterbox(image, net)
    box = np.array([[700.0, 200.0, 760.0, 280.0]])
    model = fake_model(raw_for(box, [CLASS_NAMES.index("0p")], scale, pad), input_hw=net)
    detector = OnnxDetector(model)
    assert detector.input_size == net
    dets = detector.detect(image)
    assert [CLASS_NAMES[i] for i in dets.class_id] == ["0p"]
    np.testing.assert_allclose(dets.xyxy, box, atol=1.5)
