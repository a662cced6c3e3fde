"""Zung Jung limits, the chicken hand under both minimums, freedom of count and the payoff."""

from __future__ import annotations

import pytest

from scoring.errors import InvalidHandError, NoYakuError
from scoring.zungjung import payments, responsible_seat
from tests.scoring.zungjung_builders import ev, hand, win, zj_ruleset

# --- limits ---------------------------------------------------------------------------------


def test_compound_limit_caps_a_sum_of_patterns_at_320() -> None:
    best = ev(hand("555z555m8m777z666z", "8m", tsumo=True)).best
    assert best.raw == 360 and best.value == 320 and best.limit == "compound_limit"
    assert len(best.patterns) > 1  # a compound: every pattern still listed


def test_just_under_the_compound_limit_is_not_capped() -> None:
    best = ev(hand("555z555m8m", "8m", "pung 777z", "pung 666z")).best
    assert best.value == best.raw == 235 and best.limit is None


@pytest.mark.parametrize(
    ("h", "listed", "v"),
    [
        (hand("111z222z333z444z5m", "5m"), "big_four_winds", 400),
        (hand("111z222z333z4z123m", "4z"), "small_four_winds", 320),
        (hand("9m", "9m", "kong 5p", "kong 7s", "kong 1z", "kong 2m"), "four_kong", 480),
        (hand("1112345678999m", "5m"), "nine_gates", 480),
        (hand("5p", "5p", *["chow 123m"] * 4), "four_identical_sequences", 480),
        (hand("111m999m111p999p1s", "1s"), "pure_greater_terminals", 400),
        (hand("1122334455667z", "7z"), "all_honors", 320),
    ],
)
def test_listed_limit_scores_alone(h: object, listed: str, v: int) -> None:
    best = ev(h).best  # type: ignore[arg-type]
    assert [s.id for s in best.patterns] == [listed]
    assert best.value == v and best.limit == "listed_limit" and best.raw > v


def test_two_listed_limits_take_the_highest_only() -> None:
    # Big Four Winds (400) with an honour pair is also All Honors (320).
    best = ev(hand("111z222z333z444z5z", "5z", tsumo=True)).best
    assert {"big_four_winds", "all_honors"} <= {s.id for s in best.found}
    assert [s.id for s in best.patterns] == ["big_four_winds"] and best.value == 400


# --- the chicken hand -----------------------------------------------------------------------

CHICKEN = hand("789p1s", "1s", "chow 123m", "pung 555s", "pung 4z", seat="S")


def test_chicken_hand_scores_1_without_a_minimum() -> None:
    best = ev(CHICKEN).best
    assert best.chicken and best.value == 1
    assert [s.id for s in best.patterns] == ["chicken_hand"]
    assert win(CHICKEN, "S", "W").deltas == {"E": -1, "S": 3, "W": -1, "N": -1}


def test_chicken_hand_is_not_a_win_under_a_5_point_minimum() -> None:
    with pytest.raises(NoYakuError) as err:
        win(CHICKEN, "S", "W", ruleset=zj_ruleset(min_points=5))
    assert err.value.code == "below_minimum" and "chicken" in err.value.message
    assert err.value.details == {"value": 1, "minimum": 5}


def test_a_5_point_hand_passes_the_5_point_minimum() -> None:
    h = hand("234m345p456s5p", "5p", "chow 789s", seat="S")  # All Sequences only: 5
    assert ev(h).best.value == 5
    assert win(h, "S", "W", ruleset=zj_ruleset(min_points=5)).value == 5


# --- freedom of count -----------------------------------------------------------------------


def test_freedom_of_count_takes_the_best_reading_and_lists_the_others() -> None:
    # 111222333m: three identical sequences or three consecutive triplets, never both
    # (WSOM.md §2.6). As triplets: 100 + Three Concealed Triplets 30 + Concealed Hand 5 =
    # 135; as sequences: 120 + All Sequences 5 + Concealed Hand 5 = 130. The winner takes 135.
    e = ev(hand("111222333m456p9s", "9s", tsumo=True))
    assert e.best.value == 135
    assert {s.id for s in e.best.patterns} == {
        "three_consecutive_triplets",
        "three_concealed_triplets",
        "concealed_hand",
    }
    alt = {o.value: {s.id for s in o.patterns} for o in e.alternatives}
    assert alt[130] == {"three_identical_sequences", "all_sequences", "concealed_hand"}
    assert all(o.value <= e.best.value for o in e.alternatives)


