"""Every one of the 44 Zung Jung patterns, every series exclusion, and the shape rules.

Values are ZJ v3.3's (``table_v3_3.toml``) unless a test says otherwise. Hands are written
as concealed tiles *without* the winning tile, the winning tile, then declared melds.
"""

from __future__ import annotations

import pytest

from scoring.errors import InvalidHandError, NotAWinError
from scoring.zungjung import load_table
from scoring.zungjung.patterns import REGISTRY, detect
from tests.scoring.zungjung_builders import ev, hand, ids, value

V33 = load_table("v3.3")
V103 = load_table("v1.03")

# (pattern id, hand); the pattern must be counted in the hand's best reading.
EVERY_PATTERN = [
    ("all_sequences", hand("234m345p456s5p", "5p", "chow 678s", seat="S")),
    ("concealed_hand", hand("234m23m567p678s33s", "4m")),
    ("no_terminals", hand("234m345p456s5p", "5p", "chow 678s")),
    ("mixed_one_suit", hand("555m888m3m", "3m", "pung 222m", "pung 7z", tsumo=True)),
    ("pure_one_suit", hand("123456789m234m1m", "1m")),
    ("nine_gates", hand("1112345678999m", "5m")),
    ("value_honor", hand("555m888m3m", "3m", "pung 222m", "pung 7z")),
    ("small_three_dragons", hand("555z666z7z123m456m", "7z")),
    ("big_three_dragons", hand("555z555m8m", "8m", "pung 777z", "pung 666z")),
    ("small_three_winds", hand("111z222z3z123m789p", "3z")),
    ("big_three_winds", hand("111z222z333z123m5p", "5p")),
    ("small_four_winds", hand("111z222z333z4z123m", "4z")),
    ("big_four_winds", hand("111z222z333z444z5m", "5m")),
    ("all_honors", hand("1122334455667z", "7z")),
    ("all_triplets", hand("555m888m3m", "3m", "pung 222m", "pung 7z")),
    ("two_concealed_triplets", hand("555m888m3m", "3m", "pung 222m", "pung 7z")),
    ("three_concealed_triplets", hand("111p444s77m333z99s", "7m", seat="W")),
    ("four_concealed_triplets", hand("111p444s77m333z99s", "7m", tsumo=True, seat="W")),
    ("one_kong", hand("234m678m345s9m", "9m", "kong 5p")),
    ("two_kong", hand("234m678m9m", "9m", "kong 5p", "kong 7s")),
    ("three_kong", hand("234m9m", "9m", "kong 5p", "kong 7s", "kong 1z")),
    ("four_kong", hand("9m", "9m", "kong 5p", "kong 7s", "kong 1z", "kong 2m")),
    ("two_identical_sequences", hand("234m23m567p678s33s", "4m")),
    ("two_identical_sequences_twice", hand("223344m667788p5s", "5s")),
    ("three_identical_sequences", hand("456p9s", "9s", "chow 123m", "chow 123m", "chow 123m")),
    ("four_identical_sequences", hand("5p", "5p", *["chow 123m"] * 4)),
    ("three_similar_sequences", hand("123m123p123s456m9s", "9s")),
    ("small_three_similar_triplets", hand("444m444p4s123s", "4s", "chow 567m")),
    ("three_similar_triplets", hand("444m444p444s123m9s", "9s")),
    ("nine_tile_straight", hand("123p456p789p123s5m", "5m")),
    ("three_consecutive_triplets", hand("555s789m1p", "1p", "pung 3s", "pung 4s")),
    ("four_consecutive_triplets", hand("9m", "9m", "pung 2s", "pung 3s", "pung 4s", "pung 5s")),
    ("mixed_lesser_terminals", hand("123m789p111z999s1s", "1s")),
    ("pure_lesser_terminals", hand("123m789p111s999s9m", "9m")),
    ("mixed_greater_terminals", hand("111m999p111z111s9s", "9s")),
    ("pure_greater_terminals", hand("111m999m111p999p1s", "1s")),
    ("final_draw", hand("234m345p456s5p", "5p", "chow 678s", tsumo=True, final_draw=True)),
    ("final_discard", hand("234m345p456s5p", "5p", "chow 678s", final_discard=True)),
    ("win_on_kong", hand("234m678m345s9m", "9m", "ckong 5p", tsumo=True, win_on_kong=True)),
    ("robbing_a_kong", hand("234m34p456s55s", "5p", "chow 678s", robbing_kong=True)),
    ("blessing_of_heaven", hand("234m23m567p678s33s", "4m", tsumo=True, heaven=True)),
    ("blessing_of_earth", hand("234m23m567p678s33s", "4m", seat="S", earth=True)),
    ("thirteen_terminals", hand("19m19p19s1234567z", "1m")),
    ("seven_pairs", hand("11m99m11p99p11z44z7z", "7z", tsumo=True)),
]


