"""What-if scoring: for each uncertain tile, the hand's score under each candidate class."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from scoring.errors import AgariError
from vision.grouping import settings
from vision.grouping.group import group_detections
from vision.grouping.memo import sharing
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
    row = {k: response.get(k) for k in ("han", "fu", "limit", "yakuman", "points")}
    if "value" in response:  # a Zung Jung hand's value V (points: what is paid)
        row["value"] = response["value"]
    return row


def red_fives_of(context: dict[str, Any]) -> dict[str, int]:
    """The red fives per suit of the rules ``context`` names (the usual rules' when none)."""
    from scoring import api as scoring_api

    spec = context.get("ruleset", settings.DEFAULT_CONTEXT["ruleset"])
    return dict(scoring_api.ruleset_summary(spec)["red_fives"])


def _suit(tiles: str) -> str:
    return next((c for c in reversed(tiles) if c in "mps"), "")


def plain_hidden_fives(
    hand: dict[str, Any] | None, red_fives: dict[str, int]
) -> dict[str, Any] | None:
    """The hand with each closed kan's red five read plain where the rules have no red five
    of its suit: :func:`vision.grouping.melds._hidden_red_fives` reads the face-down five
    red on the usual rules, but under rules without red fives the four fives are plain."""
    if hand is None:
        return None
    melds = [
        {**m, "tiles": m["tiles"].replace("0", "5")}
        if m["kind"] == "ankan" and "0" in m["tiles"] and not red_fives.get(_suit(m["tiles"]))
        else m
        for m in hand["melds"]
    ]
    return {**hand, "melds": melds}


def follow_red_fives(out: dict[str, Any], red_fives: dict[str, int]) -> dict[str, Any]:
    """A ``group`` response read under rules with ``red_fives``: the hand and every
    alternative with plain hidden fives where the suit has none, and no
    ``face_down_red_five`` warning for such a suit (there is no red five to doubt)."""
    if all(red_fives.get(suit) for suit in "mps"):
        return out
    warnings = [
        w
        for w in out["warnings"]
        if w["code"] != "face_down_red_five"
        or red_fives.get(_suit("".join(t for t in w["tiles"] if t != settings.FACE_DOWN)))
    ]
    alternatives = [
        {**alt, "hand": plain_hidden_fives(alt["hand"], red_fives)} for alt in out["alternatives"]
    ]
    return {
        **out,
        "hand": plain_hidden_fives(out["hand"], red_fives),
        "warnings": warnings,
        "alternatives": alternatives,
    }


#: The most unsure tiles whose candidates are scored (a hand of 18 tiles with 10 indicators).
MAX_UNSURE = 28


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
    # Each candidate groups the same boxes again, one class changed: the steps reuse what
    # they measured on the boxes (vision.grouping.memo) across all of them.
    with sharing():
        return _what_if(detections, result, width=width, height=height, context=context)


def _what_if(
    detections: Sequence[Detection],
    result: GroupingResult,
    *,
    width: float,
    height: float,
    context: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    ctx = dict(settings.DEFAULT_CONTEXT if context is None else context)
    red_fives = red_fives_of(ctx)
    out: list[dict[str, Any]] = []
    unsure = [w for w in result.warnings if w.code == "low_confidence" and w.detections]
    # A hand and its indicators are at most 28 tiles: more unsure tiles than that are no
    # hand's (a crafted request), and each would cost a grouping per candidate.
    for w in unsure[:MAX_UNSURE]:
        i = w.detections[0]
        rows = []
        for cand in dict(w.extra)["candidates"]:
            if cand == detections[i].tile:
                hand = result.hand()  # the reading already made: no need to group again
            else:
                changed = list(detections)
                changed[i] = replace(detections[i], tile=cand, confidence=1.0, candidates=())
                hand = group_detections(changed, width=width, height=height).hand()
            hand = plain_hidden_fives(hand, red_fives)
            outcome = _score_outcome(hand, ctx)
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
