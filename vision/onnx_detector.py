"""The YOLO tile detector on onnxruntime; :func:`open_session` is the one place that
imports onnxruntime (the crop classifier opens its model through it too).

Inference is three pure steps, ``letterbox -> session.run -> decode``; the detector object
holds only the lazily created, thread-safe session (onnxruntime allows concurrent ``run``
calls on one session), never per-call results.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.classes import CLASS_NAMES
from scoring.errors import ModelError
from vision.boxes import nms, xcycwh_to_xyxy
from vision.detections import Detections

MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "agari-tiles.onnx"
PAD_VALUE = 114  # the grey Ultralytics pads with during training
CLASSES_KEY = "agari_classes"
#: Boxes handed to NMS at most (the most confident), as Ultralytics caps them too.
MAX_CANDIDATES = 3000


def letterbox(
    image: np.ndarray, size: tuple[int, int], *, pad_value: int = PAD_VALUE
) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Resize keeping the aspect ratio and pad to ``size = (height, width)``.

    Returns the NCHW float32 tensor (RGB, 0-1), the scale applied and the ``(left, top)``
    padding; :func:`decode` undoes both.

    >>> t, scale, pad = letterbox(np.zeros((300, 600, 3), np.uint8), (320, 320))
    >>> t.shape, scale, pad
    ((1, 3, 320, 320), 0.5333333333333333, (0, 80))
    """
    in_h, in_w = image.shape[:2]
    out_h, out_w = size
    scale = min(out_h / in_h, out_w / in_w)
    new_w, new_h = max(1, round(in_w * scale)), max(1, round(in_h * scale))
    if (new_w, new_h) != (in_w, in_h):
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        image = cv2.resize(image, (new_w, new_h), interpolation=interp)
    left, top = (out_w - new_w) // 2, (out_h - new_h) // 2
    canvas = np.full((out_h, out_w, 3), pad_value, dtype=np.uint8)
    canvas[top : top + new_h, left : left + new_w] = image[:, :, :3]
    tensor = canvas.transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return tensor, scale, (left, top)


def decode(
    raw: np.ndarray,
    scale: float,
    pad: tuple[int, int],
    *,
    image_size: tuple[int, int] | None = None,
    conf: float = 0.25,
    iou: float = 0.5,
    max_det: int = 300,
) -> Detections:
    """YOLO output ``(1, 4 + classes, anchors)`` to :class:`Detections` in image pixels.

    ``image_size`` is ``(height, width)`` of the image before letterboxing (boxes are
    clipped to it). Suppression is class-agnostic: two classes on one box are one tile.

    >>> raw = np.zeros((1, 4 + 3, 2), np.float32)
    >>> raw[0, :4, 0] = [160, 160, 40, 60]; raw[0, 5, 0] = 0.9   # one box of class 1
    >>> d = decode(raw, 0.5, (0, 80), image_size=(300, 600))
    >>> d.xyxy.tolist(), d.class_id.tolist()
    ([[280.0, 100.0, 360.0, 220.0]], [1])
    """
    if raw.ndim == 3:
        raw = raw[0]
    if raw.ndim != 2 or raw.shape[0] < 5:
        raise ModelError(f"unexpected detector output shape {raw.shape}")
    scores = raw[4:]
    class_id = scores.argmax(axis=0)
    confidence = scores[class_id, np.arange(scores.shape[1])]
    keep = confidence >= conf
    if not keep.any():
        return Detections.empty()
    boxes = xcycwh_to_xyxy(raw[:4, keep].T)
    confidence, class_id, class_scores = confidence[keep], class_id[keep], scores[:, keep].T
    if len(confidence) > MAX_CANDIDATES:  # a very low threshold: keep NMS cheap
        top = np.argsort(-confidence, kind="stable")[:MAX_CANDIDATES]
        boxes, confidence, class_id = boxes[top], confidence[top], class_id[top]
        class_scores = class_scores[top]
    left, top = pad
    boxes = (boxes - np.array([left, top, left, top], np.float32)) / scale
    if image_size is not None:
        height, width = image_size
        boxes = np.clip(boxes, 0, np.array([width, height, width, height], np.float32))
    order = nms(boxes, confidence, iou)[:max_det]
    return Detections(boxes[order], confidence[order], class_id[order], class_scores[order])


