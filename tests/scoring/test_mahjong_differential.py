"""Agari against the ``mahjong`` package (1.4.0, dev only) on random valid hands.

A few thousand hands here (about 15 s); the full 100,000-hand run is
``benchmarks/mahjong_differential.py``, its output recorded in ``benchmarks/RESULTS.md``.
Every disagreement must be a documented one (``mahjong_oracle.KNOWN``), each with a test
here that shows it on a fixed hand.
"""

from __future__ import annotations

import collections
import random

import pytest

pytest.importorskip("mahjong", reason="the mahjong package is a dev dependency")

from tests.scoring.mahjong_oracle import compare, random_case

HANDS = 1500


@pytest.mark.slow
def test_random_hands_agree_with_mahjong() -> None:
    rng = random.Random(20261129)
    outcomes: collections.Counter[str] = collections.Counter()
    seen: collections.Counter[str] = collections.Counter()
    unexplained = []
    for _ in range(HANDS):
        case = random_case(rng)
        ours, theirs, why = compare(case)
        outcomes[why or ("scored" if ours.ok else "rejected")] += 1
        seen.update(y for y, _ in ours.yaku)
        if why == "UNEXPLAINED":
            unexplained.append((case.request, ours, theirs))
    assert unexplained[:3] == []
    # The check has teeth: most hands are scored by both, across many yaku and yakuman.
    assert outcomes["scored"] > HANDS * 0.7
    assert len(seen) >= 35
    assert {"pinfu", "chiitoitsu", "kokushi", "suuankou", "chinitsu"} <= set(seen)


def test_oracle_notices_a_difference() -> None:
    # Guard against a comparison that cannot fail: a wrong fu must be reported.
    case = random_case(random.Random(5))
    ours, theirs, _ = compare(case)
    from dataclasses import replace

    assert replace(ours, fu=ours.fu + 10) != theirs


def test_known_yakuman_pinfu_shape_fu() -> None:
    # Chiihou on 456m 789m 123p 56p+7p with the pair 88m: a pinfu shape won by tsumo.
    # Agari: pinfu is not a yaku of a yakuman hand, so 20 + tsumo 2 -> 30 fu; mahjong: 20.
    # The yakuman pays the same either way (8000-16000).
    from tests.scoring.riichi_builders import score

    res = score("45678889m12356p", "7p", "tsumo", flags=("chiihou",))
    assert (res["fu"], res["points"], res["yakuman"]) == (30, 32000, 1)
    assert [d["reason"] for d in res["fu_details"]] == ["base", "tsumo", "rounding"]
