from __future__ import annotations

import pytest

from datasets.classes import BACK_ID, CLASS_NAMES, REAL_SET_CLASSES, class_id
from scoring.errors import NotationError
from scoring.tiles import NUM_KINDS, kind_name


def test_class_order_is_fixed() -> None:
    suits = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    expected = [*suits, "1z", "2z", "3z", "4z", "5z", "6z", "7z", "0m", "0p", "0s", "back"]
    assert list(CLASS_NAMES) == expected
    assert BACK_ID == 37


def test_first_34_ids_are_the_scoring_kinds() -> None:
    assert [kind_name(k) for k in range(NUM_KINDS)] == list(REAL_SET_CLASSES)
    assert all(class_id(kind_name(k)) == k for k in range(NUM_KINDS))


@pytest.mark.parametrize("bad", ["0z", "10m", "", "x", "5'm"])
def test_unknown_class_raises(bad: str) -> None:
    with pytest.raises(NotationError) as err:
        class_id(bad)
    assert err.value.code == "bad_tile"
