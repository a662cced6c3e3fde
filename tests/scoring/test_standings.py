"""Final standings, one test per rule of the "game" table of RULESETS.md that settles a game
(start/return points, uma, ties, sticks left, points, chombo), named ruleset_rule.

Every expected figure is worked out in the comment beside it:
result = (score + sticks collected - return points) / 1000 + uma + oka - chombo.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.api import standings
from scoring.errors import RequestError, RulesetError
from scoring.ruleset import load_ruleset
from scoring.standings import final_standings


def results(ruleset: str, scores: dict[str, int], **kw: object) -> dict[str, float]:
    """Seat -> result, via the JSON interface (CONTRACT.md)."""
    out = standings({"ruleset": ruleset, "final_scores": scores, **kw})
    return {row["seat"]: row["result"] for row in out["standings"]}


def ranks(ruleset: str, scores: dict[str, int], **kw: object) -> dict[str, int]:
    out = standings({"ruleset": ruleset, "final_scores": scores, **kw})
    return {row["seat"]: row["rank"] for row in out["standings"]}


# --- JPML-A: uma by how many finish above 30000 (seed 001, lines 21-27) -----------------------


def test_jpml_a_contract_example() -> None:
    # CONTRACT.md's example. Two above 30000 -> +8/+4/-4/-8 (line 23).
    # E (41200-30000)/1000 + 8 = 19.2; S 1.0 + 4 = 5; W -8.7 - 4 - 20 (chombo) = -32.7;
    # N -24.5 - 8 = -32.5. The stick left goes to nobody (line 15).
    out = standings(
        {
            "ruleset": "jpml-a",
            "final_scores": {"E": 41200, "S": 31000, "W": 21300, "N": 5500},
            "riichi_sticks_left": 1,
            "chombo": {"W": 1},
        }
    )
    assert out["standings"][0] == {
        "seat": "E",
        "rank": 1,
        "score": 41200,
        "result": 19.2,
        "uma": 8,
        "oka": 0,
        "sticks": 0,
        "chombo": 0,
    }
    assert [r["result"] for r in out["standings"]] == [19.2, 5, -32.7, -32.5]
    # Those scores add up to 100000 + 1000, not 4 x 30000: flagged, not refused.
    assert out["warnings"][0]["code"] == "scores_do_not_add_up"


def test_jpml_a_uma_one_above_30000() -> None:
    # One above: +12/-1/-3/-8. E 15+12=27, S -2-1=-3, W -5-3=-8, N -8-8=-16.
    got = results("jpml-a", {"E": 45000, "S": 28000, "W": 25000, "N": 22000})
    assert got == {"E": 27, "S": -3, "W": -8, "N": -16}


def test_jpml_a_uma_two_above_30000() -> None:
    # Two above: +8/+4/-4/-8. E 10+8=18, S 2+4=6, W -2-4=-6, N -10-8=-18.
    got = results("jpml-a", {"E": 40000, "S": 32000, "W": 28000, "N": 20000})
    assert got == {"E": 18, "S": 6, "W": -6, "N": -18}


def test_jpml_a_uma_three_above_30000() -> None:
    # Three above: +8/+3/+1/-12. E 5+8=13, S 3+3=6, W 1+1=2, N -9-12=-21.
    got = results("jpml-a", {"E": 35000, "S": 33000, "W": 31000, "N": 21000})
    assert got == {"E": 13, "S": 6, "W": 2, "N": -21}


def test_jpml_a_uma_all_below_30000() -> None:
    # All four below (5 sticks left on the table, line 26): +8/+4/-4/-8, sticks to nobody.
    # E -0.5+8=7.5, S -1+4=3, W -1.5-4=-5.5, N -2-8=-10.
    got = results("jpml-a", {"E": 29500, "S": 29000, "W": 28500, "N": 28000}, riichi_sticks_left=5)
    assert got == {"E": 7.5, "S": 3, "W": -5.5, "N": -10}


def test_jpml_a_uma_all_exactly_30000_everyone_zero() -> None:
    # Line 26: all four finish on 30000 -> everyone writes 0.
    got = results("jpml-a", {"E": 30000, "S": 30000, "W": 30000, "N": 30000})
    assert got == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_jpml_a_exactly_30000_is_not_above() -> None:
    # "In plus" means above 30000: only E is, so +12/-1/-3/-8; S and W tie on 30000 and share
    # (-1-3)/2 = -2. E 10+12=22, S 0-2=-2, W -2, N -10-8=-18.
    got = results("jpml-a", {"E": 40000, "S": 30000, "W": 30000, "N": 20000})
    assert got == {"E": 22, "S": -2, "W": -2, "N": -18}


def test_jpml_a_ties_share_uma() -> None:
    # Line 27: tied places add their uma and share it. Two above: 8+4 shared -> 6 each.
    # E 5+6=11, S 11, W -4-4=-8, N -6-8=-14; E and S both rank 1.
    scores = {"E": 35000, "S": 35000, "W": 26000, "N": 24000}
    assert results("jpml-a", scores) == {"E": 11, "S": 11, "W": -8, "N": -14}
    assert ranks("jpml-a", scores) == {"E": 1, "S": 1, "W": 3, "N": 4}


def test_jpml_a_start_30000_return_30000_no_oka() -> None:
    g = load_ruleset("jpml-a").game
    assert (g.start_points, g.return_points, g.oka) == (30000, 30000, 0)


def test_jpml_a_points_100_is_0_1() -> None:
    # Line 21: 1000 = 1, 100 = 0.1. Two above: E 30100 -> 0.1 + 8 = 8.1; S 30100 -> 0.1+4 = 4.1;
    # W 29900 -> -0.1-4 = -4.1; N 29900 -> -0.1-8 = -8.1.
    got = results("jpml-a", {"E": 30100, "S": 30100, "W": 29900, "N": 29900})
    # E and S tie on 30100: shared (8+4)/2 = 6 -> 6.1; W and N share (-4-8)/2 = -6 -> -6.1.
    assert got == {"E": 6.1, "S": 6.1, "W": -6.1, "N": -6.1}


def test_jpml_a_sticks_left_to_nobody() -> None:
    # Line 15: E 45000 -> 15 + 12 (one above), the 2 sticks are not added.
    got = results("jpml-a", {"E": 45000, "S": 27000, "W": 24000, "N": 22000}, riichi_sticks_left=2)
    assert got["E"] == 27


def test_jpml_a_chombo_minus_20_after_uma() -> None:
    # Line 28: N -16 (see one-above case) - 20 = -36; others unchanged.
    got = results("jpml-a", {"E": 45000, "S": 28000, "W": 25000, "N": 22000}, chombo={"N": 1})
    assert got == {"E": 27, "S": -3, "W": -8, "N": -36}


# --- JPML-B (seed 000, lines 10-25) ----------------------------------------------------------


def test_jpml_b_uma_15_5() -> None:
    # Line 20: +15/+5/-5/-15. Start/return not stated: base 25000/30000, oka 20 to 1st.
    # E 10+15+20=45, S 0+5=5, W -10-5=-15, N -20-15=-35.
    got = results("jpml-b", {"E": 40000, "S": 30000, "W": 20000, "N": 10000})
    assert got == {"E": 45, "S": 5, "W": -15, "N": -35}


def test_jpml_b_tie_nearer_starting_dealer_ranks_higher() -> None:
    # Line 20: S and W tie on 30000: S is nearer the starting dealer E, so S ranks first;
    # order S, W, E, N (E and N tie on 20000, E is the dealer). S 0+15+20=35, W 0+5=5,
    # E -10-5=-15, N -10-15=-25.
    scores = {"E": 20000, "S": 30000, "W": 30000, "N": 20000}
    assert ranks("jpml-b", scores) == {"S": 1, "W": 2, "E": 3, "N": 4}
    assert results("jpml-b", scores) == {"S": 35, "W": 5, "E": -15, "N": -25}


def test_jpml_b_all_equal_dealer_then_turn_order() -> None:
    # Line 20: all equal -> E 1st, S 2nd, W 3rd, N 4th. E -5+15+20=30, S -5+5=0, W -10, N -20.
    scores = {"E": 25000, "S": 25000, "W": 25000, "N": 25000}
    assert ranks("jpml-b", scores) == {"E": 1, "S": 2, "W": 3, "N": 4}
    assert results("jpml-b", scores) == {"E": 30, "S": 0, "W": -10, "N": -20}


def test_jpml_b_sticks_left_to_nobody() -> None:
    # Line 12: E (40000-30000)/1000 + 15 + 20 = 45; the two sticks go to nobody.
    got = results("jpml-b", {"E": 40000, "S": 30000, "W": 19000, "N": 9000}, riichi_sticks_left=2)
    assert got["E"] == 45


def test_jpml_b_chombo_minus_20_several_add_up() -> None:
    # Lines 10, 25: two chombo -> -40. N: -35 - 40 = -75.
    got = results("jpml-b", {"E": 40000, "S": 30000, "W": 20000, "N": 10000}, chombo={"N": 2})
    assert got["N"] == -75


# --- M.League (seed 002, lines 19-26) --------------------------------------------------------


def test_m_league_uma_50_10_with_oka() -> None:
    # Lines 19-21: 25000/30000, 10-30 uma, with oka 1st +50. E 15+50=65, S 0+10=10,
    # W -15-10=-25, N -20-30=-50.
    got = results("m-league", {"E": 45000, "S": 30000, "W": 15000, "N": 10000})
    assert got == {"E": 65, "S": 10, "W": -25, "N": -50}


def test_m_league_start_25000_return_30000() -> None:
    g = load_ruleset("m-league").game
    assert (g.start_points, g.return_points, g.oka) == (25000, 30000, 20000)


def test_m_league_sticks_left_to_first() -> None:
    # Line 23: E 44000 + 1000 (the stick) = 45000 -> 15 + 50 = 65.
    got = results(
        "m-league", {"E": 44000, "S": 30000, "W": 15000, "N": 10000}, riichi_sticks_left=1
    )
    assert got["E"] == 65


def test_m_league_two_tied_split() -> None:
    # Line 22: E and S tie for 1st: (50+10)/2 = 30 each. E 5+30=35, S 35, W -10-10=-20,
    # N -20-30=-50.
    got = results("m-league", {"E": 35000, "S": 35000, "W": 20000, "N": 10000})
    assert got == {"E": 35, "S": 35, "W": -20, "N": -50}


def test_m_league_three_tied_split_433() -> None:
    # Line 22: S, W, N tie for 1st-3rd: 50+10-10 = 50 split 4:3:3, S (nearest the starting
    # dealer) takes 4 -> 20, W 15, N 15. E -20-30 = -50.
    got = results("m-league", {"E": 10000, "S": 30000, "W": 30000, "N": 30000})
    assert got == {"S": 20, "W": 15, "N": 15, "E": -50}


def test_m_league_tied_first_share_sticks() -> None:
    # Line 23: a tied 1st follows the tie rule: 2 tied split the stick, 500 each.
    # E (34500+500-30000)/1000 + 30 = 35.
    got = results(
        "m-league", {"E": 34500, "S": 34500, "W": 20000, "N": 10000}, riichi_sticks_left=1
    )
    assert got["E"] == 35 and got["S"] == 35


def test_m_league_chombo_minus_20_deliberate_times_3() -> None:
    # Line 26: W: -25 - 20 = -45; N (one deliberate): -50 - 60 = -110.
    got = results(
        "m-league",
        {"E": 45000, "S": 30000, "W": 15000, "N": 10000},
        chombo={"W": 1, "N": 1},
        deliberate_chombo={"N": 1},
    )
    assert got["W"] == -45 and got["N"] == -110


def test_m_league_points_1000_is_1() -> None:
    assert load_ruleset("m-league").game.points_per_unit == 1000


# --- Tenpane (seed 004): oka from 25000/30000 only, uma not stated ----------------------------


def test_tenpane_oka_only_no_uma() -> None:
    # Line 12: 25000/30000 -> oka 20 to 1st; uma not stated (base: none).
    # E 10+20=30, S 0, W -10, N -20.
    got = results("tenpane", {"E": 40000, "S": 30000, "W": 20000, "N": 10000})
    assert got == {"E": 30, "S": 0, "W": -10, "N": -20}


def test_tenpane_chombo_is_paid_in_play_not_at_the_end() -> None:
    out = standings(
        {
            "ruleset": "tenpane",
            "final_scores": {"E": 40000, "S": 30000, "W": 20000, "N": 10000},
            "chombo": {"N": 1},
        }
    )
    assert out["standings"][-1]["result"] == -20
    assert [w["code"] for w in out["warnings"]] == ["chombo_paid_in_play"]


# --- the function underneath, and bad input ---------------------------------------------------


def test_final_standings_are_exact_fractions() -> None:
    # jpml-a: four players on 29000 (none above) share 8+4-4-8 = 0; S and W tying on
    # 30000 share (-1-3)/2 = -2 exactly.
    rows = final_standings(load_ruleset("jpml-a"), {"E": 29000, "S": 29000, "W": 29000, "N": 29000})
    assert all(r.uma == 0 for r in rows)
    rows = final_standings(load_ruleset("jpml-a"), {"E": 40000, "S": 30000, "W": 30000, "N": 20000})
    assert {r.seat: r.uma for r in rows}["S"] == Fraction(-2)


@pytest.mark.parametrize(
    "request_, code",
    [
        ({"ruleset": "jpml-a", "final_scores": {"E": 1, "S": 2, "W": 3}}, "bad_request"),
        ({"ruleset": "jpml-a", "final_scores": {"E": 1, "S": 2, "W": 3, "N": "4"}}, "bad_request"),
        ({"ruleset": "nope", "final_scores": {"E": 1, "S": 2, "W": 3, "N": 4}}, "unknown_ruleset"),
        (
            {"ruleset": "jpml-a", "final_scores": {"E": 1, "S": 2, "W": 3, "N": 4}, "x": 1},
            "unknown_field",
        ),
        ({"final_scores": {"E": 1, "S": 2, "W": 3, "N": 4}}, "missing_field"),
        (
            {
                "ruleset": "m-league",
                "final_scores": {"E": 1, "S": 2, "W": 3, "N": 4},
                "chombo": {"E": 1},
                "deliberate_chombo": {"E": 2},
            },
            "bad_request",
        ),
        (
            {
                "ruleset": "m-league",
                "final_scores": {"E": 1, "S": 2, "W": 3, "N": 4},
                "riichi_sticks_left": -1,
            },
            "bad_request",
        ),
    ],
)
def test_bad_standings_requests(request_: dict[str, object], code: str) -> None:
    with pytest.raises((RequestError, RulesetError)) as err:
        standings(request_)
    assert err.value.code == code


def test_overrides_change_the_settlement() -> None:
    # jpml-a with sticks to 1st instead: E 45000 + 2000 -> 17 + 12 = 29.
    out = standings(
        {
            "ruleset": {"base": "jpml-a", "overrides": {"game": {"sticks_at_end": "first"}}},
            "final_scores": {"E": 45000, "S": 27000, "W": 24000, "N": 22000},
            "riichi_sticks_left": 2,
        }
    )
    assert out["standings"][0]["result"] == 29
