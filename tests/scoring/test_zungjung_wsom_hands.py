"""The test hands T1-T16 of ../shared/rules/WSOM.md §6, under ZJ v3.3 (the sheet's values).

WSOM.md says only a few totals appear on the rule pages themselves (Kwan's slide hand = 85,
Four Concealed Triplets >= 160, Big Three Dragons >= 160, Small Three Dragons >= 60, and
zungjungmahjong.com's 20); every other row was *derived* by the sheet's author. Each derived
row was re-derived here pattern by pattern (the comment shows the sum), and where the
re-derivation disagrees with the sheet the test says so and why (T12). Payments are
``deltas`` with the winner collecting 3V. Hands: concealed tiles without the winning tile,
the winning tile, then declared melds.
"""

from __future__ import annotations

import pytest

from scoring.errors import NoYakuError
from scoring.ruleset import load_ruleset
from tests.scoring.zungjung_builders import ev, hand, ids, win

ZJ = load_ruleset("zung-jung")
WSOM = load_ruleset("wsom")


def pays(deltas: dict[str, int], winner: str) -> dict[str, int]:
    """What each loser pays (positive numbers), for reading against the sheet."""
    return {s: -d for s, d in deltas.items() if s != winner}


def test_t1_all_sequences_and_no_terminals() -> None:
    # Derived; re-derived: 1.1 All Sequences 5 + 1.3 No Terminals 5 = 10 (the chow breaks 1.2).
    h = hand("234m345p456s5p", "5p", "chow 678s", seat="S")
    r = win(h, "S", "W", ruleset=ZJ)
    assert ids(h) == ["all_sequences", "no_terminals"] and r.value == 10
    assert pays(r.deltas, "S") == {"E": 10, "W": 10, "N": 10}  # <= 25: everyone pays V


def test_t2_concealed_two_identical_sequences() -> None:
    # Derived; re-derived: 5 + 5 + 5 + 5.1.1 10 = 25, on the 25 boundary: everyone pays 25.
    h = hand("234m23m567p678s33s", "4m")
    r = win(h, "E", "S", ruleset=ZJ)
    assert ids(h) == [
        "all_sequences",
        "concealed_hand",
        "no_terminals",
        "two_identical_sequences",
    ]
    assert r.value == 25 and pays(r.deltas, "E") == {"S": 25, "W": 25, "N": 25}


def test_published_20_two_identical_sequences_concealed_no_terminals() -> None:
    # zungjungmahjong.com: Two Identical Sequences + Concealed + No Terminals = 20 (a hand
    # with a triplet, so no All Sequences; one concealed triplet is not 4.2.1).
    h = hand("234m234m555p678s3s", "3s")
    assert ids(h) == ["concealed_hand", "no_terminals", "two_identical_sequences"]
    assert ev(h).best.value == 20


def test_t3_chicken_hand_1_point_or_not_a_win() -> None:
    # Derived; re-derived: no pattern (North is not South's seat wind), so the chicken hand.
    h = hand("789p1s", "1s", "chow 123m", "pung 555s", "pung 4z", seat="S")
    r = win(h, "S", "W", ruleset=ZJ)
    assert r.value == 1 and pays(r.deltas, "S") == {"E": 1, "W": 1, "N": 1}
    with pytest.raises(NoYakuError) as err:  # WSOM's 5-point minimum
        win(h, "S", "W", ruleset=WSOM)
    assert err.value.code == "below_minimum"


def test_t4_kwans_slide_hand_85() -> None:
    # Published (Kwan's slide): 40 + 30 + 10 + 5 = 85.
    tsumo = hand("555m888m3m", "3m", "pung 222m", "pung 7z", tsumo=True, seat="S")
    r = win(tsumo, "S", ruleset=ZJ)
    assert r.value == 85 and pays(r.deltas, "S") == {"E": 85, "W": 85, "N": 85}
    assert r.deltas["S"] == 255
    # Same hand on a discard (3m completes the pair, both triplets stay concealed).
    ron = hand("555m888m3m", "3m", "pung 222m", "pung 7z", seat="S")
    r = win(ron, "S", "W", ruleset=ZJ)
    assert r.value == 85 and pays(r.deltas, "S") == {"E": 25, "W": 205, "N": 25}


