"""Readable text for a score response (``agari score`` without ``--json``).

>>> print(explain({"han": 1, "fu": 30, "limit": None, "yakuman": 0,
...     "yaku": [{"id": "riichi", "han": 1}], "fu_details": [{"fu": 20, "reason": "base"},
...     {"fu": 10, "reason": "menzen_ron"}], "points": 1000, "announce": "1000",
...     "deltas": {"E": 0, "S": 1000, "W": -1000, "N": 0}, "alternatives": [],
...     "warnings": [], "reading": "seven pairs"}))
1 han 30 fu: 1000
  riichi                  1 han
  fu: base 20 + menzen_ron 10 = 30
  reading: seven pairs
  deltas: E 0, S +1000, W -1000, N 0
"""

from __future__ import annotations

from typing import Any


def explain(res: dict[str, Any]) -> str:
    """A few lines: value and announcement, yaku, fu items, reading, deltas, warnings."""
    if "error" in res:
        return f"error [{res['error']['code']}]: {res['error']['message']}"
    if res.get("scoring") == "zung_jung":  # patterns and points, no han or fu
        from scoring.zungjung.explain import explain_zj

        return explain_zj(res)
    if res["yakuman"]:
        head = f"{res['yakuman']}x yakuman"
    else:
        head = f"{res['han']} han {res['fu']} fu"
        if res["limit"]:
            head += f" ({res['limit']})"
    lines = [f"{head}: {res['announce']}"]
    for y in res["yaku"]:
        # A yakuman's han (13 a unit) is the engine's bookkeeping; a player says "yakuman".
        value = (
            f"{'double ' if y['han'] >= 26 else ''}yakuman"
            if res["yakuman"] and y["han"] >= 13
            else f"{y['han']:>2} han"
        )
        lines.append(f"  {y['id']:<22} {value}")
    if res["fu_details"]:
        parts = " + ".join(
            f"{d['reason']}{' ' + d['tiles'] if 'tiles' in d else ''} {d['fu']}"
            for d in res["fu_details"]
        )
        lines.append(f"  fu: {parts} = {res['fu']}")
    return "\n".join(lines + tail_lines(res))


def tail_lines(res: dict[str, Any]) -> list[str]:
    """The lines every scorer's text ends with: reading, deltas, other readings, warnings."""
    lines = [f"  reading: {res['reading']}"] if res.get("reading") else []
    lines.append(
        "  deltas: " + ", ".join(f"{s} {d:+d}" if d else f"{s} 0" for s, d in res["deltas"].items())
    )
    lines += [f"  not chosen: {alt['reading']} ({alt['why']})" for alt in res["alternatives"]]
    lines += [f"  warning: {w['message']}" for w in res["warnings"]]
    return lines


__all__ = ["explain", "tail_lines"]
