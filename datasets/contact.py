"""A contact sheet: rendered samples in a grid with their labelled boxes drawn."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.art import FaceStyle
from datasets.synth import Sample, render_sample

ROLE_COLOURS = {
    "hand": (0, 255, 0),
    "win": (0, 0, 255),
    "meld": (255, 128, 0),
    "dora": (0, 255, 255),
    "ura": (255, 0, 255),
    "discard": (200, 200, 200),
    "wall": (120, 120, 120),
}


def draw_truth(img: np.ndarray, truth: dict, *, labels: bool = True) -> np.ndarray:
    """Boxes of the labelled tiles, coloured by role, with their class names."""
    out = img.copy()
    t = max(1, round(max(img.shape[:2]) / 700))
    for tile in truth["tiles"]:
        if not tile["labelled"]:
            continue
        x0, y0, x1, y1 = (round(v) for v in tile["box"])
        col = ROLE_COLOURS.get(tile["role"], (255, 255, 255))
        cv2.rectangle(out, (x0, y0), (x1, y1), col, t)
        if labels and tile["role"] in ("hand", "win", "meld", "dora", "ura"):
            cv2.putText(
                out,
                tile["class"],
                (x0, max(10, y0 - 3)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.35 * t,
                col,
                t,
                cv2.LINE_AA,
            )
    return out


def contact_sheet(samples: list[Sample], *, columns: int = 4, cell: int = 480) -> np.ndarray:
    cells = []
    for s in samples:
        img = cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_COLOR)
        img = draw_truth(img, s.truth)
        h, w = img.shape[:2]
        k = cell / max(h, w)
        img = cv2.resize(img, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
        pad = np.full((cell, cell, 3), 255, np.uint8)
        y, x = (cell - img.shape[0]) // 2, (cell - img.shape[1]) // 2
        pad[y : y + img.shape[0], x : x + img.shape[1]] = img
        cells.append(pad)
    while len(cells) % columns:
        cells.append(np.full((cell, cell, 3), 255, np.uint8))
    rows = [np.concatenate(cells[i : i + columns], 1) for i in range(0, len(cells), columns)]
    return np.concatenate(rows, 0)


def write_contact_sheet(
    path: Path,
    styles: tuple[FaceStyle, ...],
    *,
    seed: int = 2026,
    count: int = 24,
    size: tuple[int, int] = (960, 1280),
    quality: int = 82,
) -> Path:
    samples = [render_sample(seed, i, size, styles) for i in range(count)]
    sheet = contact_sheet(samples, columns=4, cell=480)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), sheet, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return path
