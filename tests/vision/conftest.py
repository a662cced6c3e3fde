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


def write_colour_classifier(
    path: Path, colours: Sequence[tuple[int, int, int]], *, classes: Sequence[str] | None = None
) -> Path:
    """A stand-in crop classifier: class ``i`` is the crop whose mean colour is ``colours[i]``
    (red, green, blue, yellow: linear scores that separate them), and a black crop is
    ``none`` (the last class). A real ONNX graph, so the onnxruntime path is exercised."""
    from onnx import TensorProto, helper, numpy_helper

    from vision.tile_classifier import CLASSIFIER_CLASSES

    names = list(CLASSIFIER_CLASSES if classes is None else classes)
    directions = {
        (200, 30, 30): (1, -1, -1),
        (30, 200, 30): (-1, 1, -1),
        (30, 30, 200): (-1, -1, 1),
        (200, 200, 30): (0.5, 0.5, -1.5),
    }
    weights = np.zeros((3, len(names)), np.float32)
    bias = np.full(len(names), -10.0, np.float32)
    for i, colour in enumerate(colours):
        weights[:, i] = np.array(directions[tuple(colour)], np.float32) * 40
        bias[i] = 0.0
    bias[-1] = 3.0  # `none` wins (p 0.83) when no colour does
    nodes = [
        helper.make_node("ReduceMean", ["crops"], ["mean"], axes=[2, 3], keepdims=0),
        helper.make_node("MatMul", ["mean", "w"], ["scores"]),
        helper.make_node("Add", ["scores", "b"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes,
        "colour_classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, 64, 48])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", len(names)])],
        initializer=[numpy_helper.from_array(weights, "w"), numpy_helper.from_array(bias, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    entry = model.metadata_props.add()
    entry.key, entry.value = "agari_classes", json.dumps(names)
    onnx.save(model, str(path))
    return path