def test_t5_four_concealed_triplets_self_drawn() -> None:
    # Derived; re-derived: 125 + 30 + 5 + Value Honor (West, seat West) 10 = 170.
    h = hand("111p444s77m333z99s", "7m", tsumo=True, seat="W")
    r = win(h, "W", ruleset=ZJ)
    assert r.value == 170 and pays(r.deltas, "W") == {"E": 170, "S": 170, "N": 170}
    assert r.evaluation.best.value >= 160  # the published floor of 4.2.3


def test_t5b_same_tiles_on_a_discard_lose_one_concealed_triplet() -> None:
    # Derived; re-derived: 30 (4.2.2) + 30 + 5 + 10 = 75; discarder 3*75-50 = 175.
    h = hand("111p444s77m333z99s", "7m", seat="W")
    r = win(h, "W", "N", ruleset=ZJ)
    assert "three_concealed_triplets" in ids(h)
    assert r.value == 75 and pays(r.deltas, "W") == {"E": 25, "S": 25, "N": 175}


def test_t6_big_three_dragons_on_a_discard() -> None:
    # Derived; re-derived: 130 + 3x10 + 30 + 40 + 5 (white and 555m concealed) = 235.
    h = hand("555z555m8m", "8m", "pung 777z", "pung 666z")
    r = win(h, "E", "N", ruleset=ZJ)
    assert r.value == 235 and pays(r.deltas, "E") == {"S": 25, "W": 25, "N": 655}


def test_t7_compound_limit() -> None:
    # Derived; re-derived: 130 + 30 + 30 + 40 + 125 + 5 = 360, capped at 320.
    h = hand("555z555m8m777z666z", "8m", tsumo=True)
    r = win(h, "E", ruleset=ZJ)
    assert r.evaluation.best.raw == 360 and r.value == 320
    assert pays(r.deltas, "E") == {"S": 320, "W": 320, "N": 320}


@pytest.mark.parametrize("pair", ["5m", "5z"])
def test_t8_big_four_winds_listed_limit(pair: str) -> None:
    # Derived; re-derived: listed limit 400 alone (an honour pair adds All Honors 320: the
    # highest listed limit still scores alone).
    h = hand("111z222z333z444z" + pair[0] + pair[1], pair, tsumo=True)
    r = win(h, "E", ruleset=ZJ)
    assert ids(h) == ["big_four_winds"] and r.value == 400
    assert pays(r.deltas, "E") == {"S": 400, "W": 400, "N": 400}


def test_t9_nine_gates() -> None:
    # Derived; re-derived: 480 alone; discarder 3*480-50 = 1390.
    h = hand("1112345678999m", "5m", seat="S")
    r = win(h, "S", "E", ruleset=ZJ)
    assert ids(h) == ["nine_gates"] and r.value == 480
    assert pays(r.deltas, "S") == {"E": 1390, "W": 25, "N": 25}


def test_t10_thirteen_terminals() -> None:
    # Derived; re-derived: 160, no Concealed Hand (irregular), no 8.1.3 (v3.3 wording).
    h = hand("19m19p19s1234567z", "1m", seat="N")
    r = win(h, "N", "E", ruleset=ZJ)
    assert ids(h) == ["thirteen_terminals"] and r.value == 160
    assert pays(r.deltas, "N") == {"E": 430, "S": 25, "W": 25}


def test_t11_seven_pairs_mixed_greater_terminals() -> None:
    # Derived; re-derived: 30 + 100 = 130.
    h = hand("11m99m11p99p11z44z7z", "7z", tsumo=True)
    r = win(h, "E", ruleset=ZJ)
    assert ids(h) == ["mixed_greater_terminals", "seven_pairs"] and r.value == 130
    assert pays(r.deltas, "E") == {"S": 130, "W": 130, "N": 130}


