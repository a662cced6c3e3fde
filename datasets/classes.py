"""The detector's 38 classes, fixed once: the detector, the grouping step and the model file
all read this table.

Ids 0-33 follow the scoring kind index (``1m..9m 1p..9p 1s..9s 1z..7z``); the red fives
``0m 0p 0s`` are 34-36 and a face-down tile is ``back`` (37). The real photo sets in
``../shared/data`` use ids 0-33 in the same order, so their labels mix in unchanged.

>>> len(CLASS_NAMES), CLASS_NAMES[0], CLASS_NAMES[34], CLASS_NAMES[37]
(38, '1m', '0m', 'back')
>>> class_id("0p"), class_id("7z"), class_id("back")
(35, 33, 37)
"""

from __future__ import annotations

from scoring.errors import NotationError

CLASS_NAMES: tuple[str, ...] = (
    *(f"{n}{s}" for s in "mps" for n in range(1, 10)),
    *(f"{n}z" for n in range(1, 8)),
    "0m",
    "0p",
    "0s",
    "back",
)
NUM_CLASSES = len(CLASS_NAMES)
BACK = "back"
BACK_ID = CLASS_NAMES.index(BACK)
#: The classes the 34-class real photo sets share with ours (same ids).
REAL_SET_CLASSES = CLASS_NAMES[:34]

_INDEX = {name: i for i, name in enumerate(CLASS_NAMES)}


def class_id(name: str) -> int:
    """The id of a class name (an MPSZ tile such as ``'0m'``, or ``'back'``)."""
    try:
        return _INDEX[name]
    except KeyError:
        raise NotationError(
            f"not a detector class: {name!r} (expected e.g. '5m', '0p', '7z' or 'back')",
            code="bad_tile",
        ) from None


__all__ = ["BACK", "BACK_ID", "CLASS_NAMES", "NUM_CLASSES", "REAL_SET_CLASSES", "class_id"]
