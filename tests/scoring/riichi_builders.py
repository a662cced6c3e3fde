"""Builders for riichi scoring tests: requests from notation strings, terse results."""

from __future__ import annotations

from typing import Any

from scoring import api

SEATS = "ESWN"


def request(
    closed: str,
    win_tile: str,
    win: str = "ron",
    *,
    melds: tuple[tuple[str, str, str | None], ...] = (),
    seat: str = "S",
    round_wind: str = "E",
    discarder: str | None = None,
    flags: tuple[str, ...] = (),
    dora: tuple[str, ...] = (),
    ura: tuple[str, ...] = (),
    honba: int = 0,
    sticks: int = 0,
    pao: str | None = None,
    ruleset: Any = "tenhou",
) -> dict[str, Any]:
    """A CONTRACT.md score request; a ron's discarder defaults to the winner's right."""
    req: dict[str, Any] = {
        "ruleset": ruleset,
        "closed": closed,
        "win_tile": win_tile,
        "win": win,
        "melds": [
            {"kind": k, "tiles": t} | ({} if f is None else {"from": f}) for k, t, f in melds
        ],
        "round_wind": round_wind,
        "seat_wind": seat,
        "dora_indicators": list(dora),
        "ura_indicators": list(ura),
        "flags": list(flags),
        "honba": honba,
        "riichi_sticks": sticks,
        "pao": pao,
    }
    if win == "ron":
        req["discarder"] = discarder or SEATS[(SEATS.index(seat) + 1) % 4]
    return req


def score(closed: str, win_tile: str, win: str = "ron", **kw: Any) -> dict[str, Any]:
    return api.score(request(closed, win_tile, win, **kw))


def yaku_of(res: dict[str, Any]) -> dict[str, int]:
    return {y["id"]: y["han"] for y in res["yaku"]}
