"""Upper bounds on the numbers a request may carry.

JSON has no integer size limit and Python reads ``10**30`` exactly, but JavaScript clients
(the pages, the OBS overlay, streamers' tools) read every JSON number as a double: integers
past 2**53 lose precision there, so a response could show a score nobody sent. The bounds
are far beyond any real game and far below 2**53, also after honba, sticks and a long
game's sums: a number past them is a typo or a probe, refused with the code
``out_of_range`` (a wrong type or a negative count keeps its own code).

>>> check_range(3, "honba", 0, MAX_COUNTER)
3
>>> check_range(10**30, "honba", 0, MAX_COUNTER)
Traceback (most recent call last):
...
scoring.errors.RequestError: honba 1000000000000000000000000000000 is out of range: 0 to 999
"""

from __future__ import annotations

from typing import Any

from scoring.errors import RequestError

#: Honba, riichi sticks, chombo: a dealer's longest run of repeats in real play is about
#: twenty hands; a counter in the hundreds is already not a game.
MAX_COUNTER = 999
#: Any points figure: a hand's value, a payment, a delta, a final score. The largest real
#: payment (a multiple yakuman) is under a million.
MAX_POINTS = 10**9


def check_range(value: int, name: str, low: int, high: int, **details: Any) -> int:
    """``value`` if ``low <= value <= high``, else :class:`RequestError` ``out_of_range``
    naming ``name`` and the bounds (``details`` go into the error's details)."""
    if not low <= value <= high:
        raise RequestError(
            f"{name} {value} is out of range: {low} to {high}", code="out_of_range", **details
        )
    return value
