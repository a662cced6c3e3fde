"""Fu items, limits and payments, each expected figure worked out from the rules.

Fu: base 20; closed ron +10; tsumo +2 (not with pinfu); open/closed triplet 2/4, kan 8/16,
doubled for terminals and honours; dragon / seat / round wind pair 2 (double wind pair 4
under tenhou); kanchan, penchan, tanki 2; round up to 10; chiitoitsu 25; open no-fu ron 30.
Points: basic = fu x 2^(han+2); ron x4 (dealer x6), tsumo x1/x2 each, rounded up to 100.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import api
from scoring.payments import payout
from scoring.points import base_points
from scoring.ruleset import load_ruleset, with_overrides
from tests.scoring.riichi_builders import request, score

P = pytest.param
L, A, R = "left", "across", "right"
RIICHI = ("riichi",)


def fu_items(res: dict[str, Any]) -> list[tuple[str, int]]:
    return [(d["reason"], d["fu"]) for d in res["fu_details"]]


FU_CASES = [
    P(
        "123m567m678s99s34p",
        "2p",
        {"flags": RIICHI},
        30,
        [("base", 20), ("menzen_ron", 10)],
        id="pinfu ron: base 20 + menzen ron 10",
    ),
    P(
        "123m567m678s99s34p",
        "2p",
        {"win": "tsumo"},
        20,
        [("base", 20)],
        id="pinfu tsumo: 20, no tsumo fu",
    ),
    P(
        "123m567m678s99s3p5p",
        "4p",
        {"flags": RIICHI},
        40,
        [("base", 20), ("menzen_ron", 10), ("wait_kanchan", 2), ("rounding", 8)],
        id="kanchan 2",
    ),
    P(
        "123m567m678s99s12p",
        "3p",
        {"flags": RIICHI},
        40,
        [("base", 20), ("menzen_ron", 10), ("wait_penchan", 2), ("rounding", 8)],
        id="penchan 2",
    ),
    P(
        "123m567m678s234p9s",
        "9s",
        {"flags": RIICHI},
        40,
        [("base", 20), ("menzen_ron", 10), ("wait_tanki", 2), ("rounding", 8)],
        id="tanki 2",
    ),
    P(
        "123m567m678s234p9s",
        "9s",
        {"flags": RIICHI, "win": "tsumo"},
        30,
        [("base", 20), ("tsumo", 2), ("wait_tanki", 2), ("rounding", 6)],
        id="tsumo 2, no menzen ron",
    ),
    P(
        "123m567m222p99s55s",
        "5s",
        {"flags": RIICHI},
        40,
        [
            ("base", 20),
            ("menzen_ron", 10),
            ("closed_triplet_simple", 4),
            ("open_triplet_simple", 2),
            ("rounding", 4),
        ],
        id="shanpon ron: the completed triplet is open (2), the other closed (4)",
    ),
    P(
        "123m567m999p11s55s",
        "1s",
        {"flags": RIICHI, "win": "tsumo"},
        40,
        [
            ("base", 20),
            ("tsumo", 2),
            ("closed_triplet_terminal", 8),
            ("closed_triplet_terminal", 8),
            ("rounding", 2),
        ],
        id="shanpon tsumo: both triplets closed terminal 8",
    ),
    P(
        "123m567m678s9s",
        "9s",
        {"melds": (("pon", "222p", L),), "flags": ("houtei",)},
        30,
        [("base", 20), ("open_triplet_simple", 2), ("wait_tanki", 2), ("rounding", 6)],
        id="open triplet simple 2",
    ),
    P(
        "123m567m678s9s",
        "9s",
        {"melds": (("pon", "111p", L),), "flags": ("houtei",)},
        30,
        [("base", 20), ("open_triplet_terminal", 4), ("wait_tanki", 2), ("rounding", 4)],
        id="open triplet terminal 4",
    ),
    P(
        "123m567m678s9s",
        "9s",
        {"melds": (("daiminkan", "2222p", A),), "flags": ("houtei",)},
        30,
        [("base", 20), ("open_kan_simple", 8), ("wait_tanki", 2)],
        id="open kan simple 8",
    ),
    P(
        "123m567m678s9s",
        "9s",
        {"melds": (("kakan", "1111p", R),), "flags": ("houtei",)},
        40,
        [("base", 20), ("open_kan_terminal", 16), ("wait_tanki", 2), ("rounding", 2)],
        id="added kan terminal 16",
    ),
    P(
        "123m567m678s9s",
        "9s",
        {"melds": (("ankan", "2222p", None),), "flags": RIICHI},
        50,
        [
            ("base", 20),
            ("menzen_ron", 10),
            ("closed_kan_simple", 16),
            ("wait_tanki", 2),
            ("rounding", 2),
        ],
        id="closed kan simple 16 (hand stays closed)",
    ),
    P(
        "123m567m678s9s",
        "9s",
        {"melds": (("ankan", "7777z", None),)},
        70,
        [
            ("base", 20),
            ("menzen_ron", 10),
            ("closed_kan_honor", 32),
            ("wait_tanki", 2),
            ("rounding", 6),
        ],
        id="closed kan honour 32",
    ),
    P(
        "123m567m678s55z34p",
        "2p",
        {"flags": RIICHI},
        40,
        [("base", 20), ("menzen_ron", 10), ("pair_dragon", 2), ("rounding", 8)],
        id="dragon pair 2 (no pinfu)",
    ),
    P(
        "123m567m678s22z34p",
        "2p",
        {"flags": RIICHI},
        40,
        [("base", 20), ("menzen_ron", 10), ("pair_seat_wind", 2), ("rounding", 8)],
        id="seat wind pair 2",
    ),
    P(
        "123m567m678s11z34p",
        "2p",
        {"flags": RIICHI},
        40,
        [("base", 20), ("menzen_ron", 10), ("pair_round_wind", 2), ("rounding", 8)],
        id="round wind pair 2",
    ),
    P(
        "123m567m678s11z34p",
        "2p",
        {"flags": RIICHI, "seat": "E"},
        40,
        [("base", 20), ("menzen_ron", 10), ("pair_double_wind", 4), ("rounding", 6)],
        id="double wind pair 4 (tenhou)",
    ),
    P(
        "123m567m678s11z34p",
        "2p",
        {
            "flags": RIICHI,
            "seat": "E",
            "ruleset": {"base": "tenhou", "overrides": {"double_wind_pair_fu": 2}},
        },
        40,
        [("base", 20), ("menzen_ron", 10), ("pair_double_wind", 2), ("rounding", 8)],
        id="double wind pair 2 (ruleset switch)",
    ),
    P(
        "567m678s66s34p",
        "2p",
        {"melds": (("chi", "234m", L),)},
        30,
        [("base", 20), ("open_pinfu", 10)],
        id="open tanyao with no fu, ron: 30",
    ),
    P("1122m3344p5566s7z", "7z", {}, 25, [("chiitoitsu", 25)], id="chiitoitsu 25"),
]


@pytest.mark.parametrize(("closed", "win", "kw", "fu", "items"), FU_CASES)
def test_fu_items(
    closed: str, win: str, kw: dict[str, Any], fu: int, items: list[tuple[str, int]]
) -> None:
    res = score(closed, win, **kw)
    assert res["fu"] == fu
    assert fu_items(res) == items
    assert sum(f for _, f in items) == fu


TENHOU = load_ruleset("tenhou")
KIRIAGE = with_overrides(TENHOU, {"kiriage": True})
KAZOE_SANBAIMAN = with_overrides(TENHOU, {"kazoe": "sanbaiman"})


@pytest.mark.parametrize(
    ("han", "fu", "units", "rs", "expected"),
    [
        P(1, 30, 0, TENHOU, (240, None), id="1 han 30 fu: 30*8=240"),
        P(3, 60, 0, TENHOU, (1920, None), id="3 han 60 fu: 1920, no kiriage"),
        P(4, 30, 0, TENHOU, (1920, None), id="4 han 30 fu: 1920 (7700), no kiriage"),
        P(4, 30, 0, KIRIAGE, (2000, "mangan"), id="kiriage: 4 han 30 fu -> mangan"),
        P(3, 60, 0, KIRIAGE, (2000, "mangan"), id="kiriage: 3 han 60 fu -> mangan"),
        P(4, 40, 0, TENHOU, (2000, "mangan"), id="4 han 40 fu: 2560 capped at mangan"),
        P(3, 70, 0, TENHOU, (2000, "mangan"), id="3 han 70 fu: 2240 capped at mangan"),
        P(5, 30, 0, TENHOU, (2000, "mangan"), id="5 han mangan"),
        P(6, 30, 0, TENHOU, (3000, "haneman"), id="6-7 han haneman"),
        P(7, 30, 0, TENHOU, (3000, "haneman"), id="7 han haneman"),
        P(8, 30, 0, TENHOU, (4000, "baiman"), id="8-10 han baiman"),
        P(10, 30, 0, TENHOU, (4000, "baiman"), id="10 han baiman"),
        P(11, 30, 0, TENHOU, (6000, "sanbaiman"), id="11-12 han sanbaiman"),
        P(12, 30, 0, TENHOU, (6000, "sanbaiman"), id="12 han sanbaiman"),
        P(13, 30, 0, TENHOU, (8000, "yakuman"), id="13 han kazoe yakuman"),
        P(13, 30, 0, KAZOE_SANBAIMAN, (6000, "sanbaiman"), id="kazoe capped at sanbaiman"),
        P(0, 0, 1, TENHOU, (8000, "yakuman"), id="yakuman 8000"),
        P(0, 0, 2, TENHOU, (16000, "yakuman"), id="double yakuman 16000"),
    ],
)
def test_limits(han: int, fu: int, units: int, rs: Any, expected: tuple[int, Any]) -> None:
    assert base_points(han, fu, units, rs) == expected


@pytest.mark.parametrize(
    ("base", "winner", "tsumo", "discarder", "honba", "sticks", "points", "deltas", "announce"),
    [
        P(
            240,
            "S",
            False,
            "W",
            0,
            0,
            1000,
            (0, 1000, -1000, 0),
            "1000",
            id="non-dealer ron 1 han 30 fu: 240*4=960->1000",
        ),
        P(
            240,
            "E",
            False,
            "W",
            0,
            0,
            1500,
            (1500, 0, -1500, 0),
            "1500",
            id="dealer ron 1 han 30 fu: 240*6=1440->1500",
        ),
        P(
            240,
            "S",
            True,
            None,
            0,
            0,
            1100,
            (-500, 1100, -300, -300),
            "300-500",
            id="non-dealer tsumo: dealer 480->500, others 240->300",
        ),
        P(
            240,
            "E",
            True,
            None,
            0,
            0,
            1500,
            (1500, -500, -500, -500),
            "500 all",
            id="dealer tsumo: 480->500 all",
        ),
        P(
            1920,
            "S",
            True,
            None,
            0,
            0,
            7900,
            (-3900, 7900, -2000, -2000),
            "2000-3900",
            id="4 han 30 fu tsumo: 2000-3900 (no kiriage)",
        ),
        P(
            2000,
            "S",
            False,
            "N",
            1,
            0,
            8000,
            (0, 8300, 0, -8300),
            "8000 + 1 honba = 8300",
            id="mangan ron + 1 honba = 8300",
        ),
        P(
            2000,
            "E",
            True,
            None,
            0,
            0,
            12000,
            (12000, -4000, -4000, -4000),
            "4000 all",
            id="dealer mangan tsumo: 4000 all",
        ),
        P(
            2000,
            "E",
            True,
            None,
            2,
            0,
            12000,
            (12600, -4200, -4200, -4200),
            "4000 all + 2 honba = 4200 all",
            id="dealer tsumo 2 honba: 100 per honba each",
        ),
        P(
            2000,
            "W",
            True,
            None,
            1,
            0,
            8000,
            (-4100, -2100, 8300, -2100),
            "2000-4000 + 1 honba = 2100-4100",
            id="non-dealer mangan tsumo + 1 honba",
        ),
        P(
            240,
            "S",
            False,
            "W",
            0,
            2,
            1000,
            (0, 3000, -1000, 0),
            "1000",
            id="two riichi sticks go to the winner",
        ),
    ],
)
def test_payments(
    base: int,
    winner: str,
    tsumo: bool,
    discarder: str | None,
    honba: int,
    sticks: int,
    points: int,
    deltas: tuple[int, ...],
    announce: str,
) -> None:
    p = payout(
        base,
        winner=winner,
        tsumo=tsumo,
        discarder=discarder,
        honba=honba,
        riichi_sticks=sticks,
        rs=TENHOU,
    )
    assert (p.points, p.deltas, p.announce) == (points, deltas, announce)
    assert sum(p.deltas) == sticks * 1000


def test_honba_value_per_ruleset() -> None:
    rs = with_overrides(TENHOU, {"honba_value": 1500})
    p = payout(2000, winner="S", tsumo=False, discarder="W", honba=1, riichi_sticks=0, rs=rs)
    assert p.deltas == (0, 9500, -9500, 0)


DAISANGEN = ("555z666z12m99s", "3m")
DAISANGEN_MELDS = (("pon", "777z", L),)


def test_pao_tsumo_liable_pays_all() -> None:
    # Rule: on tsumo the liable player pays the whole yakuman as if dealing in, honba too
    # (Tenhou corpus: 32000 + 300 from the liable seat).
    res = score(*DAISANGEN, "tsumo", seat="W", melds=DAISANGEN_MELDS, pao="S", honba=1)
    assert res["deltas"] == {"E": 0, "S": -32300, "W": 32300, "N": 0}


def test_pao_ron_split_with_discarder() -> None:
    # Rule: on ron the liable player and the discarder pay half each.
    res = score(*DAISANGEN, "ron", seat="N", discarder="W", melds=DAISANGEN_MELDS, pao="S")
    assert res["deltas"] == {"E": 0, "S": -16000, "W": -16000, "N": 32000}


def test_pao_only_for_the_liable_yakuman() -> None:
    # Daisangen (pao) + tsuuiisou: the liable seat pays daisangen's 32000, tsuuiisou is a
    # normal non-dealer tsumo 8000-16000.
    res = score(
        "666z777z2z",
        "2z",
        "tsumo",
        seat="W",
        melds=(("pon", "555z", L), ("pon", "333z", A)),
        pao="S",
    )
    assert res["yakuman"] == 2
    assert res["deltas"] == {"E": -16000, "S": -40000, "W": 64000, "N": -8000}


def _settle(ruleset: Any, wins: list[dict[str, Any]], honba: int = 1, sticks: int = 1) -> Any:
    for w in wins:
        for k in ("ruleset", "honba", "riichi_sticks", "discarder"):
            w.pop(k, None)
    return api.settle(
        {
            "ruleset": ruleset,
            "honba": honba,
            "riichi_sticks": sticks,
            "discarder": "N",
            "wins": wins,
        }
    )


def _two_rons() -> list[dict[str, Any]]:
    # North deals in; West (1 han 40 fu riichi tanki) and East (pinfu 30) both ron 2p.
    return [
        request("123m567m678s55z34p", "2p", seat="W", flags=RIICHI),
        request("123m567m678s99s34p", "2p", seat="E"),
    ]


def test_double_ron_honba_and_sticks_to_first_in_turn_order() -> None:
    # Turn order after North: East first, then West. East 1 han 30 fu dealer 1500 + 300 + 1000;
    # West 1 han 40 fu (20+10+2 dragon pair=32->40): 1300.
    res = _settle("tenhou", _two_rons())
    assert [r["seat"] for r in res["results"]] == ["E", "W"]
    assert res["results"][0]["deltas"] == {"E": 2800, "S": 0, "W": 0, "N": -1800}
    assert res["results"][1]["deltas"] == {"E": 0, "S": 0, "W": 1300, "N": -1300}
    assert res["deltas"] == {"E": 2800, "S": 0, "W": 1300, "N": -3100}


def test_head_bump_pays_only_the_first() -> None:
    rs = {"base": "tenhou", "overrides": {"multi_ron": "head_bump"}}
    res = _settle(rs, _two_rons())
    assert [r["seat"] for r in res["results"]] == ["E"]
    assert res["deltas"] == {"E": 2800, "S": 0, "W": 0, "N": -1800}


def test_honba_to_each_winner_switch() -> None:
    rs = {"base": "tenhou", "overrides": {"multi_ron_honba_each": True}}
    res = _settle(rs, _two_rons())
    assert res["results"][1]["deltas"] == {"E": 0, "S": 0, "W": 1600, "N": -1600}


def test_triple_ron_is_abortive_under_double() -> None:
    wins = [*_two_rons(), request("123m567m678s99s34p", "2p", seat="S")]
    res = _settle("tenhou", wins)
    assert res["outcome"] == "abortive_draw"
    assert res["results"] == []
    assert res["deltas"] == {"E": 0, "S": 0, "W": 0, "N": 0}


@pytest.mark.parametrize(
    ("ruleset", "outcome"),
    [("jpml-a", "abortive_draw"), ("jpml-b", "abortive_draw"), ("m-league", "head_bump")],
)
def test_triple_ron_under_head_bump_follows_the_abortive_draws(ruleset: str, outcome: str) -> None:
    # Seed 001 line 7 (jpml-a): head bump on a double ron, a triple ron is a re-deal; seed
    # 000 line 9 (jpml-b) lists the triple ron among the abortive draws. m-league has none.
    wins = [*_two_rons(), request("123m567m678s99s34p", "2p", seat="S")]
    res = _settle(ruleset, wins)
    assert res["outcome"] == outcome
    assert len(res["results"]) == (0 if outcome == "abortive_draw" else 1)


def test_nagashi_mangan_paid_as_mangan_tsumo() -> None:
    res = api.score(
        {"ruleset": "tenhou", "flags": ["nagashi_mangan"], "seat_wind": "S", "round_wind": "E"}
    )
    assert res["yaku"] == [{"id": "nagashi_mangan", "han": 5}]
    assert res["deltas"] == {"E": -4000, "S": 8000, "W": -2000, "N": -2000}
    assert res["announce"] == "2000-4000"


@pytest.mark.parametrize(
    ("ruleset", "gain"), [("tenhou", 8000), ("mahjong-soul", 8000), ("tenpane", 9600)]
)
def test_nagashi_mangan_takes_honba_and_sticks_only_as_a_win(ruleset: str, gain: int) -> None:
    # tenhou/mahjong-soul settle nagashi as a draw (game.nagashi_settlement): the counters
    # and sticks stay on the table, as the game replay leaves them; tenpane's is a win
    # (seed 004 line 33): 8000 + 2 honba + 1 stick.
    req = {"ruleset": ruleset, "flags": ["nagashi_mangan"], "seat_wind": "S", "round_wind": "E"}
    res = api.score({**req, "honba": 2, "riichi_sticks": 1})
    assert res["deltas"]["S"] == gain
    assert ("nagashi_as_draw" in [w["code"] for w in res["warnings"]]) == (gain == 8000)


def test_pao_rinshan_after_open_kan_switch() -> None:
    # Rule (Ruleset.pao_rinshan_daiminkan): a rinshan win after an open kan is paid
    # entirely by the kan's discarder, as if they had dealt in. Hand: rinshan + chun with
    # 20+2 tsumo+8 open kan simple+8 closed chun+2 tanki = 40 fu, 2 han: 640 basic,
    # ron value 640*4 = 2560 -> 2600 from the liable West.
    kw: dict[str, Any] = {
        "melds": (("daiminkan", "2222p", A),),
        "flags": ("rinshan",),
        "seat": "S",
        "pao": "W",
    }
    on = {"base": "tenhou", "overrides": {"pao_rinshan_daiminkan": True}}
    res = score("777z123m678s9s", "9s", "tsumo", ruleset=on, **kw)
    assert (res["han"], res["fu"]) == (2, 40)
    assert res["deltas"] == {"E": 0, "S": 2600, "W": -2600, "N": 0}
    off = score("777z123m678s9s", "9s", "tsumo", **kw)  # tenhou: normal tsumo 700-1300
    assert off["deltas"] == {"E": -1300, "S": 2700, "W": -700, "N": -700}
    assert [w["code"] for w in off["warnings"]] == ["pao_ignored"]


@pytest.mark.parametrize(
    ("value", "yaku", "points"),
    [
        P("han5", {"renhou": 5, "seat_wind_south": 1}, 12000, id="renhou han5 adds: 6 han"),
        P("baiman", {"renhou": 8}, 16000, id="renhou baiman replaces a 1-han hand"),
        P("mangan", {"renhou": 5}, 8000, id="renhou mangan replaces a 1-han hand"),
    ],
)
def test_renhou_values(value: str, yaku: dict[str, int], points: int) -> None:
    res = score(
        "123m456p789s11z22z",
        "2z",
        flags=("renhou",),
        ruleset={"base": "tenhou", "overrides": {"renhou": value}},
    )
    assert {y["id"]: y["han"] for y in res["yaku"]} == yaku
    assert res["points"] == points


def test_triple_ron_paid_under_triple_rule() -> None:
    wins = [*_two_rons(), request("123m567m678s99s34p", "2p", seat="S")]
    res = _settle("mahjong-soul", wins)  # multi_ron = "triple"
    assert [r["seat"] for r in res["results"]] == ["E", "S", "W"]
    # East: 1500 + 300 honba + 1000 stick; South (pinfu 1000) and West (1300) plain.
    assert res["deltas"] == {"E": 2800, "S": 1000, "W": 1300, "N": -4100}


def test_settle_single_tsumo_keeps_table_state() -> None:
    win = request("123m567m345p678s9s", "9s", "tsumo", flags=("riichi",))
    for k in ("ruleset", "honba", "riichi_sticks", "discarder"):
        win.pop(k, None)
    res = api.settle({"ruleset": "tenhou", "honba": 2, "riichi_sticks": 1, "wins": [win]})
    # riichi + tsumo, 20+2+2 tanki=24->30 fu, 2 han: 480 basic -> 500-1000, +200 each honba.
    assert res["results"][0]["announce"] == "500-1000 + 2 honba = 700-1200"
    assert res["deltas"] == {"E": -1200, "S": 3600, "W": -700, "N": -700}


KAN_HAND = ("123m567m678s9s", "9s")
KAN_MELDS = (("ankan", "2222p", None),)


@pytest.mark.parametrize(
    ("overrides", "dora", "ura", "expected"),
    [
        P(
            {},
            ("1p", "8s"),
            ("1p", "8s"),
            {"dora": 6, "ura_dora": 6},
            id="kan dora and kan ura: 2p x4 + 9s x2 each",
        ),
        P(
            {"kan_ura_dora": False},
            ("1p", "8s"),
            ("1p", "8s"),
            {"dora": 6, "ura_dora": 4},
            id="no kan ura: only the first ura indicator",
        ),
        P(
            {"kan_dora": False, "kan_ura_dora": False},
            ("8s", "1p"),
            ("8s",),
            {"dora": 2, "ura_dora": 2},
            id="no kan dora: only the first indicator (9s x2)",
        ),
        P({"dora": False}, ("1p",), (), {}, id="dora switched off"),
    ],
)
def test_dora_switches(
    overrides: dict[str, Any],
    dora: tuple[str, ...],
    ura: tuple[str, ...],
    expected: dict[str, int],
) -> None:
    res = score(
        *KAN_HAND,
        melds=KAN_MELDS,
        flags=RIICHI,
        dora=dora,
        ura=ura,
        ruleset={"base": "tenhou", "overrides": overrides},
    )
    got = {y["id"]: y["han"] for y in res["yaku"] if y["id"] in ("dora", "ura_dora")}
    assert got == expected


# The researched rulesets' scoring rules, each as its cited page states it (wrc.toml
# [WRCorg]; mahjong-soul.toml): one figure each that the base default would get wrong.
_FOUR_HAN_THIRTY_FU = {  # riichi, pinfu, dora 2 (the 99p pair): 4 han 30 fu, non-dealer ron
    "closed": "234m45699p123s78s",
    "win_tile": "9s",
    "win": "ron",
    "round_wind": "E",
    "seat_wind": "S",
    "discarder": "W",
    "flags": ["riichi"],
    "dora_indicators": ["8p"],
}


@pytest.mark.parametrize(
    ("ruleset", "points"),
    [("tenhou", 7700), ("wrc", 8000), ("ema", 8000)],
    ids=["tenhou: no kiriage", "wrc: kiriage", "ema: as wrc"],
)
def test_kiriage_per_researched_ruleset(ruleset: str, points: int) -> None:
    res = api.score({"ruleset": ruleset, **_FOUR_HAN_THIRTY_FU})
    assert (res["han"], res["fu"], res["points"]) == (4, 30, points)


def test_wrc_plays_without_red_fives() -> None:
    req = {**_FOUR_HAN_THIRTY_FU, "closed": "234m40699p123s78s"}
    with pytest.raises(Exception) as err:
        api.score({"ruleset": "wrc", **req})
    assert getattr(err.value, "code", None) == "red_five_not_in_ruleset"


@pytest.mark.parametrize(("ruleset", "units"), [("tenhou", 1), ("mahjong-soul", 2)])
def test_thirteen_sided_kokushi_per_researched_ruleset(ruleset: str, units: int) -> None:
    res = api.score(
        {
            "ruleset": ruleset,
            "closed": "19m19p19s1234567z",
            "win_tile": "1m",
            "win": "ron",
            "round_wind": "E",
            "seat_wind": "S",
            "discarder": "W",
        }
    )
    assert (res["yakuman"], res["points"]) == (units, 32000 * units)