def test_the_table_has_44_patterns_in_10_categories_each_with_a_detector() -> None:
    assert len(V33.patterns) == 44
    assert len({p.category for p in V33.patterns.values()}) == 10
    assert set(REGISTRY) == set(V33.patterns)
    assert {pid for pid, _ in EVERY_PATTERN} == set(V33.patterns)
    assert all(p.source for p in V33.patterns.values())


@pytest.mark.parametrize(("pid", "h"), EVERY_PATTERN, ids=[p for p, _ in EVERY_PATTERN])
def test_every_pattern_is_counted(pid: str, h: object) -> None:
    assert pid in ids(h)  # type: ignore[arg-type]


@pytest.mark.parametrize(("pid", "h"), EVERY_PATTERN, ids=[p for p, _ in EVERY_PATTERN])
def test_at_most_one_pattern_per_series_except_value_honor(pid: str, h: object) -> None:
    counted = [V33.patterns[i].series for i in ids(h) if i != "value_honor"]  # type: ignore[arg-type]
    assert len(counted) == len(set(counted))


def test_grades_rise_with_value_in_both_tables() -> None:
    """'Highest grade' and 'highest value' pick the same pattern in every series."""
    for table in (V33, V103):
        by_series: dict[str, list[int]] = {}
        for p in sorted(table.patterns.values(), key=lambda p: p.grade):
            by_series.setdefault(p.series, []).append(p.value)
        for series, values in by_series.items():
            if series not in ("9.1", "9.4"):  # equal-valued alternatives, never together
                assert values == sorted(values) and len(set(values)) == len(values), series


def test_v1_03_table_differs_from_v3_3_only_in_three_values_with_sources() -> None:
    diff = {
        pid: (V33.value(pid), V103.value(pid))
        for pid in V33.patterns
        if V33.value(pid) != V103.value(pid)
    }
    assert diff == {
        "pure_one_suit": (80, 100),
        "small_three_dragons": (40, 30),
        "small_three_winds": (30, 25),
    }
    assert "v1.03" in V103.patterns["pure_one_suit"].source
    assert "MT news 391" in V103.patterns["small_three_winds"].source


# --- series exclusions: the lower grades are present, only the highest counts --------------

SERIES_EXCLUSIONS = [
    # (hand, counted, also detected but excluded)
    (
        hand("111z222z333z4z123m", "4z"),
        "small_four_winds",
        {"small_three_winds", "big_three_winds"},
    ),
    (hand("111z222z333z444z5m", "5m"), "big_four_winds", {"big_three_winds"}),
    (
        hand("111p444s77m333z99s", "7m", tsumo=True, seat="W"),
        "four_concealed_triplets",
        {"two_concealed_triplets", "three_concealed_triplets"},
    ),
    (
        hand("111p444s77m333z99s", "7m", seat="W"),
        "three_concealed_triplets",
        {"two_concealed_triplets"},
    ),
    (
        hand("9m", "9m", "kong 5p", "kong 7s", "kong 1z", "kong 2m"),
        "four_kong",
        {"one_kong", "two_kong", "three_kong"},
    ),
    (hand("234m9m", "9m", "kong 5p", "kong 7s", "kong 1z"), "three_kong", {"one_kong", "two_kong"}),
    (hand("234m678m9m", "9m", "kong 5p", "kong 7s"), "two_kong", {"one_kong"}),
    (hand("223344m667788p5s", "5s"), "two_identical_sequences_twice", {"two_identical_sequences"}),
    (
        hand("456p9s", "9s", "chow 123m", "chow 123m", "chow 123m"),
        "three_identical_sequences",
        {"two_identical_sequences"},
    ),
    (
        hand("5p", "5p", *["chow 123m"] * 4),
        "four_identical_sequences",
        {"two_identical_sequences", "three_identical_sequences"},
    ),
    (
        hand("9m", "9m", "pung 2s", "pung 3s", "pung 4s", "pung 5s"),
        "four_consecutive_triplets",
        {"three_consecutive_triplets"},
    ),
    (hand("123m789p111s999s9m", "9m"), "pure_lesser_terminals", {"mixed_lesser_terminals"}),
    (
        hand("111m999p111z111s9s", "9s"),
        "mixed_greater_terminals",
        {"mixed_lesser_terminals"},
    ),
    (
        hand("111m999m111p999p1s", "1s"),
        "pure_greater_terminals",
        {"mixed_lesser_terminals", "pure_lesser_terminals", "mixed_greater_terminals"},
    ),
]


