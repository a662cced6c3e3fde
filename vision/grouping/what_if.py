"""What-if scoring: for each uncertain tile, the hand's score under each candidate class."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from scoring.errors import AgariError
from vision.grouping import settings
from vision.grouping.group import group_detections
from vision.grouping.values import Detection, GroupingResult


def _score_outcome(hand: dict[str, Any] | None, context: dict[str, Any]) -> dict[str, Any]:
    if hand is None:
        return {"error": {"code": "not_a_hand", "message": "the tiles do not form a hand"}}
    from scoring import api as scoring_api

    try:
        response = scoring_api.score({**context, **hand})
    except AgariError as exc:
        return {"error": {"code": exc.code, "message": exc.message}}
    except ModuleNotFoundError as exc:  # the scoring engine is being written in parallel
        if not (exc.name or "").startswith("scoring"):
            raise
        return {"error": {"code": "not_implemented", "message": str(exc)}}
    return {k: response.get(k) for k in ("han", "fu", "limit", "yakuman", "points")}


def _hidden_red_kan(hand: dict[str, Any] | None) -> bool:
    """Whether a closed kan of the hand holds a red five
    (:func:`vision.grouping.melds._hidden_red_fives`)."""
    return hand is not None and any(
        m["kind"] == "ankan" and "0" in m["tiles"] for m in hand["melds"]
    )


def _scored(
    hand: dict[str, Any] | None, context: dict[str, Any]
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The hand and its score under ``context``. When those rules have no red fives, a
    closed kan's red five (read face down by :func:`vision.grouping.melds._hidden_red_fives`,
    on the usual rules) is a plain five: the hand is read so, and scored again."""
    outcome = _score_outcome(hand, context)
    code = outcome.get("error", {}).get("code")
    if hand is not None and code == "red_five_not_in_ruleset" and _hidden_red_kan(hand):
        melds = [
            {**m, "tiles": m["tiles"].replace("0", "5")} if m["kind"] == "ankan" else m
            for m in hand["melds"]
        ]
        hand = {**hand, "melds": melds}
        outcome = _score_outcome(hand, context)
    return hand, outcome


def what_if(
    detections: Sequence[Detection],
    result: GroupingResult,
    *,
    width: float,
    height: float,
    context: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """For each uncertain tile, the hand's score under each candidate class.

    ``changes_payout`` is True when candidates score differently, False when they agree,
    and None when scoring was unavailable for every candidate (then ask anyway).
    """
    ctx = dict(settings.DEFAULT_CONTEXT if context is None else context)
    out: list[dict[str, Any]] = []
    for w in result.warnings:
        if w.code != "low_confidence" or not w.detections:
            continue
        i = w.detections[0]
        rows = []
        for cand in dict(w.extra)["candidates"]:
            if cand == detections[i].tile:
                hand = result.hand()  # the reading already made: no need to group again
            else:
                changed = list(detections)
                changed[i] = replace(detections[i], tile=cand, confidence=1.0, candidates=())
                hand = group_detections(changed, width=width, height=height).hand()
            hand, outcome = _scored(hand, ctx)
            rows.append({"tile": cand, "hand": hand, **outcome})
        outcomes = {
            repr(r["error"]["code"]) if "error" in r else repr(r.get("points")) for r in rows
        }
        unavailable = all("error" in r and r["error"]["code"] == "not_implemented" for r in rows)
        out.append(
            {
                "detection": i,
                "tile": detections[i].tile,
                "candidates": rows,
                "changes_payout": None if unavailable else len(outcomes) > 1,
            }
        )
    return out