def test_seven_pairs_or_two_identical_sequences_twice_never_both() -> None:
    e = ev(hand("223344m667788p5s", "5s"))
    assert e.best.reading.shape == "regular" and e.best.value == 75
    pairs = [o for o in e.alternatives if o.reading.shape == "seven_pairs"]
    assert len(pairs) == 1 and pairs[0].value == 35
    assert "two_identical_sequences_twice" not in {s.id for s in pairs[0].patterns}


# --- payoff ---------------------------------------------------------------------------------


def test_self_draw_each_pays_v() -> None:
    assert payments(85, "S", None) == {"E": -85, "S": 255, "W": -85, "N": -85}


def test_discard_up_to_25_each_pays_v() -> None:
    assert payments(25, "S", "W") == {"E": -25, "S": 75, "W": -25, "N": -25}
    assert payments(10, "S", "W") == {"E": -10, "S": 30, "W": -10, "N": -10}


def test_discard_above_25_discarder_pays_3v_minus_50_others_25() -> None:
    assert payments(26, "S", "W") == {"E": -25, "S": 78, "W": -28, "N": -25}
    assert payments(480, "N", "E") == {"E": -1390, "S": -25, "W": -25, "N": 1440}


def test_robbing_a_kong_is_paid_by_the_player_adding_the_kong() -> None:
    # 234m 345p 456s [678s] 55s, robbing 5p from West's kong: 5+5+10 = 20 (<= 25, all pay).
    h = hand("234m34p456s55s", "5p", "chow 678s", robbing_kong=True, seat="S")
    r = win(h, "S", "W")
    assert r.value == 20 and r.deltas == {"E": -20, "S": 60, "W": -20, "N": -20}
    # Above 25: Mixed One-Suit 40, Nine-Tile Straight 40, Two Identical Sequences 10, All
    # Sequences 5, Concealed Hand 5 and Robbing a Kong 10 = 110; West added the kong.
    h = hand("12m456m456m789m11z", "3m", robbing_kong=True, seat="S")
    r = win(h, "S", "W")
    assert r.value == 110 and r.deltas["W"] == -(3 * r.value - 50) and r.deltas["E"] == -25


def test_uniform_scheme_charges_everyone_v() -> None:
    r = win(
        hand("111p444s77m333z99s", "7m", seat="W"),
        "W",
        "N",
        ruleset=zj_ruleset(zj_payoff="uniform"),
    )
    assert r.deltas == {"E": -75, "S": -75, "W": 225, "N": -75}


def test_same_turn_rule_makes_the_first_discarder_pay() -> None:
    assert responsible_seat("E", "N", ["S"]) == "S"
    assert responsible_seat("E", "N", ["S", "W"]) == "S"
    assert responsible_seat("E", "N", []) == "N"
    assert responsible_seat("E", None, []) is None


def test_same_turn_rule_winner_own_discard_is_paid_as_self_draw() -> None:
    r = win(hand("111p444s77m333z99s", "7m", seat="W"), "W", "N", same_turn_discarders=["W"])
    assert r.responsible is None and r.deltas == {"E": -75, "S": -75, "W": 225, "N": -75}


def test_payoff_errors() -> None:
    with pytest.raises(InvalidHandError) as err:
        payments(30, "E", "E")
    assert err.value.code == "discarder_is_winner"
    with pytest.raises(InvalidHandError) as err:
        payments(30, "X", None)
    assert err.value.code == "bad_seat"
    h = hand("111p444s77m333z99s", "7m", seat="W")
    with pytest.raises(InvalidHandError) as err:
        win(h, "W", None)
    assert err.value.code == "missing_discarder"
    with pytest.raises(InvalidHandError) as err:
        win(hand("111p444s77m333z99s", "7m", tsumo=True, seat="W"), "W", "N")
    assert err.value.code == "tsumo_with_discarder"


def test_blessing_of_earth_is_won_on_easts_discard_only() -> None:
    h = hand("234m23m567p678s33s", "4m", seat="S", earth=True)
    r = win(h, "S", "E")
    assert r.value == 155 + 25 and r.deltas["E"] == -(3 * r.value - 50)
    with pytest.raises(InvalidHandError) as err:
        win(h, "S", "W")
    assert err.value.code == "earth_needs_east_discard"


def test_winner_always_collects_3v() -> None:
    for v in (1, 5, 25, 26, 75, 320, 480):
        for resp in (None, "N"):
            d = payments(v, "E", resp)
            assert d["E"] == 3 * v and sum(d.values()) == 0
