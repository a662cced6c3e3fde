"""Detections: a validated, immutable bundle of parallel arrays (one row per tile box)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Detections:
    """Boxes in ``xyxy`` pixels, their confidence and class id, row ``i`` in each array.

    ``class_scores`` (optional, ``(N, classes)``) keeps every class's score of each box, so
    that an uncertain tile can name its runner-up classes.

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
    class_scores: np.ndarray | None = None

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
        arrays = {"xyxy": xyxy, "confidence": confidence, "class_id": class_id}
        if self.class_scores is not None:
            scores = np.asarray(self.class_scores, dtype=np.float32)
            if scores.ndim != 2 or scores.shape[0] != n:
                raise ValueError(f"class_scores must have shape ({n}, C), got {scores.shape}")
            arrays["class_scores"] = scores
        # Frozen: set the normalised arrays once, read-only so no caller mutates them.
        for name, arr in arrays.items():
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
        scores = [p.class_scores for p in parts]
        shapes = {s.shape[1] if s is not None else None for s in scores}
        return cls(
            np.concatenate([p.xyxy for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            np.concatenate([p.class_id for p in parts]),
            np.concatenate(scores) if None not in shapes and len(shapes) == 1 else None,  # type: ignore[arg-type]
        )

    def __len__(self) -> int:
        return int(self.xyxy.shape[0])

    def __getitem__(self, index: np.ndarray | slice | Sequence[int]) -> Detections:
        if isinstance(index, int | np.integer):
            index = [int(index)]
        scores = None if self.class_scores is None else self.class_scores[index]
        return Detections(self.xyxy[index], self.confidence[index], self.class_id[index], scores)

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
        return Detections(
            self.xyxy * factor + shift, self.confidence, self.class_id, self.class_scores
        )
