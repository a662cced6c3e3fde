"""Fixtures for the vision tests: tiny stand-in ONNX models (no trained weights needed)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from datasets.classes import CLASS_NAMES

onnx = pytest.importorskip("onnx", reason="building stand-in models needs the onnx package")


def write_fake_model(
    path: Path,
    output: np.ndarray,
    *,
    classes: Sequence[str] | None = CLASS_NAMES,
    input_hw: tuple[int, int] = (320, 320),
) -> Path:
    """An ONNX model that ignores its input and returns ``output`` (a YOLO-shaped tensor)."""
    from onnx import TensorProto, helper, numpy_helper

    const = helper.make_node(
        "Constant", [], ["output0"], value=numpy_helper.from_array(output.astype(np.float32))
    )
    graph = helper.make_graph(
        [const],
        "fake",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, *input_hw])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(output.shape))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    if classes is not None:
        entry = model.metadata_props.add()
        entry.key, entry.value = "agari_classes", json.dumps(list(classes))
    onnx.save(model, str(path))
    return path


@pytest.fixture
def fake_model(tmp_path: Path) -> Callable[..., Path]:
    def make(output: np.ndarray, **kwargs: object) -> Path:
        return write_fake_model(tmp_path / "fake.onnx", output, **kwargs)  # type: ignore[arg-type]

    return make
