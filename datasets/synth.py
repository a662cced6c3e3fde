"""Synthetic labelled photos of revealed riichi hands: one function per step.

``render_sample(seed, index, ...)`` draws everything about image ``index`` from a generator
seeded with ``(seed, index)``, so a sample's bytes depend on nothing else (not on the worker
count, not on the other samples). ``generate`` writes a YOLO dataset (images, labels,
``data.yaml``) plus one ground-truth JSON per image (spec in ``datasets/README.md``).
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets import effects
from datasets.art import FaceStyle, load_styles
from datasets.camera import Camera
from datasets.classes import class_id
from datasets.hands import LaidHand, random_hand, win_context
from datasets.render import Renderer, block_corners, random_look
from datasets.scene import Scene, build_scene
from datasets.yolo import format_label_lines, write_data_yaml
from scoring.errors import RequestError

TRUTH_VERSION = 1
#: A face must show at least this share of its area, and this many pixels a side, to be labelled.
MIN_VISIBLE = 0.4
MIN_SIDE_PX = 4.0
HAND_ROLES = ("hand", "win", "meld")
_ASPECTS = ((4, 3), (4, 3), (4, 3), (16, 9), (3, 4), (1, 1), (9, 16))


@dataclass(frozen=True)
class Sample:
    name: str
    jpeg: bytes
    labels: str
    truth: dict[str, Any]


def parse_size(spec: str | int) -> tuple[int, int]:
    """``'1280'`` or ``'640-1280'``: the range of the image's long side in pixels.

    >>> parse_size("640-1280"), parse_size(1280)
    ((640, 1280), (1280, 1280))
    """
    text = str(spec).strip()
    try:
        parts = [int(p) for p in text.split("-")]
    except ValueError:
        raise RequestError(
            f"bad --size {spec!r}: expected e.g. 1280 or 640-1280", code="bad_size"
        ) from None
    lo, hi = (parts[0], parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    if len(parts) > 2 or not 64 <= lo <= hi <= 8000:
        raise RequestError(
            f"bad --size {spec!r}: long side between 64 and 8000 px", code="bad_size"
        )
    return lo, hi


def _image_size(
    rng: np.random.Generator, size: tuple[int, int], portrait_hint: bool
) -> tuple[int, int]:
    long = int(rng.integers(size[0], size[1] + 1))
    a, b = _ASPECTS[int(rng.integers(len(_ASPECTS)))]
    if portrait_hint and a > b:
        a, b = b, a
    if a >= b:
        return long, max(32, round(long * b / a))
    return max(32, round(long * a / b)), long


def sample_camera(
    scene: Scene, rng: np.random.Generator, size: tuple[int, int]
) -> tuple[Camera, dict[str, Any]]:
    """A phone's point of view that keeps the revealed hand in the frame."""
    view = (
        "player"
        if scene.upright_hand
        else str(rng.choice(["player"] * 15 + ["across"] * 3 + ["side"] * 3))
    )
    if view == "player":
        az = float(rng.normal(0, 12))
    elif view == "across":
        az = 180 + float(rng.normal(0, 12))
    else:
        az = float(rng.choice([-1, 1]) * rng.uniform(35, 80))
    # from steep to grazing, most photos between 40 and 80 degrees
    el = float(rng.uniform(12, 55) if scene.upright_hand else 20 + 68 * rng.beta(1.8, 1.3))
    p = rng.random()
    if p < 0.68:
        roll = float(rng.normal(0, 5))
    elif p < 0.88:
        roll = float(rng.choice([-90, 90]) + rng.normal(0, 6))
    else:
        roll = float(rng.uniform(-35, 35))
    width, height = _image_size(rng, size, abs(abs(roll) - 90) < 30)
    fov_long = float(rng.uniform(55, 80))
    hfov = (
        fov_long
        if width >= height
        else float(2 * np.degrees(np.arctan(np.tan(np.radians(fov_long) / 2) * width / height)))
    )
    pts = np.concatenate(
        [block_corners(b) for b in scene.blocks if b.role in (*HAND_ROLES, "dora", "ura")]
    )
    target = pts.mean(0) + rng.normal(0, 10, 3) * [1, 1, 0]
    fill = float(rng.uniform(0.65, 0.97) if view != "player" else rng.uniform(0.78, 0.98))

    def camera_at(distance: float) -> Camera:
        return Camera.look_at(
            target,
            distance=distance,
            elevation_deg=el,
            azimuth_deg=az,
            roll_deg=roll,
            hfov_deg=hfov,
            width=width,
            height=height,
        )

    # Move the camera until the hand fills the wanted share of the frame.
    dist = 700.0
    for _ in range(5):
        uv, z = camera_at(dist).project(pts)
        if np.any(z < 50):
            dist *= 1.5
            continue
        ext = max(np.ptp(uv[:, 0]) / width, np.ptp(uv[:, 1]) / height)
        dist *= ext / fill
    cam = camera_at(dist)
    # place the hand anywhere in the frame (a shifted principal point = a shifted crop)
    uv, _ = cam.project(pts)
    margin = 0.02 * max(width, height)
    shift = []
    for axis, span in ((0, width), (1, height)):
        lo = margin - uv[:, axis].min()
        hi = span - margin - uv[:, axis].max()
        # mostly near the middle, as people aim, sometimes off to a side
        shift.append(lo + (hi - lo) * float(rng.beta(2.5, 2.5)) if hi > lo else (lo + hi) / 2)
    cam = Camera(cam.R, cam.C, cam.fx, cam.cx + shift[0], cam.cy + shift[1], width, height)
    info = {
        "view": view,
        "elevation_deg": round(el, 2),
        "azimuth_deg": round(az, 2),
        "roll_deg": round(roll, 2),
        "hfov_deg": round(hfov, 2),
        "distance_mm": round(dist, 1),
    }
    return cam, info


