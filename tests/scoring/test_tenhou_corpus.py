"""The tenhou ruleset reproduces 5,339 real Tenhou wins exactly (han, fu, limit, yaku,
points and every seat's delta, multiple ron and pao included), through ``settle``."""

from __future__ import annotations

from scoring.tenhou_corpus import check_all, load
from tests.conftest import shared_path


def test_every_tenhou_hand_agrees() -> None:
    path = shared_path("data", "tenhou-hands", "hands.jsonl")
    records = load(path)
    results = check_all(records)
    assert len(results) == len(records) == 5339
    bad = [(r["log_id"], r["round_index"], m) for r, m in results if m]
    assert bad == []
    # The corpus really exercises the hard cases.
    assert sum(r["ron_order"] > 0 for r in records) == 52
    assert sum(r["pao_who"] is not None for r in records) == 2
