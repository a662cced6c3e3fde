"""YOLO text labels and ``data.yaml``: one reader and one writer each."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from datasets.classes import CLASS_NAMES, NUM_CLASSES
from scoring.errors import RequestError

Box = tuple[float, float, float, float]


def format_label_lines(boxes: Iterable[tuple[int, Box]], width: int, height: int) -> str:
    """YOLO lines ``class cx cy w h`` (normalised) from pixel xyxy boxes.

    >>> format_label_lines([(4, (10.0, 20.0, 30.0, 60.0))], 100, 200)
    '4 0.200000 0.200000 0.200000 0.200000\\n'
    """
    lines = []
    for cls, (x0, y0, x1, y1) in boxes:
        cx, cy = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        w, h = (x1 - x0) / width, (y1 - y0) / height
        lines.append(f"{cls} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}\n")
    return "".join(lines)


def read_label_lines(text: str, width: int, height: int) -> list[tuple[int, Box]]:
    """Parse YOLO lines back into (class id, pixel xyxy) pairs; bad lines raise."""
    out: list[tuple[int, Box]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(p) for p in parts[1:])
        except (ValueError, IndexError):
            raise RequestError(
                f"YOLO label line {n} malformed: {line!r}", code="bad_label"
            ) from None
        if not 0 <= cls < NUM_CLASSES:
            raise RequestError(
                f"YOLO label line {n}: class {cls} not in 0-{NUM_CLASSES - 1}", code="bad_label"
            )
        out.append(
            (
                cls,
                (
                    (cx - w / 2) * width,
                    (cy - h / 2) * height,
                    (cx + w / 2) * width,
                    (cy + h / 2) * height,
                ),
            )
        )
    return out


def read_label_boxes(image: Path, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """The labels of a YOLO image (``images/`` -> ``labels/``, ``.txt``) as ``(N, 4)`` pixel
    xyxy boxes and ``(N,)`` class ids; polygon rows (Roboflow exports) become their bounding
    boxes, short rows are skipped, a missing file is no labels. Tolerant, for reading the
    real sets as they are (:func:`read_label_lines` is the strict reader of our own labels).

    >>> read_label_boxes(Path("/nowhere/images/a.jpg"), 10, 10)[0].shape
    (0, 4)
    """
    label = Path(str(image).replace("/images/", "/labels/")).with_suffix(".txt")
    boxes, classes = [], []
    if label.exists():
        for line in label.read_text().splitlines():
            values = line.split()
            if len(values) < 5:
                continue
            coords = np.array(values[1:], np.float32)
            if len(coords) == 4:
                cx, cy, w, h = coords
                xyxy = np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], np.float32)
            else:
                pts = coords[: len(coords) // 2 * 2].reshape(-1, 2)
                xyxy = np.concatenate([pts.min(0), pts.max(0)])
            boxes.append(xyxy * np.array([width, height, width, height], np.float32))
            classes.append(int(values[0]))
    return np.array(boxes, np.float32).reshape(-1, 4), np.array(classes, np.int64)


def write_data_yaml(
    root: Path, *, train: str, val: str, names: tuple[str, ...] = CLASS_NAMES
) -> Path:
    """An Ultralytics ``data.yaml`` (paths relative to ``root``, class names in our order)."""
    root = Path(root)
    lines = [
        f"path: {root.resolve()}",
        f"train: {train}",
        f"val: {val}",
        f"nc: {len(names)}",
        "names:",
        *(f"  {i}: '{n}'" for i, n in enumerate(names)),
    ]
    path = root / "data.yaml"
    root.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


def read_data_yaml_names(path: Path) -> list[str]:
    """The class names of a ``data.yaml`` (``names:`` as an indexed mapping or a list).

    Only the subset of YAML that dataset exporters write is read, so no YAML library is needed.
    """
    names: dict[int, str] = {}
    in_names = False
    for raw in Path(path).read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if line.startswith("names:"):
            rest = line[len("names:") :].strip()
            if rest.startswith("["):
                items = [x.strip().strip("'\"") for x in rest.strip("[]").split(",") if x.strip()]
                return items
            in_names = True
            continue
        if in_names and line.startswith((" ", "\t", "-")):
            item = line.strip()
            if item.startswith("-"):
                names[len(names)] = item[1:].strip().strip("'\"")
            else:
                key, _, value = item.partition(":")
                names[int(key)] = value.strip().strip("'\"")
        elif in_names:
            in_names = False
    if not names or sorted(names) != list(range(len(names))):
        raise RequestError(f"{str(path)!r} has no usable 'names:' list", code="bad_dataset")
    return [names[i] for i in range(len(names))]
