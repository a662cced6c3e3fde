"""Builders for game-replay tests: the hand results of a ``replay_game`` request, tersely."""

from __future__ import annotations

from typing import Any


def ron(winner: str, frm: str, points: int, **kw: Any) -> dict[str, Any]:
    """A win off ``frm``'s discard, worth ``points`` before honba and sticks."""
    return {"result": "win", "winner": winner, "from": frm, "points": points, **kw}


def tsumo(winner: str, points: int | list[int], **kw: Any) -> dict[str, Any]:
    """A self-drawn win: one figure (each player pays it) or [non-dealer, dealer] payments."""
    return {"result": "win", "winner": winner, "points": points, **kw}


def draw(*tenpai: str, **kw: Any) -> dict[str, Any]:
    """An exhaustive draw with these seats tenpai."""
    return {"result": "draw", "tenpai": list(tenpai), **kw}