def test_t12_sheet_says_110_but_freedom_of_count_gives_150() -> None:
    # Derived on the sheet as Seven Pairs 30 + Pure One-Suit 80 = 110. Re-derived here it is
    # 150: the same tiles read 456s 456s 789s 789s + 22s, which is Two Identical Sequences
    # Twice 60 + Pure One-Suit 80 + All Sequences 5 + Concealed Hand 5, and freedom of
    # count (WSOM.md §2.6) lets the winner take the better reading. The sheet's 110 is
    # kept as the alternative.
    h = hand("22s44s55s66s77s88s9s", "9s")
    e = ev(h)
    assert e.best.value == 150 and e.best.reading.shape == "regular"
    assert [o.value for o in e.alternatives] == [110]
    assert {s.id for s in e.alternatives[0].patterns} == {"seven_pairs", "pure_one_suit"}
    r = win(h, "E", "S", ruleset=ZJ)
    assert pays(r.deltas, "E") == {"S": 400, "W": 25, "N": 25}
    # Under wsom's v1.03 table Pure One-Suit is 100: 170 (alternative 130).
    assert win(h, "E", "S", ruleset=WSOM).value == 170


def test_t13_regular_reading_beats_seven_pairs() -> None:
    # Derived; re-derived: 60 + 5 + 5 + 5 = 75 against Seven Pairs 30 + 5 = 35.
    h = hand("223344m667788p5s", "5s")
    r = win(h, "E", "S", ruleset=ZJ)
    assert r.value == 75 and [o.value for o in r.evaluation.alternatives] == [35]
    assert pays(r.deltas, "E") == {"S": 175, "W": 25, "N": 25}


def test_t14_small_three_similar_triplets() -> None:
    # Sheet: ">= 30". Re-derived exactly: 6.2.1 30 + Two Concealed Triplets 5 (444m and
    # 444p; the discard completes the pair) = 35; the chow 567m breaks 1.2.
    h = hand("444m444p4s123s", "4s", "chow 567m")
    r = win(h, "E", "S", ruleset=ZJ)
    assert ids(h) == ["two_concealed_triplets", "small_three_similar_triplets"]
    assert r.value == 35 and pays(r.deltas, "E") == {"S": 55, "W": 25, "N": 25}


def test_t15_win_on_kong_supplement_that_is_the_last_tile() -> None:
    # Sheet: ">= 25". Re-derived exactly: One Kong 5 + Win on Kong 10 + Final Draw 10 (both
    # count) + Concealed Hand 5 (a concealed kong keeps it) = 30.
    h = hand("234m678m345s9m", "9m", "ckong 5p", tsumo=True, win_on_kong=True, final_draw=True)
    r = win(h, "E", ruleset=ZJ)
    assert ids(h) == ["concealed_hand", "one_kong", "final_draw", "win_on_kong"]
    assert r.value == 30 and pays(r.deltas, "E") == {"S": 30, "W": 30, "N": 30}


def test_t16_same_turn_rule_decides_who_pays() -> None:
    # Derived; re-derived with the T5b hand (V = 75 > 25): the winner W claims A = N's 7m,
    # which B = S discarded earlier in the same go-around: B pays 3V-50, the others 25.
    h = hand("111p444s77m333z99s", "7m", seat="W")
    r = win(h, "W", "N", same_turn_discarders=["S"], ruleset=ZJ)
    assert r.responsible == "S"
    assert pays(r.deltas, "W") == {"E": 25, "S": 175, "N": 25}
    # The winner had discarded it himself this go-around: paid as a self-draw.
    r = win(h, "W", "N", same_turn_discarders=["W"], ruleset=ZJ)
    assert r.responsible is None and pays(r.deltas, "W") == {"E": 75, "S": 75, "N": 75}


def test_published_floors_small_and_big_three_dragons() -> None:
    # The rule pages: Small Three Dragons >= 60, Big Three Dragons >= 160 (with Value Honors).
    small = ev(hand("555z666z7z123m456m", "7z")).best
    assert small.value >= 60 and "small_three_dragons" in {s.id for s in small.patterns}
    big = ev(hand("555z666z777z123m4m", "4m")).best
    assert big.value >= 160 and "big_three_dragons" in {s.id for s in big.patterns}