@pytest.mark.parametrize(
    ("h", "counted", "excluded"), SERIES_EXCLUSIONS, ids=[c for _, c, _ in SERIES_EXCLUSIONS]
)
def test_series_keeps_only_the_highest_grade(h: object, counted: str, excluded: set[str]) -> None:
    best = ev(h).best  # type: ignore[arg-type]
    present = detect(best.reading, h)  # type: ignore[arg-type]
    assert excluded <= set(present)  # the lower grades really are there...
    found = {s.id for s in best.found}
    assert counted in found and not (excluded & found)  # ...and only the highest counts


@pytest.mark.parametrize(
    ("h", "counted", "absent"),
    [
        (hand("123456789m234m1m", "1m"), "pure_one_suit", "mixed_one_suit"),
        (hand("555m888m3m", "3m", "pung 222m", "pung 7z"), "mixed_one_suit", "pure_one_suit"),
        (
            hand("555z555m8m", "8m", "pung 777z", "pung 666z"),
            "big_three_dragons",
            "small_three_dragons",
        ),
        (
            hand("444m444p444s123m9s", "9s"),
            "three_similar_triplets",
            "small_three_similar_triplets",
        ),
        (
            hand("234m345p456s5p", "5p", "chow 678s", tsumo=True, final_draw=True),
            "final_draw",
            "final_discard",
        ),
        (
            hand("234m23m567p678s33s", "4m", tsumo=True, heaven=True),
            "blessing_of_heaven",
            "blessing_of_earth",
        ),
    ],
)
def test_exclusive_grades_of_a_series(h: object, counted: str, absent: str) -> None:
    got = ids(h)  # type: ignore[arg-type]
    assert counted in got and absent not in got


def test_nine_gates_is_a_listed_limit_over_pure_one_suit() -> None:
    best = ev(hand("1112345678999m", "9m")).best
    assert "pure_one_suit" in {s.id for s in best.found}
    assert [s.id for s in best.patterns] == ["nine_gates"] and best.value == 480


def test_nine_gates_needs_the_nine_way_wait_held_concealed() -> None:
    # Same fourteen tiles, but the 13 held were not 1112345678999: no Nine Gates.
    assert "nine_gates" not in ids(hand("1112345678899m", "9m"))
    assert "nine_gates" not in ids(hand("2345678999m", "1m", "pung 1m"))


# --- Value Honor: per set, dragons and the seat wind only ----------------------------------


def test_value_honor_counts_once_per_set_with_its_tile() -> None:
    best = ev(hand("555z555m8m", "8m", "pung 777z", "pung 666z")).best
    honors = [s for s in best.patterns if s.id == "value_honor"]
    assert len(honors) == 3 and {s.tile for s in honors} == {31, 32, 33}


@pytest.mark.parametrize(("seat", "expected"), [("S", 1), ("E", 0), ("W", 0), ("N", 0)])
def test_only_the_seat_wind_is_a_value_honor(seat: str, expected: int) -> None:
    # A South triplet: a value honor for the South seat only; the prevailing wind (which
    # the hand does not even know) is never one.
    h = hand("234m567p1s", "1s", "pung 2z", "chow 345s", seat=seat)
    assert ids(h).count("value_honor") == expected


# --- the concealed-triplet rule -------------------------------------------------------------


def test_a_triplet_completed_on_a_discard_is_not_concealed() -> None:
    tsumo = hand("111p444s77m333z99s", "7m", tsumo=True, seat="W")
    ron = hand("111p444s77m333z99s", "7m", seat="W")
    assert "four_concealed_triplets" in ids(tsumo)
    assert "three_concealed_triplets" in ids(ron)


def test_a_discard_completing_a_sequence_leaves_the_triplet_concealed() -> None:
    # 1111m23m: the discarded 1m completes 123m, so 111m stays concealed (3 concealed).
    assert "three_concealed_triplets" in ids(hand("111m23m555p777s99s", "1m"))