def read_class_names(metadata: dict[str, str]) -> tuple[str, ...]:
    """The class order stored in a model's metadata (``agari_classes``, a JSON list)."""
    if CLASSES_KEY not in metadata:
        raise ModelError(
            f"the model has no {CLASSES_KEY!r} metadata: it was not exported by "
            "`agari train --export`",
            code="wrong_classes",
        )
    try:
        names = json.loads(metadata[CLASSES_KEY])
    except json.JSONDecodeError:
        raise ModelError(f"unreadable {CLASSES_KEY!r} metadata", code="wrong_classes") from None
    return tuple(str(n) for n in names)


def open_session(
    path: Path,
    *,
    providers: Sequence[str] = ("CPUExecutionProvider",),
    threads: int = 0,
) -> Any:
    """An onnxruntime session for a model file, or :class:`ModelError` saying why not."""
    import onnxruntime as ort

    if not path.is_file():
        raise ModelError(f"model file not found: {path!s}", code="missing_model")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=list(providers))
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ModelError(f"cannot load model {path!s}: {exc}") from None


class OnnxModel:
    """A model file behind one onnxruntime session, opened on first use (thread-safe:
    onnxruntime allows concurrent ``run`` calls on one session).

    The file's stored class order must equal ``class_names``, or loading raises
    :class:`ModelError` ``wrong_classes``; subclasses add checks in :meth:`check`.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        class_names: Sequence[str],
        providers: Sequence[str] = ("CPUExecutionProvider",),
        threads: int = 0,
    ) -> None:
        self.path = Path(path)
        self.class_names = tuple(class_names)
        self._providers = list(providers)
        self._threads = threads
        self._lock = threading.Lock()
        self._session: Any = None

    @property
    def session(self) -> Any:
        """The onnxruntime session (built, and its classes checked, on first access)."""
        if self._session is None:
            with self._lock:
                if self._session is None:
                    session = open_session(
                        self.path, providers=self._providers, threads=self._threads
                    )
                    names = read_class_names(session.get_modelmeta().custom_metadata_map)
                    if names != self.class_names:
                        raise ModelError(
                            f"model {self.path.name} has classes {list(names)!r} but this "
                            f"code expects {list(self.class_names)!r}",
                            code="wrong_classes",
                        )
                    self.check(session)
                    self._session = session
        return self._session

    def check(self, session: Any) -> None:
        """Further checks of a freshly opened session (raise :class:`ModelError`)."""


class OnnxDetector(OnnxModel):
    """The YOLO tile detector; its classes are those of :mod:`datasets.classes`."""

    def __init__(
        self,
        path: Path | str = MODEL_PATH,
        *,
        class_names: Sequence[str] = CLASS_NAMES,
        providers: Sequence[str] = ("CPUExecutionProvider",),
        threads: int = 0,
    ) -> None:
        super().__init__(path, class_names=class_names, providers=providers, threads=threads)

    def check(self, session: Any) -> None:
        channels = session.get_outputs()[0].shape[1]
        if isinstance(channels, int) and channels != 4 + len(self.class_names):
            raise ModelError(
                f"model output has {channels} channels, expected {4 + len(self.class_names)}",
                code="wrong_classes",
            )

    @property
    def input_size(self) -> tuple[int, int]:
        """The network input ``(height, width)``; 640 where the model leaves it dynamic."""
        _, _, height, width = self.session.get_inputs()[0].shape
        return (
            height if isinstance(height, int) else 640,
            width if isinstance(width, int) else 640,
        )

    def run(self, tensor: np.ndarray) -> np.ndarray:
        """One forward pass on a letterboxed NCHW tensor."""
        session = self.session
        return session.run(None, {session.get_inputs()[0].name: tensor})[0]

    def detect(self, image: np.ndarray, *, conf: float = 0.25, iou: float = 0.5) -> Detections:
        """Tiles in an RGB ``(H, W, 3)`` uint8 image, boxes in its pixels."""
        tensor, scale, pad = letterbox(image, self.input_size)
        return decode(self.run(tensor), scale, pad, image_size=image.shape[:2], conf=conf, iou=iou)


@functools.cache
def default_detector() -> OnnxDetector:
    """The process-wide detector for the shipped model (created once, lazily).

    A plain cache is enough: the constructor only records the path (the session is opened
    on first use, under the model's own lock), so two threads racing here build at most a
    throwaway wrapper, never a second session.
    """
    return OnnxDetector()
