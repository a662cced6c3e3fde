"""Rows from boxes: the remembered rows of a box set are the rows found afresh."""

from __future__ import annotations

import numpy as np

from vision import rows


def _boxes(shift: float = 0.0) -> np.ndarray:
    """Two rows of three touching 30x40 tiles, the second 200 px lower."""
    return np.array(
        [[x + shift, y, x + 30 + shift, y + 40] for y in (100, 300) for x in (100, 130, 160)],
        dtype=float,
    )


def test_remembered_rows_equal_rows_found_afresh() -> None:
    boxes = _boxes()
    first = rows.find_rows(boxes)
    assert first == rows._find_rows(boxes)
    assert [len(r) for r in first] == [3, 3]
    assert rows.find_rows(boxes.copy()) == first


def test_a_caller_changing_its_list_does_not_change_the_next_answer() -> None:
    boxes = _boxes(shift=7.0)
    first = rows.find_rows(boxes)
    first.clear()
    assert len(rows.find_rows(boxes)) == 2


def test_other_boxes_get_their_own_rows() -> None:
    near = rows.find_rows(_boxes())
    moved = rows.find_rows(_boxes(shift=50.0))
    assert [r.origin for r in near] != [r.origin for r in moved]
