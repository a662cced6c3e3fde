"""Detections: a validated, immutable bundle of parallel arrays (one row per tile box)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Detections:
    """Boxes in ``xyxy`` pixels, their confidence and class id, row ``i`` in each array.

    Indexing with a boolean mask, an index array or a slice returns a new object.

    >>> d = Detections(np.array([[0, 0, 4, 6], [10, 0, 14, 6]]), np.array([0.9, 0.4]),
    ...                np.array([3, 7]))
    >>> len(d), d[d.confidence > 0.5].class_id.tolist()
    (2, [3])
    >>> len(Detections.merge([d, Detections.empty()]))
    2
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32)
        confidence = np.asarray(self.confidence, dtype=np.float32)
        class_id = np.asarray(self.class_id, dtype=np.int64)
        if xyxy.ndim != 2 or xyxy.shape[1] != 4:
            raise ValueError(f"xyxy must have shape (N, 4), got {xyxy.shape}")
        n = xyxy.shape[0]
        for name, arr in (("confidence", confidence), ("class_id", class_id)):
            if arr.shape != (n,):
                raise ValueError(f"{name} must have shape ({n},), got {arr.shape}")
        # Frozen: set the normalised arrays once, read-only so no caller mutates them.
        for name, arr in (("xyxy", xyxy), ("confidence", confidence), ("class_id", class_id)):
            arr = arr.copy()
            arr.flags.writeable = False
            object.__setattr__(self, name, arr)

    @classmethod
    def empty(cls) -> Detections:
        """No detections (every array of length 0)."""
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))

    @classmethod
    def merge(cls, parts: Sequence[Detections]) -> Detections:
        """Concatenate several detection sets."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.xyxy for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            np.concatenate([p.class_id for p in parts]),
        )

    def __len__(self) -> int:
        return int(self.xyxy.shape[0])

    def __getitem__(self, index: np.ndarray | slice | Sequence[int]) -> Detections:
        if isinstance(index, int | np.integer):
            index = [int(index)]
        return Detections(self.xyxy[index], self.confidence[index], self.class_id[index])

    @property
    def width(self) -> np.ndarray:
        """Box widths in pixels."""
        return self.xyxy[:, 2] - self.xyxy[:, 0]

    @property
    def height(self) -> np.ndarray:
        """Box heights in pixels."""
        return self.xyxy[:, 3] - self.xyxy[:, 1]

    def scaled(self, sx: float, sy: float, dx: float = 0.0, dy: float = 0.0) -> Detections:
        """Boxes mapped by ``x * sx + dx``, ``y * sy + dy`` (e.g. crop to photo pixels)."""
        factor = np.array([sx, sy, sx, sy], np.float32)
        shift = np.array([dx, dy, dx, dy], np.float32)
        return Detections(self.xyxy * factor + shift, self.confidence, self.class_id)
