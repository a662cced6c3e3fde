"""Speed: hands scored per second on the Tenhou corpus, Agari beside ``mahjong`` (1.4.0).

Both score the same 5,339 real hands in one process; passes alternate (Agari, Agari API,
mahjong, then again) so that a busy shared machine slows all of them alike, each pass timed
with ``time.perf_counter``, and the best of ``--repeat`` passes is reported. Inputs are
built before timing for both libraries (Agari: parsed ``ScoreRequest`` values; mahjong:
136-id lists, ``Meld`` objects and a ``HandConfig``), then frozen out of the garbage
collector's way (``gc.freeze``) for both. Agari's division caches are cleared before every
pass, so no pass profits from an earlier one (mahjong's divider cache is off by default).
Also timed: Agari's whole JSON path (``scoring.api.score``: dict in, validation, dict out
with alternatives).

    .venv/bin/python benchmarks/bench_scoring.py [PATH] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scoring import api
from scoring.divide import _suit_sets, divide
from scoring.request import parse_score_request
from scoring.scorer import score_request
from scoring.tenhou_corpus import load, to_request

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "tenhou-hands" / "hands.jsonl"


def mahjong_inputs(rec: dict[str, Any]) -> tuple[Any, ...]:
    """The same hand for ``mahjong.HandCalculator.estimate_hand_value``."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld

    kinds = {"chi": Meld.CHI, "pon": Meld.PON, "kakan": Meld.SHOUMINKAN}
    melds = [
        Meld(kinds.get(m["type"], Meld.KAN), m["tiles"], m["type"] != "ankan") for m in rec["melds"]
    ]
    tiles = list(rec["hand_136"]) + [t for m in rec["melds"] for t in m["tiles"]]
    f = rec["flags"]
    config = HandConfig(
        is_tsumo=rec["is_tsumo"],
        is_riichi=f["riichi"],
        is_daburu_riichi=f["double_riichi"],
        is_ippatsu=f["ippatsu"],
        is_rinshan=f["rinshan"],
        is_chankan=f["chankan"],
        is_haitei=f["haitei"],
        is_houtei=f["houtei"],
        is_tenhou=f["tenhou"],
        is_chiihou=f["chiihou"],
        player_wind=EAST + rec["seat_wind"],
        round_wind=EAST + rec["round_wind"],
        options=OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=rec["rules"]["aka_dora"],
            has_double_yakuman=False,
            kazoe_limit=HandConstants.KAZOE_LIMITED,
        ),
    )
    dora = list(rec["dora_indicators_136"]) + list(rec["ura_indicators_136"])
    return tiles, rec["win_tile_136"], melds, dora, config


def timed(fn: Callable[[], None]) -> float:
    divide.cache_clear()
    _suit_sets.cache_clear()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    if not args.path.exists():
        print(f"corpus not found: {args.path}", file=sys.stderr)
        return 2
    records = load(args.path)
    dicts = [to_request(r) for r in records]
    reqs = [parse_score_request(d) for d in dicts]
    n = len(reqs)

    def agari_core() -> None:
        for r in reqs:
            score_request(r, alternatives=False)

    def agari_api() -> None:
        for d in dicts:
            api.score(d)

    try:
        from mahjong.hand_calculating.hand import HandCalculator
    except ImportError:
        print("mahjong package not installed: pip install -e '.[dev]'")
        return 2
    calc = HandCalculator()
    inputs = [mahjong_inputs(r) for r in records]

    def mahjong_run() -> None:
        for tiles, win, melds, dora, config in inputs:
            calc.estimate_hand_value(tiles, win, melds, dora, config)

    gc.collect()
    gc.freeze()
    runs = {"agari": agari_core, "agari_api": agari_api, "mahjong": mahjong_run}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(args.repeat):
        for name, fn in runs.items():
            best[name] = min(best[name], timed(fn))
    rate = {name: n / t for name, t in best.items()}
    print(f"hands: {n}; python {platform.python_version()}; best of {args.repeat} passes")
    print(f"agari score_request (parsed input):   {rate['agari']:9.0f} hands/s")
    print(f"agari api.score (JSON dict in/out):   {rate['agari_api']:9.0f} hands/s")
    print(f"mahjong 1.4.0 estimate_hand_value:    {rate['mahjong']:9.0f} hands/s")
    print(
        f"ratio agari / mahjong: {rate['agari'] / rate['mahjong']:.1f}x "
        f"(JSON path: {rate['agari_api'] / rate['mahjong']:.1f}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
