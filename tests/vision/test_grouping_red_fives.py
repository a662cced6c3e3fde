"""Grouping: a closed kan of fives holds its suit's red five face down (the usual rules)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import AgariError
from tests.vision.grouping_layout import lay_out, to_detections
from vision.api import group
from vision.grouping.what_if import follow_red_fives

FIVES = [{"kind": "ankan", "tiles": ["5m"] * 4}]


def _group(concealed: list[str], win: str, **extra: Any) -> dict[str, Any]:
    placed = lay_out(concealed, win, FIVES)
    return group({"width": 1200, "height": 1000, "detections": to_detections(placed), **extra})


def _ankan(out: dict[str, Any]) -> str:
    return next(m["tiles"] for m in out["hand"]["melds"] if m["kind"] == "ankan")


def test_hidden_red_five_is_read_and_named() -> None:
    out = _group(["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z")
    assert _ankan(out) == "0555m"
    assert "face_down_red_five" in [w["code"] for w in out["warnings"]]


def test_red_five_shown_elsewhere_leaves_the_kan_plain() -> None:
    out = _group(["0m", "6m", "7m", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z")
    assert out["hand"]["closed"] == "067m789s1122z"
    assert _ankan(out) == "5555m"


def test_rules_without_red_fives_read_the_kan_plain() -> None:
    context = {"ruleset": "ema", "win": "tsumo", "round_wind": "E", "seat_wind": "S"}
    out = _group(
        ["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z", context=context
    )
    assert _ankan(out) == "5555m"


def test_rules_without_red_fives_score_the_uncertain_tiles_with_the_kan_plain() -> None:
    # The what-if scores of an uncertain tile read the kan as the hand does: under rules
    # without red fives, plain (not refused as `red_five_not_in_ruleset`).
    context = {"ruleset": "ema", "win": "tsumo", "round_wind": "E", "seat_wind": "S"}
    placed = lay_out(["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z", FIVES)
    dets = to_detections(placed)
    first = next(k for k, d in enumerate(dets) if d["tile"] == "1p")
    dets[first]["confidence"] = 0.41
    dets[first]["candidates"] = [{"tile": "4p", "confidence": 0.3}]
    out = group({"width": 1200, "height": 1000, "detections": dets, "context": context})
    (entry,) = out["uncertain"]
    assert [c["tile"] for c in entry["candidates"]] == ["1p", "4p"]
    for cand in entry["candidates"]:
        kan = next(m["tiles"] for m in cand["hand"]["melds"] if m["kind"] == "ankan")
        assert kan == "5555m"
        assert cand.get("error", {}).get("code") != "red_five_not_in_ruleset"


@pytest.mark.parametrize(
    ("context", "code"),
    [
        ({"ruleset": "no-such-rules"}, "unknown_ruleset"),
        ({"ruleset": {"base": "ema", "overrides": {"red_fives": "none"}}}, "bad_ruleset_value"),
        (["ema"], "bad_request"),
    ],
)
def test_a_context_with_a_bad_ruleset_is_refused(context: object, code: str) -> None:
    # Not absorbed into every candidate's what-if score as the same error.
    with pytest.raises(AgariError) as info:
        _group(["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z", context=context)
    assert info.value.code == code


def test_overrides_without_red_fives_read_the_kan_plain() -> None:
    rules = {"base": "tenhou", "overrides": {"red_fives": {"m": 0, "p": 0, "s": 0}}}
    context = {"ruleset": rules, "win": "tsumo", "round_wind": "E", "seat_wind": "S"}
    out = _group(
        ["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z", context=context
    )
    assert _ankan(out) == "5555m"


def test_rules_without_red_fives_raise_no_red_five_doubt() -> None:
    # Under EMA there is no red five to hold face down: the kan's doubt is gone with it.
    context = {"ruleset": "ema", "win": "tsumo", "round_wind": "E", "seat_wind": "S"}
    out = _group(
        ["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z", context=context
    )
    assert "face_down_red_five" not in [w["code"] for w in out["warnings"]]


@pytest.mark.parametrize(
    ("red_fives", "kan", "doubt"),
    [
        ({"m": 0, "p": 0, "s": 0}, "5555m", False),
        ({"m": 0, "p": 1, "s": 1}, "5555m", False),  # only the kan's own suit matters
        ({"m": 1, "p": 0, "s": 0}, "0555m", True),
    ],
)
def test_the_hand_and_its_alternatives_follow_the_suits_red_fives(
    red_fives: dict[str, int], kan: str, doubt: bool
) -> None:
    # A page that keeps an alternative grouping (a gap read the other way) must not get a
    # red five the rules lack when the user picks it.
    out = _group(["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"], "2z")
    out["alternatives"] = [{"hand_tiles": out["hand_tiles"], "hand": out["hand"], "penalty": 1.0}]
    followed = follow_red_fives(out, red_fives)
    assert _ankan(followed) == kan
    assert _ankan(followed["alternatives"][0]) == kan
    assert ("face_down_red_five" in [w["code"] for w in followed["warnings"]]) is doubt
    assert _ankan(out) == "0555m"  # the response given is left as it was


@pytest.mark.parametrize(
    "concealed",
    [
        ["0m", "6m", "7m", "7s", "8s", "9s", "1z", "1z", "2z", "2z"],  # the red five shows
        ["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"],
    ],
)
def test_the_red_five_doubt_is_raised_only_where_a_red_five_is_read(concealed: list[str]) -> None:
    # The warning says a face-down tile is read as the red five: a kan left plain because
    # the red five shows elsewhere must not carry it.
    out = _group(concealed, "2z")
    read_red = "0" in _ankan(out)
    assert ("face_down_red_five" in [w["code"] for w in out["warnings"]]) is read_red
