"""Readable text for a Zung Jung score response (``agari score`` without ``--json``).

>>> print(explain_zj({"points": 255, "value": 85, "limit": None, "raw_points": 85,
...     "pattern_table": "v3.3", "announce": "85 each",
...     "yaku": [{"id": "mixed_one_suit", "name": "Mixed One-Suit", "value": 40,
...     "number": "2.1.1"}, {"id": "value_honor", "name": "Value Honor",
...     "value": 10, "number": "3.1", "tile": "7z"}], "reading": "[222m] 555m* 888m* [777z] 3m3m",
...     "deltas": {"E": -85, "S": 255, "W": -85, "N": -85}, "alternatives": [],
...     "warnings": []}))
85 points (Zung Jung, v3.3 table): 85 each
  2.1.1  Mixed One-Suit                  40
  3.1    Value Honor 7z                  10
  reading: [222m] 555m* 888m* [777z] 3m3m
  deltas: E -85, S +255, W -85, N -85
"""

from __future__ import annotations

from typing import Any

from scoring.explain import tail_lines


def explain_zj(res: dict[str, Any]) -> str:
    """A few lines: value and payments, patterns with their numbers, reading, deltas."""
    # The hand value V, as announced ("points" is what is paid, CONTRACT.md).
    head = f"{res['value']} points (Zung Jung, {res['pattern_table']} table)"
    if res["limit"]:
        head += f", {res['limit'].replace('_', ' ')} (sum {res['raw_points']})"
    lines = [f"{head}: {res['announce']}"]
    for y in res["yaku"]:
        name = y["name"] + (f" {y['tile']}" if "tile" in y else "")
        lines.append(f"  {y['number'] or '-':<6} {name:<30} {y['value']:>3}")
    return "\n".join(lines + tail_lines(res))


__all__ = ["explain_zj"]
