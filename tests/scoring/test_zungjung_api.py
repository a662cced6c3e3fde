"""Zung Jung through the public API: ``scoring.api.score`` with the wsom / zung-jung rulesets."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.api import score
from scoring.errors import AgariError, InvalidHandError, NotAWinError, NoYakuError
from scoring.ruleset import load_ruleset
from scoring.zungjung import rules_summary
from tests.scoring.test_contract_keys import CONTRACT_KEYS


def req(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"ruleset": "wsom", "round_wind": "E", "seat_wind": "S"}
    return base | kw


def test_wsom_score_has_every_contract_key_and_patterns_in_yaku() -> None:
    # WSOM.md T4 (Kwan's slide hand), South self-draws: 85, each pays 85.
    out = score(
        req(
            closed="555m888m3m",
            win_tile="3m",
            win="tsumo",
            melds=[
                {"kind": "pon", "tiles": "222m", "from": "left"},
                {"kind": "pon", "tiles": "777z", "from": "across"},
            ],
        )
    )
    assert set(out) >= CONTRACT_KEYS
    # CONTRACT.md types han and fu as numbers: 0 (Zung Jung has neither), never null.
    assert out["han"] == 0 and out["fu"] == 0 and out["yakuman"] == 0
    assert out["fu_details"] == [] and out["limit"] is None
    # "points": on a self-draw the sum of all payments; the hand value V is "value".
    assert out["value"] == 85 and out["points"] == 255 and out["scoring"] == "zung_jung"
    assert out["deltas"] == {"E": -85, "S": 255, "W": -85, "N": -85}
    assert out["yaku"][0] == {
        "id": "mixed_one_suit",
        "han": 0,
        "name": "Mixed One-Suit",
        "value": 40,
        "number": "2.1.1",
    }
    assert {
        "id": "value_honor",
        "han": 0,
        "name": "Value Honor",
        "value": 10,
        "number": "3.1",
        "tile": "7z",
    } in out["yaku"]
    # CONTRACT.md's yaku items are {"id", "han"}: kept, 0 (a pattern has points).
    assert all(y["han"] == 0 for y in out["yaku"])


def test_wsom_discard_above_25_and_pattern_table_v1_03() -> None:
    # 22s..99s seven-pair tiles read as 456s 456s 789s 789s 22s: v1.03 Pure One-Suit 100
    # + 60 + 5 + 5 = 170; West dealt in: 3*170-50 = 460, the others 25.
    out = score(req(closed="22s44s55s66s77s88s9s", win_tile="9s", win="ron", discarder="W"))
    assert out["pattern_table"] == "v1.03" and out["value"] == 170
    assert out["deltas"] == {"E": -25, "S": 510, "W": -460, "N": -25}
    assert out["points"] == 460  # CONTRACT.md: on a discard, what the discarder pays
    assert [a["value"] for a in out["alternatives"]] == [130]
    assert [a["points"] for a in out["alternatives"]] == [3 * 130 - 50]  # as paid
    assert out["responsible"] == "W"


def test_zung_jung_ruleset_uses_v3_3_values() -> None:
    out = score(req(ruleset="zung-jung", closed="22s44s55s66s77s88s9s", win_tile="9s", win="tsumo"))
    assert out["value"] == 150 and out["pattern_table"] == "v3.3"


CHICKEN = {
    "closed": "789p1s",
    "win_tile": "1s",
    "win": "ron",
    "discarder": "W",
    "melds": [
        {"kind": "chi", "tiles": "123m", "from": "left"},
        {"kind": "pon", "tiles": "555s", "from": "right"},
        {"kind": "pon", "tiles": "444z", "from": "across"},
    ],
}


def test_chicken_hand_wins_1_under_zung_jung_but_not_under_wsom() -> None:
    out = score(req(ruleset="zung-jung", **CHICKEN))
    assert out["points"] == 1 and out["yaku"][0]["id"] == "chicken_hand"
    assert out["deltas"] == {"E": -1, "S": 3, "W": -1, "N": -1}
    with pytest.raises(NoYakuError) as err:
        score(req(**CHICKEN))
    assert err.value.code == "below_minimum"


def test_override_lifts_the_minimum() -> None:
    spec = {"base": "wsom", "overrides": {"zj_min_points": 0}}
    assert score(req(ruleset=spec, **CHICKEN))["points"] == 1


def test_robbing_a_kong_through_the_api() -> None:
    out = score(
        req(
            closed="12m456m456m789m11z",
            win_tile="3m",
            win="ron",
            discarder="W",
            flags=["chankan"],
        )
    )
    ids = [y["id"] for y in out["yaku"]]
    assert "robbing_a_kong" in ids and out["value"] == 110
    assert out["deltas"]["W"] == -(3 * 110 - 50)


def test_listed_limit_reported_alone() -> None:
    out = score(req(closed="1112345678999m", win_tile="5m", win="ron", discarder="E"))
    assert out["limit"] == "listed_limit" and [y["id"] for y in out["yaku"]] == ["nine_gates"]
    assert out["value"] == 480 and out["deltas"]["E"] == -1390 == -out["points"]


@pytest.mark.parametrize(
    ("extra", "error", "code"),
    [
        ({"closed": "1122334455667z", "win_tile": "1z"}, NotAWinError, "not_a_win"),
        (
            {"closed": "234m23m567p678s33s", "win_tile": "4m", "flags": ["riichi"]},
            InvalidHandError,
            "flag_not_in_ruleset",
        ),
        (
            {"closed": "234m23m567p678s33s", "win_tile": "4m", "flags": ["haitei"]},
            InvalidHandError,
            "final_draw_needs_self_draw",
        ),
        (
            {"closed": "234m23m067p678s33s", "win_tile": "4m"},
            InvalidHandError,
            "red_five_not_in_ruleset",
        ),
    ],
)
def test_bad_hands_get_clear_errors(extra: dict[str, Any], error: type, code: str) -> None:
    with pytest.raises(error) as err:
        score(req(win="ron", discarder="W", **extra))
    assert isinstance(err.value, AgariError) and err.value.code == code


def test_dora_and_counters_are_ignored_with_warnings() -> None:
    out = score(
        req(
            closed="234m23m567p678s33s",
            win_tile="4m",
            win="ron",
            discarder="W",
            dora_indicators=["1m"],
            honba=2,
        )
    )
    assert out["points"] == 25
    assert {"code": "ignored", "message": "Zung Jung has no dora: the indicators were ignored"} in (
        out["warnings"]
    )
    assert any("honba" in w["message"] for w in out["warnings"])


def test_readable_text_of_a_zung_jung_response() -> None:
    from scoring.explain import explain

    out = score(req(closed="223344m667788p5s", win_tile="5s", win="ron", discarder="E"))
    assert out["announce"] == "175 + 25 + 25"
    assert out["alternatives"][0]["why"] == "worth 35, less than 75"
    text = explain(out)
    assert text.splitlines()[0] == "75 points (Zung Jung, v1.03 table): 175 + 25 + 25"
    assert "5.1.2  Two Identical Sequences Twice   60" in text
    assert "not chosen: 2m2m 3m3m 4m4m 6p6p 7p7p 8p8p 5s5s (worth 35, less than 75)" in text


def test_rules_summary_says_which_source_each_ruleset_follows() -> None:
    wsom = rules_summary(load_ruleset("wsom"))
    zj = rules_summary(load_ruleset("zung-jung"))
    assert wsom["min_points"] == 5 and zj["min_points"] == 0
    assert wsom["differs_from_v3_3"]["pure_one_suit"] == {
        "value": 100,
        "v3.3": 80,
        "source": wsom["differs_from_v3_3"]["pure_one_suit"]["source"],
    }
    assert zj["differs_from_v3_3"] == {} and len(zj["patterns"]) == 44
    rs = load_ruleset("wsom")
    assert "v1.03" in rs.source_of("zj_table") and "v3.3" in rs.source_of("zj_table")
    assert "5-point" in rs.source_of("zj_min_points")
    assert load_ruleset("zung-jung").extends == "wsom"


def test_settle_under_wsom_pays_only_the_next_in_turn() -> None:
    from scoring.api import settle

    t13 = {"closed": "223344m667788p5s", "win_tile": "5s", "win": "ron", "round_wind": "E"}
    out = settle(
        {
            "ruleset": "wsom",
            "discarder": "E",
            "wins": [t13 | {"seat_wind": "W"}, t13 | {"seat_wind": "S"}],
        }
    )
    assert out["outcome"] == "head_bump"
    assert [r["seat"] for r in out["results"]] == ["S"]  # S is next after the discarder E
    assert out["results"][0]["value"] == 75 and out["results"][0]["scoring"] == "zung_jung"
    assert out["deltas"] == {"E": -175, "S": 225, "W": -25, "N": -25}


def test_prevailing_wind_is_ignored_only_the_seat_wind_counts() -> None:
    # A South triplet in the South round, held by West: not a value honor (ZJ ignores the
    # prevailing wind), so a chicken hand (1); held by South it is Value Honor 10.
    hand = {
        "closed": "234m567p1s",
        "win_tile": "1s",
        "win": "tsumo",
        "round_wind": "S",
        "melds": [
            {"kind": "pon", "tiles": "222z", "from": "left"},
            {"kind": "chi", "tiles": "345s", "from": "left"},
        ],
    }
    west = score(req(ruleset="zung-jung", **hand) | {"seat_wind": "W"})
    south = score(req(ruleset="zung-jung", **hand) | {"seat_wind": "S"})
    assert [y["id"] for y in west["yaku"]] == ["chicken_hand"] and west["value"] == 1
    assert [y["id"] for y in south["yaku"]] == ["value_honor"] and south["value"] == 10