def _seen_name(tile: str, sideways: bool, face_down: bool) -> str:
    if face_down:
        return "x"
    return f"{tile[0]}'{tile[1]}" if sideways else tile


def _hand_reading(hand: LaidHand) -> tuple[list[str], list[str]]:
    """The hand's tiles in reading order (concealed, winning tile, melds), true and as seen."""
    tiles = [*hand.concealed, hand.win_tile]
    seen = list(hand.concealed)
    seen.append(hand.win_tile)
    for m in hand.melds:
        for j, t in enumerate(m.tiles):
            tiles.append(t)
            seen.append(_seen_name(t, j in m.sideways, j in m.face_down))
    return tiles, seen


def render_sample(
    seed: int,
    index: int,
    size: tuple[int, int],
    styles: tuple[FaceStyle, ...],
    *,
    name: str | None = None,
) -> Sample:
    """Render image ``index`` of the run seeded ``seed``: JPEG bytes, YOLO labels and truth."""
    rng = np.random.default_rng([seed, index])
    hand = random_hand(rng)
    scene = build_scene(hand, rng)
    hand = scene.hand  # indicators may have been left off the table
    cam, cam_info = sample_camera(scene, rng, size)
    look = random_look(styles, rng)
    r = Renderer(cam, look, rng)
    img = r.table(scene)
    r.shadows(img, scene, float(rng.uniform(0.25, 0.6)))
    r.draw(img, scene)
    if rng.random() < 0.4:
        focus = np.mean([b.t for b in scene.blocks if b.role in HAND_ROLES], axis=0)
        r.depth_of_field(img, focus, float(rng.uniform(1.0, 4.0)))
    if rng.random() < 0.15:
        effects.hand_and_sleeve(img, r.ids, rng)
    r.measure()
    done = effects.apply_camera(img, rng)
    quality = int(rng.integers(40, 96))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise RuntimeError("JPEG encoding failed")
    name = name or f"synth_s{seed}_{index:06d}"

    tiles: list[dict[str, Any]] = []
    boxes: list[tuple[int, tuple[float, float, float, float]]] = []
    hand_visible = True
    for s in r.shots:
        b = s.block
        frac = s.visible_px / max(s.full_area, 1.0)
        box = s.box
        labelled = bool(
            box is not None
            and frac >= MIN_VISIBLE
            and box[2] - box[0] >= MIN_SIDE_PX
            and box[3] - box[1] >= MIN_SIDE_PX
        )
        if b.role in HAND_ROLES and not labelled:
            hand_visible = False
        if box is None:
            continue
        entry = {
            "class": s.label,
            "tile": b.tile,
            "box": [round(v, 1) for v in box],
            "role": b.role,
            "sideways": b.sideways,
            "face_down": b.face_down,
            "upright": b.upright,
            "upside_down": bool(abs(s.up_angle) > 90),
            "angle_deg": round(s.up_angle, 1),
            "order": b.order,
            "meld": b.meld,
            "visible": round(min(frac, 1.0), 3),
            "labelled": labelled,
        }
        tiles.append(entry)
        if labelled:
            boxes.append((class_id(s.label), box))
    # tiles of the hand the camera never saw at all (behind something, out of frame)
    seen_blocks = {id(s.block) for s in r.shots if s.box is not None}
    if any(b.role in HAND_ROLES and id(b) not in seen_blocks for b in scene.blocks):
        hand_visible = False
    reading, seen = _hand_reading(hand)
    truth = {
        "version": TRUTH_VERSION,
        "image": f"{name}.jpg",
        "width": cam.width,
        "height": cam.height,
        "seed": seed,
        "index": index,
        "style": look.style.name,
        "back_colour": list(look.back_colour),
        "camera": cam_info,
        "upright_hand": scene.upright_hand,
        "jpeg_quality": quality,
        "effects": {k: round(v, 3) for k, v in done.items()},
        "hand": hand.to_request(),
        # drawn from its own generator, so adding it changed no image
        "context": win_context(hand, np.random.default_rng([seed, index, 1])),
        "hand_tiles": reading,
        "hand_tiles_seen": seen,
        "shape": hand.shape,
        "theme": hand.theme,
        "hand_fully_visible": hand_visible,
        "tiles": tiles,
    }
    labels = format_label_lines(boxes, cam.width, cam.height)
    return Sample(name, buf.tobytes(), labels, truth)


