"""Training the crop classifier of :mod:`vision.tile_classifier` (extra ``train``: torch).

Nothing here runs at serving time; torch is imported inside the functions.

1. :func:`build_crops` - crops of labelled tiles (their boxes jittered the way a detector's
   boxes are off) and of ``none`` boxes (table, river edges, half tiles) from YOLO datasets:
   the real train splits in ``../shared/data`` and the synthetic renders in ``../data``.
   Crops are cut by :func:`vision.tile_classifier.crop_tiles`, the function the run time
   uses, and saved as one ``.npz`` per source outside git.
2. :func:`train_classifier` - a small CNN (:func:`make_model`) trained with augmentation
   that imitates phone photos (blur and low resolution, light and colour casts, a few
   degrees of tilt or, for a quarter of the crops, any angle; upside-down tiles); real crops
   are repeated so that they stay about a third of each epoch (a lesson of the detector's
   run ``mixC``, models/TRAINING_LOG.md).
3. :func:`export_classifier` - ONNX with the class order in the metadata, checked on load.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.classes import BACK_ID
from datasets.yolo import read_label_boxes
from scoring.errors import ModelError
from vision.boxes import box_iou_batch
from vision.image_io import DECODE_LONG_SIDE
from vision.onnx_detector import MODEL_PATH
from vision.tile_classifier import (
    CLASSIFIER_CLASSES,
    CLASSIFIER_PATH,
    CROP_SIZE,
    crop_tiles,
)
from vision.training import (
    DATA_DIR,
    RUNS_DIR,
    SHARED_DATA,
    image_files,
    log_run,
    require_train_extra,
)

NONE_ID = len(CLASSIFIER_CLASSES) - 1


@dataclass(frozen=True)
class CropPlan:
    """How many crops to cut from each image of a source."""

    jitters: int = 1  # crops per labelled tile, each with its own box error
    jitter: float = 0.07  # standard deviation of each edge's error, in box sizes
    none_share: float = 0.25  # `none` crops per labelled tile
    back_keep: float = 0.3  # face-down tiles are plentiful in synthetic walls: keep this share


def _none_boxes(
    rng: np.random.Generator, boxes: np.ndarray, count: int, width: int, height: int
) -> np.ndarray:
    """Tile-sized boxes on no tile, and boxes straddling two tiles or half off one."""
    out = []
    sizes = boxes[:, 2:] - boxes[:, :2]
    for _ in range(count * 4):
        if len(out) >= count:
            break
        w, h = sizes[rng.integers(len(sizes))] * rng.uniform(0.8, 1.25)
        if rng.random() < 0.5:  # beside a tile, overlapping it by a third to a half
            x1, y1 = boxes[rng.integers(len(boxes)), :2]
            dx, dy = rng.choice([-1, 1], 2) * rng.uniform(0.5, 0.7, 2) * (w, h)
            dx, dy = (dx, dy * rng.uniform(0, 0.3)) if rng.random() < 0.5 else (dx * 0.2, dy)
            x1, y1 = x1 + dx, y1 + dy
        else:
            x1, y1 = rng.uniform(0, max(1.0, width - w)), rng.uniform(0, max(1.0, height - h))
        box = np.array([[x1, y1, x1 + w, y1 + h]], np.float32)
        if box_iou_batch(box, boxes).max(initial=0.0) < 0.3:
            out.append(box[0])
    return np.array(out, np.float32).reshape(-1, 4)


def _crops_of_image(args: tuple[str, int, CropPlan]) -> tuple[np.ndarray, np.ndarray]:
    from PIL import Image

    path, seed, plan = args
    rng = np.random.default_rng(seed)
    with Image.open(path) as img:
        pixels = np.asarray(img.convert("RGB"))
    height, width = pixels.shape[:2]
    boxes, classes = read_label_boxes(Path(path), width, height)
    if len(boxes) == 0:
        return np.zeros((0, *CROP_SIZE, 3), np.uint8), np.zeros(0, np.int64)
    keep = (classes != BACK_ID) | (rng.random(len(classes)) < plan.back_keep)
    tiles, labels = boxes[keep], classes[keep]
    parts, ids = [], []
    for _ in range(plan.jitters):
        size = np.tile(tiles[:, 2:] - tiles[:, :2], 2)
        jittered = tiles + rng.normal(0, plan.jitter, tiles.shape) * size
        parts.append(jittered)
        ids.append(labels)
    nones = _none_boxes(rng, boxes, round(plan.none_share * len(tiles)), width, height)
    parts.append(nones)
    ids.append(np.full(len(nones), NONE_ID))
    xyxy = np.concatenate(parts)
    return crop_tiles(pixels, xyxy), np.concatenate(ids)


def build_detector_crops(
    root: Path,
    out: Path,
    *,
    split: str = "train",
    limit: int = 0,
    conf: float = 0.05,
    detector: Any = None,
) -> Path:
    """Crops of the detector's own boxes on a labelled split: a box on a labelled tile
    (IoU >= 0.5) takes the tile's class, a box on nothing (IoU < 0.3) is ``none``. These
    carry the detector's real box errors and its false alarms (river edges, half tiles),
    which jittered labels only imitate."""
    from PIL import Image

    from vision.onnx_detector import OnnxDetector
    from vision.pipeline import detect_tiles

    detector = detector or OnnxDetector(threads=2)
    images = _images(root, split)[: limit or None]
    xs, ys = [], []
    for path in images:
        with Image.open(path) as img:
            pixels = np.asarray(img.convert("RGB"))
        height, width = pixels.shape[:2]
        boxes, classes = read_label_boxes(path, width, height)
        if len(boxes) == 0:
            continue
        shrink = min(1.0, DECODE_LONG_SIDE / max(height, width))  # the run time's first decode
        small = pixels
        if shrink < 1.0:
            size = (round(width * shrink), round(height * shrink))
            small = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)
        dets, _ = detect_tiles(small, detector, conf=conf, hires=lambda p=pixels: p)
        if len(dets) == 0:
            continue
        xyxy = dets.xyxy / shrink
        iou = box_iou_batch(xyxy, boxes)
        best = iou.max(axis=1)
        label = np.where(best >= 0.5, classes[iou.argmax(axis=1)], NONE_ID)
        keep = (best >= 0.5) | (best < 0.3)
        xs.append(crop_tiles(pixels, xyxy[keep]))
        ys.append(label[keep])
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, x=np.concatenate(xs), y=np.concatenate(ys), source=str(root), split=split)
    return out


def _images(root: Path, split: str) -> list[Path]:
    images = [Path(p) for p in image_files(root / "images" / split)]
    if not images:
        raise ModelError(f"no images under {root / 'images' / split}", code="no_data")
    return images


def build_crops(
    root: Path,
    out: Path,
    *,
    split: str = "train",
    plan: CropPlan = CropPlan(),
    limit: int = 0,
    seed: int = 0,
    workers: int = 2,
) -> Path:
    """Crops of one YOLO dataset's split into ``out`` (an ``.npz`` of ``x`` and ``y``)."""
    images = _images(root, split)[: limit or None]
    jobs = [(str(p), seed * 1_000_003 + i, plan) for i, p in enumerate(images)]
    xs, ys = [], []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for x, y in pool.map(_crops_of_image, jobs, chunksize=16):
            xs.append(x)
            ys.append(y)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, x=np.concatenate(xs), y=np.concatenate(ys), source=str(root), split=split)
    return out


