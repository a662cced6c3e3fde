"""Writes the grouping fixtures ``tests/resources/grouping/*.json`` (run it to refresh them).

Each fixture is a ``group`` request (boxes from :mod:`tests.vision.grouping_layout`) and the
hand a referee reads from that layout, written out by hand below, not taken from the
grouping code. ``python -m tests.vision.grouping_fixtures`` rewrites the files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "resources" / "grouping"

CLOSED = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]


def _hand(closed: str, win: str, melds: list[dict[str, Any]] = (), dora=(), ura=()) -> dict:  # type: ignore[assignment]
    return {
        "closed": closed,
        "win_tile": win,
        "melds": list(melds),
        "dora_indicators": list(dora),
        "ura_indicators": list(ura),
    }


def _specs() -> dict[str, dict[str, Any]]:
    from tests.vision.grouping_layout import discards, side_river, wall

    open4 = ["4p", "5p", "6p", "2z"]
    s: dict[str, dict[str, Any]] = {}
    s["closed_gap_win"] = dict(
        about="closed hand, the winning tile set apart by a gap at the right end",
        layout=dict(concealed=CLOSED, win="2z"),
        hand=_hand("123m456p789s1122z", "2z"),
    )
    s["closed_sideways_win"] = dict(
        about="the winning tile laid sideways at the right end, touching the hand",
        layout=dict(concealed=CLOSED, win="2z", win_style="side", gap=0.0),
        hand=_hand("123m456p789s1122z", "2z"),
    )
    for src in ("left", "across", "right"):
        s[f"pon_{src}"] = dict(
            about=f"a pon whose called tile lies sideways at the {src} position",
            layout=dict(
                concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"],
                win="2z",
                melds=[{"kind": "pon", "tiles": ["5z"] * 3, "from": src}],
            ),
            hand=_hand("123m456p789s2z", "2z", [{"kind": "pon", "tiles": "555z", "from": src}]),
        )
    s["chi_left"] = dict(
        about="a chi: the called tile (4s) first and sideways; chi only comes from the left",
        layout=dict(
            concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"],
            win="2z",
            melds=[{"kind": "chi", "tiles": ["4s", "3s", "5s"], "from": "left"}],
        ),
        hand=_hand("123m456p789s2z", "2z", [{"kind": "chi", "tiles": "345s", "from": "left"}]),
    )
    for src, pos in (("left", 0), ("across", 1), ("across", 2), ("right", 3)):
        s[f"daiminkan_{src}_{pos + 1}"] = dict(
            about=f"a daiminkan with the called tile sideways at position {pos + 1}: {src}",
            layout=dict(
                concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"],
                win="2z",
                melds=[{"kind": "daiminkan", "tiles": ["9m"] * 4, "from": src, "across_pos": pos}],
            ),
            hand=_hand(
                "123m456p789s2z", "2z", [{"kind": "daiminkan", "tiles": "9999m", "from": src}]
            ),
        )
    s["kakan_across"] = dict(
        about="an added kan: a second sideways tile stacked on the called (middle) tile",
        layout=dict(
            concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"],
            win="2z",
            melds=[{"kind": "kakan", "tiles": ["7z"] * 4, "from": "across"}],
        ),
        hand=_hand("123m456p789s2z", "2z", [{"kind": "kakan", "tiles": "7777z", "from": "across"}]),
    )
    for ends in (True, False):
        name = "ankan_ends_down" if ends else "ankan_middle_down"
        s[name] = dict(
            about="a closed kan with its "
            + ("two end" if ends else "two middle")
            + " tiles face down",
            layout=dict(
                concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"],
                win="2z",
                melds=[{"kind": "ankan", "tiles": ["3z"] * 4, "ends": ends}],
            ),
            hand=_hand("123m456p789s2z", "2z", [{"kind": "ankan", "tiles": "3333z"}]),
        )
    three = [
        {"kind": "pon", "tiles": ["5z"] * 3, "from": "across"},
        {"kind": "kakan", "tiles": ["7z"] * 4, "from": "right"},
        {"kind": "chi", "tiles": ["3s", "2s", "4s"], "from": "left"},
    ]
    three_hand = [
        {"kind": "pon", "tiles": "555z", "from": "across"},
        {"kind": "kakan", "tiles": "7777z", "from": "right"},
        {"kind": "chi", "tiles": "234s", "from": "left"},
    ]
    base = dict(concealed=open4, win="2z", melds=three, win_style="side", dora=["1p"])
    s["three_melds_landscape"] = dict(
        about="three melds, sideways winning tile, a dora indicator above the hand",
        layout=base,
        hand=_hand("456p2z", "2z", three_hand, dora=["1p"]),
    )
    s["three_melds_portrait"] = dict(
        about="the same hand in a portrait photo (turned 90 degrees)",
        layout=base,
        camera=dict(angle=90),
        hand=_hand("456p2z", "2z", three_hand, dora=["1p"]),
    )
    s["three_melds_upside_down"] = dict(
        about="the same hand photographed from across the table (upside down)",
        layout=base,
        camera=dict(angle=180),
        hand=_hand("456p2z", "2z", three_hand, dora=["1p"]),
    )
    s["three_melds_tilted_perspective"] = dict(
        about="a tilted phone (20 degrees) with perspective: far tiles smaller, boxes widened",
        layout=base,
        camera=dict(angle=20, tilt=0.06),
        hand=_hand("456p2z", "2z", three_hand, dora=["1p"]),
    )
    s["portrait_other_way"] = dict(
        about="portrait the other way (270 degrees), win set apart by a gap, dora and ura",
        layout=dict(concealed=CLOSED, win="2z", dora=["3m", "9p"], ura=["4s", "6z"]),
        camera=dict(angle=270),
        hand=_hand("123m456p789s1122z", "2z", dora=["3m", "9p"], ura=["4s", "6z"]),
    )
    s["dora_and_ura"] = dict(
        about="a row of two dora indicators and a row of two ura indicators above it",
        layout=dict(concealed=CLOSED, win="2z", dora=["3m", "9p"], ura=["4s", "6z"]),
        hand=_hand("123m456p789s1122z", "2z", dora=["3m", "9p"], ura=["4s", "6z"]),
    )
    s["distractors"] = dict(
        about="discards in rows of six far above, a wall, another player's turned river",
        layout=dict(concealed=CLOSED, win="2z", dora=["3m"]),
        extras=[
            *discards(2.0, 9.0, ["1p", "9s", "4z", "6m", "8m", "3p", "5s", "7z", "2p"]),
            *wall(0.0, 12.0, 17),
            *side_river(16.0, 3.0, ["2s", "4m", "6p", "7p", "1s", "3s"]),
        ],
        hand=_hand("123m456p789s1122z", "2z", dora=["3m"]),
    )
    s["win_after_melds"] = dict(
        about="the winning tile set apart at the far right, after the melds",
        layout=dict(
            concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"],
            win=None,
            melds=[{"kind": "pon", "tiles": ["5z"] * 3, "from": "right"}],
        ),
        append_win="2z",
        hand=_hand("123m456p789s2z", "2z", [{"kind": "pon", "tiles": "555z", "from": "right"}]),
    )
    return s


def build(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    from tests.vision.grouping_layout import Placed, W, lay_out, to_detections

    placed = lay_out(**spec["layout"])
    if spec.get("append_win"):
        x = max(p.x + (H_SIDE if p.sideways else W) for p in placed if p.y == 0.0) + 0.6
        placed.append(Placed(spec["append_win"], x, 0.0, False, "win"))
    placed += spec.get("extras", [])
    dets = to_detections(placed, **spec.get("camera", {}))
    return {
        "about": spec["about"],
        "request": {"width": 1200, "height": 1000, "detections": dets},
        "expected": {"hand": spec["hand"], "warnings": spec.get("warnings", [])},
    }


H_SIDE = 1.0


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, spec in _specs().items():
        data = build(name, spec)
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {len(_specs())} fixtures to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
