"""Reader for Tenhou's scored wins (``../shared/data/tenhou-hands/hands.jsonl``).

Each record becomes a CONTRACT.md score request (``to_request``) and an expected result
(``expected``) in Agari's terms, so the corpus is both an oracle and a benchmark. Ron
records on one discard are grouped (``settle_groups``) so that multiple ron goes through
``settle`` like at a real table. Seats: a record's ``who``/``from_who``/``pao_who`` and
``score_deltas`` are absolute seats; Agari uses seat winds, ``(seat - dealer) % 4``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.notation import format_tiles, parse_tenhou_136
from scoring.points import LIMITS
from scoring.tiles import WIND_LETTERS

#: Tenhou's yaku numbers (0-54) as Agari's yaku ids.
TENHOU_YAKU: tuple[str, ...] = (
    "menzen_tsumo",
    "riichi",
    "ippatsu",
    "chankan",
    "rinshan",
    "haitei",
    "houtei",
    "pinfu",
    "tanyao",
    "iipeikou",
    "seat_wind_east",
    "seat_wind_south",
    "seat_wind_west",
    "seat_wind_north",
    "round_wind_east",
    "round_wind_south",
    "round_wind_west",
    "round_wind_north",
    "haku",
    "hatsu",
    "chun",
    "double_riichi",
    "chiitoitsu",
    "chanta",
    "ittsu",
    "sanshoku_doujun",
    "sanshoku_doukou",
    "sankantsu",
    "toitoi",
    "sanankou",
    "shousangen",
    "honroutou",
    "ryanpeikou",
    "junchan",
    "honitsu",
    "chinitsu",
    "renhou",
    "tenhou",
    "chiihou",
    "daisangen",
    "suuankou",
    "suuankou_tanki",
    "tsuuiisou",
    "ryuuiisou",
    "chinroutou",
    "chuuren_poutou",
    "junsei_chuuren_poutou",
    "kokushi",
    "kokushi_13_wait",
    "daisuushii",
    "shousuushii",
    "suukantsu",
    "dora",
    "ura_dora",
    "aka_dora",
)

_DIRECTION = {1: "right", 2: "across", 3: "left"}


@dataclass(frozen=True, slots=True)
class Expected:
    """What Tenhou paid: han (None for yakuman), fu, limit, yaku with han > 0, deltas."""

    han: int | None
    fu: int
    limit: str | None
    yaku: frozenset[tuple[str, int]]
    deltas: dict[str, int]


def load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def seat_of(rec: dict[str, Any], absolute: int) -> str:
    return WIND_LETTERS[(absolute - rec["dealer"]) % 4]


def to_request(rec: dict[str, Any]) -> dict[str, Any]:
    """The CONTRACT.md score request of one record (table fields included)."""
    red = bool(rec["rules"]["aka_dora"])
    hand = list(rec["hand_136"])
    hand.remove(rec["win_tile_136"])
    melds = []
    for m in rec["melds"]:
        meld: dict[str, Any] = {
            "kind": m["type"],
            "tiles": format_tiles(parse_tenhou_136(m["tiles"], red=red)),
        }
        if m["type"] != "ankan":
            meld["from"] = _DIRECTION[(m["from_who"] - rec["who"]) % 4]
        melds.append(meld)
    flags = [f for f, on in rec["flags"].items() if on]
    req: dict[str, Any] = {
        "ruleset": "tenhou" if red else {"base": "tenhou", "overrides": {"red_fives": {}}},
        "closed": format_tiles(parse_tenhou_136(hand, red=red)),
        "win_tile": format_tiles(parse_tenhou_136([rec["win_tile_136"]], red=red)),
        "win": "tsumo" if rec["is_tsumo"] else "ron",
        "melds": melds,
        "round_wind": WIND_LETTERS[rec["round_wind"]],
        "seat_wind": seat_of(rec, rec["who"]),
        "dora_indicators": [str(t) for t in parse_tenhou_136(rec["dora_indicators_136"], red=red)],
        "ura_indicators": [str(t) for t in parse_tenhou_136(rec["ura_indicators_136"], red=red)],
        "flags": flags,
        "honba": rec["honba"],
        "riichi_sticks": rec["riichi_sticks"],
        "pao": None if rec["pao_who"] is None else seat_of(rec, rec["pao_who"]),
    }
    if not rec["is_tsumo"]:
        req["discarder"] = seat_of(rec, rec["from_who"])
    return req


def expected(rec: dict[str, Any]) -> Expected:
    e = rec["expected"]
    if e["yakuman"]:
        yaku = frozenset((TENHOU_YAKU[y], 13) for y in e["yakuman"])
    else:
        yaku = frozenset((TENHOU_YAKU[y], h) for y, h in e["yaku"] if h > 0)
    deltas = {seat_of(rec, s): d for s, d in enumerate(e["score_deltas"])}
    limit = LIMITS[e["limit"] - 1] if e["limit"] else None
    return Expected(e["han"], e["fu"], limit, yaku, deltas)


def settle_groups(records: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Records in groups that one ``settle`` pays: the rons on one discard, or a tsumo."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for i, rec in enumerate(records):
        if rec["is_tsumo"]:
            key: tuple[Any, ...] = ("tsumo", i)
        else:
            key = (
                rec["source"],
                rec["log_id"],
                rec["file"],
                tuple(rec["kyoku_seed"]),
                rec["round_index"],
                rec["honba"],
                rec["from_who"],
            )
        groups.setdefault(key, []).append(rec)
    yield from groups.values()


def settle_request(group: list[dict[str, Any]]) -> dict[str, Any]:
    """One CONTRACT.md settle request for a group of records (table fields from ron_order 0)."""
    first = min(group, key=lambda r: r["ron_order"])
    table = {
        k: v
        for k, v in to_request(first).items()
        if k in ("ruleset", "honba", "riichi_sticks", "discarder")
    }
    wins = []
    for rec in group:
        w = to_request(rec)
        for k in ("ruleset", "honba", "riichi_sticks", "discarder"):
            w.pop(k, None)
        wins.append(w)
    return table | {"wins": wins}


def mismatches(rec: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """How a score response differs from Tenhou's record (empty when it agrees)."""
    exp = expected(rec)
    out: list[str] = []
    if "error" in got:
        return [f"error {got['error']['code']}: {got['error']['message']}"]
    yaku = frozenset((y["id"], y["han"]) for y in got["yaku"] if y["han"] > 0)
    if yaku != exp.yaku:
        out.append(f"yaku {sorted(yaku)} != {sorted(exp.yaku)}")
    if exp.han is not None and got["han"] != exp.han:
        out.append(f"han {got['han']} != {exp.han}")
    if got["fu"] != exp.fu:
        out.append(f"fu {got['fu']} != {exp.fu}")
    if got["limit"] != exp.limit:
        out.append(f"limit {got['limit']} != {exp.limit}")
    if got["points"] != rec["expected"]["points"]:
        out.append(f"points {got['points']} != {rec['expected']['points']}")
    if got["deltas"] != exp.deltas:
        out.append(f"deltas {got['deltas']} != {exp.deltas}")
    # Tenhou's records show every indicator on the table: a real win never lacks one.
    missing = [w["message"] for w in got.get("warnings", ()) if w["code"] == "kan_dora_missing"]
    out.extend(f"kan_dora_missing: {m}" for m in missing)
    return out


def check_all(records: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[str]]]:
    """``(record, mismatches)`` for every record, each discard's wins settled together."""
    from scoring import api
    from scoring.errors import AgariError

    out: list[tuple[dict[str, Any], list[str]]] = []
    for group in settle_groups(records):
        try:
            res = api.settle(settle_request(group))
        except AgariError as exc:
            out.extend((rec, [f"error {exc.code}: {exc.message}"]) for rec in group)
            continue
        by_seat = {r["seat"]: r for r in res["results"]}
        for rec in group:
            got = by_seat.get(seat_of(rec, rec["who"]))
            if got is None:
                out.append((rec, ["not paid by settle"]))
            else:
                out.append((rec, mismatches(rec, got)))
    return out


__all__ = [
    "TENHOU_YAKU",
    "Expected",
    "check_all",
    "expected",
    "load",
    "mismatches",
    "seat_of",
    "settle_groups",
    "settle_request",
    "to_request",
]
