"""The peer detector, ``mahjong-detector`` (PyPI; a YOLO11n on real tiles), for comparison.

It is never a dependency of Agari: the benchmarks look for its wheel (or the unpacked
package) beside the repository, in ``../peer``:

    pip download --no-deps mahjong-detector -d ../peer

Its 34 classes are alphabetical (``1m 1p 1s 2m ... chun haku hatsu nan pe sha tou``) and
are mapped onto ours; it has no red fives and no face-down tiles. Its own preprocessing
is kept (grey, autocontrast, 640x640 with black padding), so the figures are its own.
"""

from __future__ import annotations

import ast
import sys
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

from datasets.classes import CLASS_NAMES
from vision.detections import Detections
from vision.onnx_detector import decode
from vision.training import PEER_NAMES as PEER_TO_OURS

PEER_DIR = Path(__file__).resolve().parents[2] / "peer"


def peer_package() -> Path | None:
    """The unpacked ``mahjong_detector`` package folder, unpacking the wheel if needed."""
    unpacked = PEER_DIR / "ex" / "mahjong_detector"
    if (unpacked / "model.onnx").exists():
        return unpacked
    wheels = sorted(PEER_DIR.glob("mahjong_detector-*.whl"))
    if not wheels:
        return None
    with zipfile.ZipFile(wheels[-1]) as zf:
        zf.extractall(PEER_DIR / "ex")
    return unpacked


class PeerDetector:
    """mahjong-detector behind the pipeline's ``TileDetector`` interface (our class ids)."""

    def __init__(self, package: Path, *, threads: int = 0) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(
            str(package / "model.onnx"), sess_options=options, providers=["CPUExecutionProvider"]
        )
        meta = self.session.get_modelmeta().custom_metadata_map
        names = list(ast.literal_eval(meta["names"]).values())
        self.to_ours = np.array([CLASS_NAMES.index(PEER_TO_OURS[n]) for n in names])
        self.package = package
        if str(package.parent) not in sys.path:
            sys.path.insert(0, str(package.parent))

    @property
    def input_size(self) -> tuple[int, int]:
        return (640, 640)

    def detect(self, image: np.ndarray, *, conf: float = 0.25, iou: float = 0.5) -> Detections:
        """Its preprocessing (grey + autocontrast, centred on black), our decoding."""
        grey = ImageOps.autocontrast(Image.fromarray(image).convert("L"))
        w, h = grey.size
        scale = 640 / max(w, h)
        new_w, new_h = int(w * scale), int(h * scale)
        left, top = (640 - new_w) // 2, (640 - new_h) // 2
        canvas = Image.new("L", (640, 640), 0)
        canvas.paste(grey.resize((new_w, new_h), Image.BILINEAR), (left, top))
        x = np.asarray(canvas, np.float32)[None, None].repeat(3, axis=1) / 255.0
        raw = self.session.run(None, {self.session.get_inputs()[0].name: x})[0]
        dets = decode(raw, scale, (left, top), image_size=image.shape[:2], conf=conf, iou=iou)
        return Detections(dets.xyxy, dets.confidence, self.to_ours[dets.class_id])

    def own_pipeline(self, path: Path) -> list[tuple[int, int, int, int, int, float]]:
        """The package's own path from a file (for latency): decode, preprocess, predict."""
        from mahjong_detector.predict import predict
        from mahjong_detector.preprocess import preprocess_image

        img, padding = preprocess_image(Image.open(path))
        return [tuple(d) for d in predict(img, padding)]