def make_model(num_classes: int = len(CLASSIFIER_CLASSES), width: int = 1) -> Any:
    """A small VGG-style CNN for 64x48 crops (about 35 MFLOPs a crop at ``width=1``).

    Plain 3x3 convolutions run fast on CPUs under onnxruntime (no depthwise layers), and
    four stride-2 stages bring a 64x48 crop to 4x3 before the pooled classifier.
    """
    import torch.nn as nn

    def block(c_in: int, c_out: int, stride: int) -> list[Any]:
        return [
            nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False),
            nn.BatchNorm2d(c_out),
            nn.ReLU(inplace=True),
        ]

    c = [int(v * width) for v in (24, 48, 96, 160, 256)]
    layers = [
        *block(3, c[0], 1),
        *block(c[0], c[1], 2),
        *block(c[1], c[1], 1),
        *block(c[1], c[2], 2),
        *block(c[2], c[2], 1),
        *block(c[2], c[3], 2),
        *block(c[3], c[3], 1),
        *block(c[3], c[4], 2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(c[4], num_classes),
    ]
    return nn.Sequential(*layers)


#: Share of training crops turned by a random angle (any, not a few degrees): a tile in a
#: row photographed at 30-60 degrees is cut by its upright box, turned portrait when the
#: box is landscape, so the classifier sees its face at any angle (models/TRAINING_LOG.md,
#: run clsE: the test photo's sideways red 5p in a tilted row).
TILT_SHARE = 0.25
#: Width over height of a crop (:data:`CROP_SIZE` is 64 x 48: an upright tile's 3:4).
CROP_ASPECT = CROP_SIZE[1] / CROP_SIZE[0]


def tilted_crop_theta(angle: Any, scale: Any, shift_x: Any, shift_y: Any) -> Any:
    """``(N, 2, 3)`` affine maps for :func:`torch.nn.functional.affine_grid` that turn an
    upright crop by ``angle`` (radians) and cut it as the run time does: the turned tile's
    upright bounding box, turned portrait when it is landscape, stretched to the crop shape.

    In physical units (the crop's height 2, width ``2 * CROP_ASPECT``) a tile turned by
    ``a`` has a bounding box of half-sizes ``w = A|cos a| + |sin a|``, ``h = A|sin a| +
    |cos a|``. A small angle gives back the plain turn of the upright crop.
    """
    import torch

    a = CROP_ASPECT
    c, s = torch.cos(angle).abs(), torch.sin(angle).abs()
    half_w, half_h = a * c + s, a * s + c
    landscape = half_w > half_h
    # The run time turns a landscape box portrait (crop_tiles): the face turns a quarter more.
    angle = torch.where(landscape, angle + torch.pi / 2, angle)
    half_w, half_h = torch.where(landscape, half_h, half_w), torch.where(landscape, half_w, half_h)
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    return torch.stack(
        [
            torch.stack([cos * half_w / a, sin * half_h / a, shift_x], 1),
            torch.stack([-sin * half_w, cos * half_h, shift_y], 1),
        ],
        1,
    )


def augment(x: Any, generator: Any) -> Any:
    """Phone-photo augmentation of a float NCHW batch in 0-1 (on the fly, in torch)."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    g = generator

    def u(lo: float, hi: float, *shape: int) -> Any:
        return torch.rand(n, *shape, generator=g) * (hi - lo) + lo

    # Upside-down: a tile seen from across the table, or a sideways tile turned the other way.
    flip = torch.rand(n, generator=g) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(2, 3), x)
    # A few degrees of tilt, a little shift and zoom (detector boxes are off by that much);
    # a share of the crops turned by any angle instead, as a tile in a tilted row is cut.
    small = u(-0.15, 0.15)
    wide = u(-torch.pi / 2, torch.pi / 2)
    angle = torch.where(torch.rand(n, generator=g) < TILT_SHARE, wide, small)
    theta = tilted_crop_theta(angle, u(0.9, 1.12), u(-0.08, 0.08), u(-0.08, 0.08))
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, padding_mode="border", align_corners=False)
    # Low resolution: down to 12-48 px tall and back, as small tiles in a big photo are.
    low = torch.rand(n, generator=g) < 0.5
    if low.any():
        h = int(torch.randint(12, 48, (1,), generator=g))
        small = F.interpolate(x[low], size=(h, max(4, h * 3 // 4)), mode="area")
        x[low] = F.interpolate(small, size=x.shape[2:], mode="bilinear", align_corners=False)
    # Light: brightness, contrast, a colour cast, a little saturation change; hue is left
    # alone (a red five differs from a five by its colour).
    x = x * u(0.6, 1.4, 1, 1, 1) + u(-0.12, 0.12, 1, 1, 1)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * u(0.7, 1.3, 1, 1, 1) + mean
    x = x * u(0.9, 1.1, 3, 1, 1)
    grey = x.mean(dim=1, keepdim=True)
    x = grey + (x - grey) * u(0.6, 1.3, 1, 1, 1)
    x = x + torch.randn(x.shape, generator=g) * u(0, 0.04, 1, 1, 1)
    return x.clamp(0, 1)


def _load(paths: Sequence[Path]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for p in paths:
        with np.load(p) as data:
            xs.append(data["x"])
            ys.append(data["y"])
    return np.concatenate(xs), np.concatenate(ys)


def train_classifier(
    *,
    real: Sequence[Path],
    synth: Sequence[Path],
    val: dict[str, Sequence[Path]],
    out: Path,
    epochs: int = 12,
    real_share: float = 0.35,
    epoch_size: int = 60_000,
    batch: int = 256,
    lr: float = 3e-3,
    threads: int = 2,
    seed: int = 0,
    log: Path | None = None,
    hours: float | None = None,
    init: Path | None = None,
) -> Path:
    """Train the classifier (from ``init`` weights when given); writes ``out`` (a torch
    state dict) after every epoch."""
    require_train_extra("torch")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    real_x, real_y = _load(real)
    synth_x, synth_y = _load(synth)
    vals = {name: _load(paths) for name, paths in val.items()}
    model = make_model()
    if init is not None:
        model.load_state_dict(torch.load(init, map_location="cpu"))
    model = model.to(memory_format=torch.channels_last)
    steps_per_epoch = epoch_size // batch
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, max_lr=lr, total_steps=epochs * steps_per_epoch, pct_start=0.15
    )
    started = time.monotonic()

    def say(text: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {text}"
        print(line, flush=True)
        if log is not None:
            with log.open("a") as fh:
                fh.write(line + "\n")

    say(
        f"classifier: {len(real_y)} real, {len(synth_y)} synthetic crops; "
        f"{epochs} epochs of {steps_per_epoch * batch}, real share {real_share}"
    )
    for epoch in range(epochs):
        model.train()
        n_real = int(steps_per_epoch * batch * real_share)
        idx_real = rng.integers(len(real_y), size=n_real)
        idx_synth = rng.integers(len(synth_y), size=steps_per_epoch * batch - n_real)
        order = rng.permutation(steps_per_epoch * batch)
        total_loss = 0.0
        for step in range(steps_per_epoch):
            pick = order[step * batch : (step + 1) * batch]
            from_real = pick < n_real
            xb = np.empty((len(pick), *CROP_SIZE, 3), np.uint8)
            yb = np.empty(len(pick), np.int64)
            xb[from_real] = real_x[idx_real[pick[from_real]]]
            yb[from_real] = real_y[idx_real[pick[from_real]]]
            xb[~from_real] = synth_x[idx_synth[pick[~from_real] - n_real]]
            yb[~from_real] = synth_y[idx_synth[pick[~from_real] - n_real]]
            x = torch.from_numpy(xb).permute(0, 3, 1, 2).float() / 255.0
            x = augment(x, gen).contiguous(memory_format=torch.channels_last)
            y = torch.from_numpy(yb)
            # fp32: on CPUs without AMX, bf16 autocast made a step 6x slower (measured).
            loss = F.cross_entropy(model(x), y, label_smoothing=0.05)
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            schedule.step()
            total_loss += float(loss.detach())
        # Validation is reported, never used to pick an epoch: the run ships its last one
        # (the one-cycle schedule ends at a tiny learning rate).
        accuracy = {name: evaluate_crops(model, *xy) for name, xy in vals.items()}
        say(
            f"epoch {epoch + 1}/{epochs}: loss {total_loss / steps_per_epoch:.3f}, "
            + ", ".join(f"{name} accuracy {v:.4f}" for name, v in accuracy.items())
            + f", {(time.monotonic() - started) / 60:.1f} min"
        )
        torch.save(model.state_dict(), out)
        if hours and time.monotonic() - started > hours * 3600:
            say("time limit reached")
            break
    return out


def evaluate_crops(model: Any, x: np.ndarray, y: np.ndarray, batch: int = 512) -> float:
    """Top-1 accuracy on uint8 NHWC crops (no augmentation)."""
    import torch

    model.eval()
    right = 0
    with torch.no_grad():
        for i in range(0, len(y), batch):
            xb = torch.from_numpy(x[i : i + batch]).permute(0, 3, 1, 2).float() / 255.0
            pred = model(xb.contiguous(memory_format=torch.channels_last)).argmax(1)
            right += int((pred.numpy() == y[i : i + batch]).sum())
    return right / max(1, len(y))


def export_classifier(weights: Path, out: Path = CLASSIFIER_PATH) -> Path:
    """ONNX export (fp32, opset 17, dynamic batch) with the class order in the metadata."""
    require_train_extra("torch")
    import onnx
    import torch

    model = make_model()
    model.load_state_dict(torch.load(weights, map_location="cpu"))
    model.eval()
    height, width = CROP_SIZE
    dummy = torch.zeros(1, 3, height, width)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        dummy,
        str(out),
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    graph = onnx.load(str(out))
    for key, value in (
        ("agari_classes", json.dumps(list(CLASSIFIER_CLASSES))),
        ("agari_crop_size", json.dumps(list(CROP_SIZE))),
        ("agari_source", str(weights)),
    ):
        entry = graph.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(graph, str(out))
    return out


#: The crop sources of a run: name -> (dataset folder, split, plan, image limit).
REAL_PLAN = CropPlan(jitters=3, none_share=0.3)
SYNTH_PLAN = CropPlan(jitters=1, none_share=0.2, back_keep=0.2)
VAL_PLAN = CropPlan(jitters=1, jitter=0.03, none_share=0.2, back_keep=0.5)


def crop_sources(synth: Sequence[str]) -> dict[str, tuple[Path, str, CropPlan, int]]:
    """Where each crop file of a run comes from (real sets from ../shared, renders from
    ../data; the synthetic hold-out gives validation crops only)."""
    hk, riichi = SHARED_DATA / "real-photos-hk", SHARED_DATA / "real-photos-riichi-small"
    sources = {
        "hk_train": (hk, "train", REAL_PLAN, 0),
        "riichi_train": (riichi, "train", REAL_PLAN, 0),
        "hk_val": (hk, "val", VAL_PLAN, 0),
        "riichi_val": (riichi, "val", VAL_PLAN, 0),
        "synth_val": (DATA_DIR / "synth_holdout", "val", VAL_PLAN, 150),
    }
    for name in synth:
        sources[name] = (DATA_DIR / name, "train", SYNTH_PLAN, 0)
    return sources


def clean_none_crops(path: Path, out: Path, classifier: Path) -> Path:
    """Keep a crop labelled ``none`` only when ``classifier`` (an exported ONNX classifier)
    also says ``none``: on the real sets a detector box matching no label is most often a
    tile the labels leave out, not a non-tile (models/TRAINING_LOG.md, run clsB)."""
    from vision.tile_classifier import TileClassifier

    with np.load(path) as data:
        x, y = data["x"], data["y"]
    agree = TileClassifier(classifier).probabilities(x)[:, NONE_ID] >= 0.5
    keep = (y != NONE_ID) | agree
    np.savez(out, x=x[keep], y=y[keep])
    return out


def run(
    *,
    name: str = "cls",
    synth: Sequence[str] = ("synth_v1", "synth_v2", "synth_v3"),
    epochs: int = 10,
    epoch_size: int = 40_000,
    hours: float | None = None,
    lr: float = 3e-3,
    init: Path | None = None,
    clean_with: Path | None = None,
) -> Path:
    """Cut the crops that are missing (under ``../data/crops``), train, log the run to
    ``models/TRAINING_LOG.md``; returns the weights (``../runs/cls/NAME.pt``).

    With ``clean_with`` (an exported classifier, e.g. the first run's), the crops of the
    detector's own boxes join the data: on the real train splits with their ``none`` crops
    cleaned by it (:func:`clean_none_crops`), and on 900 renders of the last synthetic set.
    The shipped model: ``run(name="clsA")``, exported, then ``run(name="clsB", epochs=12,
    lr=1.5e-3, init=clsA.pt, clean_with=clsA.onnx)`` with the detector of then (mixB-3s),
    then with the shipped detector (mixK) ``run(name="clsE", epochs=6, lr=1e-3,
    init=clsB.pt, clean_with=clsA.onnx)``: the tilt augmentation's run (models/TRAINING_LOG.md).
    """
    crops = DATA_DIR / "crops"
    paths = {}
    for key, (root, split, plan, limit) in crop_sources(synth).items():
        paths[key] = crops / f"{key}.npz"
        if not paths[key].exists():
            build_crops(root, paths[key], split=split, plan=plan, limit=limit)
    real = [paths["hk_train"], paths["riichi_train"]]
    synthetic = [paths[s] for s in synth]
    if clean_with is not None:
        # Named after the shipped detector's file: a new detector cuts its own crops instead
        # of reusing those of the one before it.
        tag = hashlib.sha256(MODEL_PATH.read_bytes()).hexdigest()[:8]
        for key, root in (("hk", "real-photos-hk"), ("riichi", "real-photos-riichi-small")):
            raw = crops / f"det-{tag}_{key}_train.npz"
            clean = crops / f"det-{tag}_{key}_train_clean.npz"
            if not raw.exists():
                build_detector_crops(SHARED_DATA / root, raw)
            real.append(clean_none_crops(raw, clean, clean_with))
        renders = crops / f"det-{tag}_{synth[-1]}.npz"
        if not renders.exists():
            build_detector_crops(DATA_DIR / synth[-1], renders, limit=900)
        synthetic.append(renders)
    out = RUNS_DIR / "cls" / f"{name}.pt"
    out.parent.mkdir(parents=True, exist_ok=True)
    log_run(
        f"classifier run `{name}`: synth={list(synth)}, epochs={epochs}, lr={lr}, "
        f"epoch_size={epoch_size}, hours={hours}, init={init}, clean_with={clean_with}; "
        f"crops in {crops}"
    )
    started = time.monotonic()
    train_classifier(
        real=real,
        synth=synthetic,
        val={
            "hk": [paths["hk_val"]],
            "riichi": [paths["riichi_val"]],
            "synth": [paths["synth_val"]],
        },
        out=out,
        epochs=epochs,
        epoch_size=epoch_size,
        lr=lr,
        hours=hours,
        init=init,
        log=out.with_suffix(".log"),
    )
    log_run(f"classifier `{name}` finished after {(time.monotonic() - started) / 60:.0f} min")
    return out