# --- writing a dataset ------------------------------------------------------------------------


def split_of(index: int, val_fraction: float) -> str:
    """``'val'`` for a fixed, seed-independent share of indices, else ``'train'``.

    A negative ``val_fraction`` puts everything in ``'val'`` (a held-out set).
    """
    if val_fraction < 0:
        return "val"
    if val_fraction == 0:
        return "train"
    return "val" if (index * 2654435761 % 2**32) / 2**32 < val_fraction else "train"


_WORKER: dict[str, Any] = {}


def _init_worker(art: str | None, size: tuple[int, int], seed: int, out: str, val: float) -> None:
    cv2.setNumThreads(1)
    _WORKER.update(styles=load_styles(art), size=size, seed=seed, out=Path(out), val=val)


def _write_one(index: int) -> int:
    w = _WORKER
    sample = render_sample(w["seed"], index, w["size"], w["styles"])
    write_sample(w["out"], sample, split_of(index, w["val"]))
    return index


def write_sample(out: Path, sample: Sample, split: str) -> None:
    for sub, suffix, data in (
        ("images", ".jpg", sample.jpeg),
        ("labels", ".txt", sample.labels.encode()),
        ("truth", ".json", (json.dumps(sample.truth, sort_keys=True, indent=1) + "\n").encode()),
    ):
        folder = out / sub / split
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{sample.name}{suffix}").write_bytes(data)


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def generate(
    out: Path,
    count: int,
    *,
    seed: int = 0,
    size: str | int = "640-1280",
    art: Path | None = None,
    workers: int | None = None,
    val_fraction: float = 0.0,
    start: int = 0,
    progress: bool = False,
) -> dict[str, Any]:
    """Render images ``start .. start+count-1`` of run ``seed`` into ``out`` (YOLO layout)."""
    if count < 1 or start < 0:
        raise RequestError(f"count {count} must be >= 1 and start {start} >= 0", code="bad_count")
    if workers is not None and workers < 1:
        raise RequestError(f"workers {workers} must be >= 1", code="bad_workers")
    if not -1 <= val_fraction < 1:
        raise RequestError(
            f"val fraction {val_fraction!r} must be in [0, 1), or -1 for all val", code="bad_split"
        )
    out = Path(out)
    lohi = parse_size(size)
    art_s = str(art) if art is not None else None
    styles = load_styles(art_s)  # loaded before forking: the workers share it
    workers = workers or default_workers()
    indices = range(start, start + count)
    if workers == 1 or count <= 1:
        _init_worker(art_s, lohi, seed, str(out), val_fraction)
        for n, i in enumerate(indices, 1):
            _write_one(i)
            if progress and n % 50 == 0:
                print(f"{n}/{count}", file=sys.stderr, flush=True)
    else:
        ctx = mp.get_context("fork")
        with ctx.Pool(workers, _init_worker, (art_s, lohi, seed, str(out), val_fraction)) as pool:
            for n, _ in enumerate(pool.imap_unordered(_write_one, indices, chunksize=4), 1):
                if progress and n % 50 == 0:
                    print(f"{n}/{count}", file=sys.stderr, flush=True)
    splits = {split_of(i, val_fraction) for i in indices}
    train = "images/train" if "train" in splits else "images/val"
    write_data_yaml(out, train=train, val="images/val" if "val" in splits else train)
    manifest = {
        "generator": "agari datasets.synth",
        "truth_version": TRUTH_VERSION,
        "seed": seed,
        "start": start,
        "count": count,
        "size": list(lohi),
        "val_fraction": val_fraction,
        "styles": [s.name for s in styles],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest
