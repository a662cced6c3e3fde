"""A model file must carry our class order; anything else is refused with ModelError."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from datasets.classes import CLASS_NAMES
from scoring.errors import ModelError
from vision.onnx_detector import OnnxDetector

EMPTY = np.zeros((1, 4 + len(CLASS_NAMES), 10), np.float32)


def test_model_with_wrong_class_order_is_refused(fake_model: Callable[..., Path]) -> None:
    swapped = list(CLASS_NAMES)
    swapped[4], swapped[34] = swapped[34], swapped[4]  # 5m <-> 0m
    detector = OnnxDetector(fake_model(EMPTY, classes=swapped))
    with pytest.raises(ModelError, match="has classes") as err:
        detector.detect(np.zeros((100, 200, 3), np.uint8))
    assert err.value.code == "wrong_classes"


def test_model_without_class_metadata_is_refused(fake_model: Callable[..., Path]) -> None:
    with pytest.raises(ModelError, match="agari_classes") as err:
        OnnxDetector(fake_model(EMPTY, classes=None)).session  # noqa: B018
    assert err.value.code == "wrong_classes"


def test_model_with_wrong_output_width_is_refused(fake_model: Callable[..., Path]) -> None:
    with pytest.raises(ModelError, match="channels"):
        OnnxDetector(fake_model(np.zeros((1, 4 + 34, 10), np.float32))).session  # noqa: B018


def test_missing_and_corrupt_model_files(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found") as err:
        OnnxDetector(tmp_path / "absent.onnx").session  # noqa: B018
    assert err.value.code == "missing_model"
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot load"):
        OnnxDetector(junk).session  # noqa: B018


def test_matching_model_loads(fake_model: Callable[..., Path]) -> None:
    detector = OnnxDetector(fake_model(EMPTY))
    assert len(detector.detect(np.zeros((64, 96, 3), np.uint8))) == 0