def test_concealed_kong_is_a_concealed_triplet_and_keeps_the_hand_concealed() -> None:
    closed = hand("111m555p789s9s", "9s", "ckong 2z", seat="S")
    exposed = hand("111m555p789s9s", "9s", "kong 2z", seat="S")
    assert {"three_concealed_triplets", "concealed_hand", "one_kong"} <= set(ids(closed))
    got = ids(exposed)
    assert "two_concealed_triplets" in got and "concealed_hand" not in got and "one_kong" in got


def test_exposed_pung_breaks_concealed_hand_but_exposed_chows_still_count_for_5_1() -> None:
    got = ids(hand("234m5p789s", "5p", "chow 234m", "pung 8p"))
    assert "concealed_hand" not in got and "two_identical_sequences" in got


# --- irregular hands and what they combine with ---------------------------------------------


def test_seven_pairs_combines_with_suit_terminal_and_honor_patterns_only() -> None:
    assert ids(hand("11m99m11p99p11z44z7z", "7z")) == ["mixed_greater_terminals", "seven_pairs"]
    assert ids(hand("22m33m44m55p66p77s8s", "8s")) == ["no_terminals", "seven_pairs"]
    assert ids(hand("11m33m55m77m99m11z2z", "2z")) == ["mixed_one_suit", "seven_pairs"]
    # terminals only, 9m four times as two pairs: Pure Greater Terminals, a listed limit
    best = ev(hand("11m99m11p99p11s99s9m", "9m")).best
    assert best.reading.shape == "seven_pairs"
    assert [s.id for s in best.patterns] == ["pure_greater_terminals"] and best.value == 400
    # all honours as seven pairs: the listed limit 320 scores alone
    best = ev(hand("1122334455667z", "7z")).best
    assert [s.id for s in best.patterns] == ["all_honors"] and best.value == 320


def test_seven_pairs_never_scores_concealed_hand_and_may_use_four_alike() -> None:
    best = ev(hand("2222m4466p88s33z5z", "5z")).best
    assert best.reading.shape == "seven_pairs" and "concealed_hand" not in ids(
        hand("2222m4466p88s33z5z", "5z")
    )
    assert best.value == 30


def test_thirteen_terminals_takes_only_incidental_bonuses() -> None:
    assert ids(hand("19m19p19s1234567z", "7z")) == ["thirteen_terminals"]
    best = ev(hand("19m19p19s1234567z", "7z", tsumo=True, final_draw=True)).best
    assert [s.id for s in best.patterns] == ["final_draw", "thirteen_terminals"]
    assert best.value == 170


def test_a_pattern_without_a_winning_shape_is_not_a_win() -> None:
    with pytest.raises(NotAWinError) as err:
        ev(hand("1122334455667z", "1z"))  # honours only, but no winning shape
    assert err.value.code == "not_a_win"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"final_draw": True}, "final_draw_needs_self_draw"),
        ({"win_on_kong": True}, "win_on_kong_needs_self_draw"),
        ({"tsumo": True, "robbing_kong": True}, "robbing_kong_not_self_draw"),
        ({"tsumo": True, "heaven": True, "seat": "S"}, "heaven_needs_east_self_draw"),
        ({"earth": True}, "earth_needs_non_east_discard"),
        ({"tsumo": True, "final_discard": True}, "final_discard_needs_discard"),
    ],
)
def test_contradictory_situations_are_errors(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidHandError) as err:
        hand("234m23m567p678s33s", "4m", **kwargs)  # type: ignore[arg-type]
    assert err.value.code == code


def test_robbed_tile_cannot_have_another_copy_in_the_hand() -> None:
    with pytest.raises(InvalidHandError) as err:
        hand("234m23m567p678s33s", "3s", robbing_kong=True)
    assert err.value.code == "robbed_tile_held"


def test_wrong_tile_count_and_fifth_copy_are_invalid() -> None:
    with pytest.raises(InvalidHandError) as err:
        hand("234m23m567p678s3s", "4m")
    assert err.value.code == "wrong_tile_count"
    with pytest.raises(InvalidHandError) as err:
        hand("1111m23m567p678s3s", "1m")
    assert err.value.code == "too_many_tiles"


def test_values_follow_the_table() -> None:
    h = hand("123456789m234m1m", "1m")
    assert value(h, "v1.03") - value(h, "v3.3") == 100 - 80
