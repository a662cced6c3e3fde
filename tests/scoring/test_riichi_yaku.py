"""Every yaku, with the expected figures worked out by hand from the rules.

Conventions: seat South, round East, ron from the winner's right unless stated; ruleset
``tenhou``. Fu are written out in each comment (base 20, closed ron +10, tsumo +2, sets,
pair, wait, round up); points from basic points = fu x 2^(han+2) x 4 (ron) rounded up to
100, capped at mangan (5 han or basic > 2000).
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import api
from scoring.errors import NoYakuError
from scoring.yaku import REGISTRY
from tests.scoring.riichi_builders import score, yaku_of

P = pytest.param
L, A, R = "left", "across", "right"

YAKU_CASES = [
    # id, closed, win, kwargs, expected yaku, han, fu, points
    P(
        "123m567m345p678s9s",
        "9s",
        {"win": "tsumo"},
        {"menzen_tsumo": 1},
        1,
        30,
        1100,
        id="menzen_tsumo: 20+2 tsumo+2 tanki=24->30; 300-500",
    ),
    P(
        "123m567m345p678s9s",
        "9s",
        {"flags": ("riichi",)},
        {"riichi": 1},
        1,
        40,
        1300,
        id="riichi: 20+10+2 tanki=32->40",
    ),
    P(
        "123m567m345p678s9s",
        "9s",
        {"flags": ("riichi", "ippatsu")},
        {"riichi": 1, "ippatsu": 1},
        2,
        40,
        2600,
        id="ippatsu: 2 han 40 fu",
    ),
    P(
        "123m567m345p678s9s",
        "9s",
        {"flags": ("double_riichi",)},
        {"double_riichi": 2},
        2,
        40,
        2600,
        id="double_riichi: 2 han, supersedes riichi",
    ),
    P(
        "123m567m345p9s",
        "9s",
        {"melds": (("chi", "678s", L),), "flags": ("chankan",)},
        {"chankan": 1},
        1,
        30,
        1000,
        id="chankan open: 20+2 tanki=22->30",
    ),
    P(
        "123m567m678s9s",
        "9s",
        {"win": "tsumo", "melds": (("ankan", "2222p", None),), "flags": ("rinshan",)},
        {"rinshan": 1, "menzen_tsumo": 1},
        2,
        40,
        2700,
        id="rinshan: 20+2+16 ankan simple+2 tanki=40; 700-1300",
    ),
    P(
        "123m567m345p9s",
        "9s",
        {"win": "tsumo", "melds": (("chi", "678s", L),), "flags": ("haitei",)},
        {"haitei": 1},
        1,
        30,
        1100,
        id="haitei open tsumo 22->30",
    ),
    P(
        "123m567m345p9s",
        "9s",
        {"melds": (("chi", "678s", L),), "flags": ("houtei",)},
        {"houtei": 1},
        1,
        30,
        1000,
        id="houtei open ron 22->30",
    ),
    P("123m567m678s99s34p", "2p", {}, {"pinfu": 1}, 1, 30, 1000, id="pinfu ron: flat 30 fu"),
    P(
        "234m567m22p66s",
        "2p",
        {"melds": (("chi", "678s", L),)},
        {"tanyao": 1},
        1,
        30,
        1000,
        id="open tanyao: 20+2 ron-completed 222p=22->30",
    ),
    P(
        "112233m456p789s5s",
        "5s",
        {},
        {"iipeikou": 1},
        1,
        40,
        1300,
        id="iipeikou: 20+10+2 tanki=32->40",
    ),
    P(
        "112233m556677p9s",
        "9s",
        {},
        {"ryanpeikou": 3},
        3,
        40,
        5200,
        id="ryanpeikou beats chiitoitsu: 20+10+2=32->40",
    ),
    P(
        "222z123m456p789s5s",
        "5s",
        {},
        {"seat_wind_south": 1},
        1,
        40,
        1300,
        id="seat wind south: 20+10+8+2=40",
    ),
    P("111z123m456p789s5s", "5s", {}, {"round_wind_east": 1}, 1, 40, 1300, id="round wind east"),
    P(
        "444z123m456p789s5s",
        "5s",
        {"seat": "N", "round_wind": "S"},
        {"seat_wind_north": 1},
        1,
        40,
        1300,
        id="seat wind north",
    ),
    P(
        "333z123m456p789s5s",
        "5s",
        {"seat": "W"},
        {"seat_wind_west": 1},
        1,
        40,
        1300,
        id="seat wind west",
    ),
    P(
        "222z123m456p789s5s",
        "5s",
        {"seat": "E", "round_wind": "S"},
        {"round_wind_south": 1},
        1,
        40,
        2000,
        id="round wind south, dealer: 1920->2000",
    ),
    P(
        "444z123m456p789s5s",
        "5s",
        {"round_wind": "N"},
        {"round_wind_north": 1},
        1,
        40,
        1300,
        id="round wind north",
    ),
    P(
        "333z123m456p789s5s",
        "5s",
        {"seat": "E", "round_wind": "W"},
        {"round_wind_west": 1},
        1,
        40,
        2000,
        id="round wind west, dealer: 40fu*8*6=1920->2000",
    ),
    P(
        "111z123m456p789s5s",
        "5s",
        {"seat": "E"},
        {"seat_wind_east": 1, "round_wind_east": 1},
        2,
        40,
        3900,
        id="double east: 2 han 40 fu dealer 3840->3900",
    ),
    P("555z123m456p789s5s", "5s", {}, {"haku": 1}, 1, 40, 1300, id="haku"),
    P("666z123m456p789s5s", "5s", {}, {"hatsu": 1}, 1, 40, 1300, id="hatsu"),
    P("777z123m456p789s5s", "5s", {}, {"chun": 1}, 1, 40, 1300, id="chun"),
    P(
        "1122m3344p5566s7z",
        "7z",
        {},
        {"chiitoitsu": 2},
        2,
        25,
        1600,
        id="chiitoitsu: 25 fu x16 x4 = 1600",
    ),
    P(
        "123m789m789p11z12s",
        "3s",
        {},
        {"chanta": 2},
        2,
        40,
        2600,
        id="chanta: 20+10+2 round-wind pair+2 penchan=34->40",
    ),
    P(
        "123m789m789p11s12s",
        "3s",
        {},
        {"junchan": 3},
        3,
        40,
        5200,
        id="junchan supersedes chanta: 32->40",
    ),
    P("123456789m12p55s", "3p", {}, {"ittsu": 2}, 2, 40, 2600, id="ittsu closed, penchan"),
    P(
        "456789m12p55s",
        "3p",
        {"melds": (("chi", "123m", L),)},
        {"ittsu": 1},
        1,
        30,
        1000,
        id="ittsu open 1 han: 20+2 penchan=22->30",
    ),
    P(
        "234m234p67p55s",
        "8p",
        {"melds": (("chi", "234s", L),)},
        {"sanshoku_doujun": 1, "tanyao": 1},
        2,
        30,
        2000,
        id="sanshoku open + tanyao: no fu, open ron 30",
    ),
    P(
        "222m222p22s345m55p",
        "2s",
        {},
        {"sanshoku_doukou": 2, "tanyao": 1},
        3,
        40,
        5200,
        id="sanshoku doukou: 20+10+4+4+2 (ron 222s open)=40",
    ),
    P(
        "567m9s",
        "9s",
        {"melds": (("ankan", "2222m", None), ("daiminkan", "3333p", A), ("ankan", "4444s", None))},
        {"sankantsu": 2},
        2,
        70,
        4500,
        id="sankantsu: 20+16+8+16+2 tanki=62->70; 1120*4=4480->4500",
    ),
    P(
        "444s77s99m",
        "7s",
        {"melds": (("pon", "222m", L), ("pon", "333p", A))},
        {"toitoi": 2},
        2,
        30,
        2000,
        id="toitoi: 20+2+2+4+2 (777s by ron)=30",
    ),
    P(
        "222m333p444s567m9s",
        "9s",
        {},
        {"sanankou": 2},
        2,
        50,
        3200,
        id="sanankou: 20+10+4+4+4+2=44->50",
    ),
    P(
        "222m333p44s567m99s",
        "4s",
        {"flags": ("riichi",)},
        {"riichi": 1},
        1,
        40,
        1300,
        id="no sanankou when ron completes the third triplet: 20+10+4+4+2=40",
    ),
    P(
        "555z666z77z234m55s",
        "5s",
        {},
        {"haku": 1, "hatsu": 1, "shousangen": 2},
        4,
        50,
        8000,
        id="shousangen: 20+10+8+8+2 dragon pair+2 (555s by ron)=50, 4 han 50 fu = mangan",
    ),
    P(
        "555z666z77z123m99s",
        "9s",
        {},
        {"haku": 1, "hatsu": 1, "shousangen": 2, "chanta": 2},
        6,
        60,
        12000,
        id="shousangen with chanta: 6 han haneman",
    ),
    P(
        "111m999p111s11z99m",
        "9m",
        {},
        {"honroutou": 2, "toitoi": 2, "sanankou": 2},
        6,
        60,
        12000,
        id="honroutou+toitoi+sanankou = 6 han haneman",
    ),
    P(
        "123m345m678m99m44z",
        "4z",
        {},
        {"honitsu": 3},
        3,
        40,
        5200,
        id="honitsu closed: 20+10+4 (444z by ron)=34->40",
    ),
    P(
        "123m345m567m789m8m",
        "8m",
        {},
        {"chinitsu": 6},
        6,
        40,
        12000,
        id="chinitsu supersedes honitsu: 6 han haneman",
    ),
]


@pytest.mark.parametrize(("closed", "win", "kw", "yaku", "han", "fu", "points"), YAKU_CASES)
def test_yaku(
    closed: str,
    win: str,
    kw: dict[str, Any],
    yaku: dict[str, int],
    han: int,
    fu: int,
    points: int,
) -> None:
    res = score(closed, win, **kw)
    assert yaku_of(res) == yaku
    assert (res["han"], res["fu"], res["points"]) == (han, fu, points)
    assert sum(d["fu"] for d in res["fu_details"]) == res["fu"]


YAKUMAN_CASES = [
    # closed, win, kwargs, expected yakuman ids, units, points (non-dealer unless stated)
    P("119m19p19s123456z", "7z", {}, {"kokushi"}, 1, 32000, id="kokushi"),
    P(
        "19m19p19s1234567z",
        "1m",
        {},
        {"kokushi_13_wait"},
        1,
        32000,
        id="kokushi 13-wait single in tenhou",
    ),
    P(
        "19m19p19s1234567z",
        "1m",
        {"ruleset": {"base": "tenhou", "overrides": {"double_yakuman": True}}},
        {"kokushi_13_wait"},
        2,
        64000,
        id="kokushi 13-wait double with double_yakuman",
    ),
    P(
        "222m333p444s55z66z",
        "6z",
        {"win": "tsumo"},
        {"suuankou"},
        1,
        32000,
        id="suuankou tsumo: 8000-16000",
    ),
    P("222m333p444s777m5z", "5z", {}, {"suuankou_tanki"}, 1, 32000, id="suuankou tanki"),
    P("555z666z777z12m99s", "3m", {}, {"daisangen"}, 1, 32000, id="daisangen"),
    P("111z222z333z44z12m", "3m", {}, {"shousuushii"}, 1, 32000, id="shousuushii"),
    P(
        "111z222z333z444z5m",
        "5m",
        {},
        {"daisuushii", "suuankou_tanki"},
        2,
        64000,
        id="daisuushii + suuankou tanki stack: 2 yakuman",
    ),
    P(
        "555z666z777z2z",
        "2z",
        {"melds": (("pon", "111z", L),)},
        {"daisangen", "tsuuiisou"},
        2,
        64000,
        id="daisangen + tsuuiisou stack",
    ),
    P(
        "555z666z777z2z",
        "2z",
        {
            "melds": (("pon", "111z", L),),
            "ruleset": {"base": "tenhou", "overrides": {"yakuman_stacking": False}},
        },
        {"daisangen"},
        1,
        32000,
        id="no yakuman stacking: one yakuman counts",
    ),
    P(
        "222z555z666z7z",
        "7z",
        {"melds": (("pon", "111z", L),)},
        {"tsuuiisou"},
        1,
        32000,
        id="tsuuiisou",
    ),
    P("234s234s666s88s66z", "6z", {}, {"ryuuiisou"}, 1, 32000, id="ryuuiisou with hatsu"),
    P(
        "234s234s666s888s2s",
        "2s",
        {"melds": ()},
        {"ryuuiisou"},
        1,
        32000,
        id="ryuuiisou without hatsu (tenhou allows it)",
    ),
    P(
        "999m111p999p1s",
        "1s",
        {"melds": (("pon", "111m", L),)},
        {"chinroutou"},
        1,
        32000,
        id="chinroutou",
    ),
    P(
        "1112345678999m",
        "5m",
        {},
        {"junsei_chuuren_poutou"},
        1,
        32000,
        id="junsei chuuren (9-sided wait), single in tenhou",
    ),
    P("1112345678899m", "9m", {}, {"chuuren_poutou"}, 1, 32000, id="chuuren poutou"),
    P(
        "5p",
        "5p",
        {
            "melds": (
                ("ankan", "1111m", None),
                ("ankan", "2222p", None),
                ("ankan", "3333s", None),
                ("daiminkan", "4444m", R),
            )
        },
        {"suukantsu"},
        1,
        32000,
        id="suukantsu",
    ),
    P(
        "123m456p789s11z22z",
        "2z",
        {"win": "tsumo", "seat": "E", "flags": ("tenhou",)},
        {"tenhou"},
        1,
        48000,
        id="tenhou: dealer 16000 all",
    ),
    P(
        "123m456p789s11z22z",
        "2z",
        {"win": "tsumo", "flags": ("chiihou",)},
        {"chiihou"},
        1,
        32000,
        id="chiihou: 8000-16000",
    ),
    P(
        "123m456p789s11z22z",
        "2z",
        {"flags": ("renhou",), "ruleset": {"base": "tenhou", "overrides": {"renhou": "yakuman"}}},
        {"renhou"},
        1,
        32000,
        id="renhou as yakuman",
    ),
]


@pytest.mark.parametrize(("closed", "win", "kw", "ids", "units", "points"), YAKUMAN_CASES)
def test_yakuman(
    closed: str, win: str, kw: dict[str, Any], ids: set[str], units: int, points: int
) -> None:
    res = score(closed, win, **kw)
    assert set(yaku_of(res)) == ids
    assert res["yakuman"] == units
    assert res["limit"] == "yakuman"
    assert res["points"] == points


def test_ryuuiisou_needs_hatsu_switch() -> None:
    # All-green without hatsu is only chinitsu + tanyao-free... when the rule demands hatsu.
    res = score(
        "234s234s666s888s2s",
        "2s",
        ruleset={"base": "tenhou", "overrides": {"ryuuiisou_needs_hatsu": True}},
    )
    assert res["yakuman"] == 0
    assert "ryuuiisou" not in yaku_of(res)
    assert yaku_of(res)["chinitsu"] == 6


@pytest.mark.parametrize(
    ("closed", "win", "ryuuiisou"),
    [
        ("234s234s666s888s6z", "6z", False),  # hatsu as the pair: not "a pon of hatsu"
        ("234s234s666s666z8s", "8s", True),  # hatsu as a triplet
    ],
    ids=["hatsu pair", "hatsu triplet"],
)
def test_ryuuiisou_hatsu_triplet_switch(closed: str, win: str, ryuuiisou: bool) -> None:
    # jpml-a (seed 001 line 12): ryuuiisou must contain a pon of hatsu.
    res = score(closed, win, ruleset="jpml-a")
    assert ("ryuuiisou" in yaku_of(res)) == ryuuiisou
    assert score(closed, win, ruleset="tenhou")["yakuman"] == 1  # hatsu anywhere, or none


def test_open_tanyao_switch() -> None:
    kw: dict[str, Any] = {"melds": (("chi", "678s", L),)}
    with pytest.raises(NoYakuError):
        score(
            "234m567m22p66s",
            "2p",
            ruleset={"base": "tenhou", "overrides": {"open_tanyao": False}},
            **kw,
        )


def test_renhou_none_in_tenhou_is_ignored_with_warning() -> None:
    res = score("123m456p789s11z22z", "2z", flags=("renhou",))
    assert "renhou" not in yaku_of(res)
    assert [w["code"] for w in res["warnings"]] == ["renhou_ignored"]


def test_renhou_mangan_replaces_a_cheaper_hand() -> None:
    res = score(
        "123m456p789s11z22z",
        "2z",
        flags=("renhou",),
        ruleset={"base": "tenhou", "overrides": {"renhou": "mangan"}},
    )
    assert yaku_of(res) == {"renhou": 5}
    assert (res["limit"], res["points"]) == ("mangan", 8000)


@pytest.mark.parametrize(
    ("dora", "ura", "flags", "expected"),
    [
        P(("4p",), (), (), {"dora": 3}, id="dora: indicator 4p -> three 5p"),
        P(("4p", "8s"), (), (), {"dora": 4}, id="kan dora indicator counts too (one 9s)"),
        P(("6m",), (), (), {}, id="no dora in hand (7m absent)"),
        P((), ("4p",), ("riichi",), {"ura_dora": 3, "riichi": 1}, id="ura dora after riichi"),
    ],
)
def test_dora_counts(
    dora: tuple[str, ...], ura: tuple[str, ...], flags: tuple[str, ...], expected: dict[str, int]
) -> None:
    # 555z is haku (1 han) so the hand always has a yaku; 5p is the pair (and in 456p).
    res = score("555z123m456p789s5p", "5p", dora=dora, ura=ura, flags=flags)
    got = yaku_of(res)
    got.pop("haku")
    assert got == expected


@pytest.mark.parametrize(
    ("indicator", "dora_tile"),
    [
        P("9m", "1m", id="9m wraps to 1m"),
        P("4z", "1z", id="north wraps to east"),
        P("7z", "5z", id="chun wraps to haku"),
        P("3z", "4z", id="west -> north"),
        P("6z", "7z", id="hatsu -> chun"),
    ],
)
def test_dora_indicator_wraps(indicator: str, dora_tile: str) -> None:
    # Dora counts every copy: a triplet of the dora tile is 3 dora (chun hand, 1 han).
    closed = "777z234m456p" + ("111m" if dora_tile == "1m" else dora_tile[0] * 3 + "z")
    if dora_tile == "7z":
        closed = "777z234m456p111s"
    res = score(closed + "5s", "5s", dora=(indicator,))
    assert yaku_of(res).get("dora") == 3


def test_red_fives_count_as_aka_dora() -> None:
    res = score("555z123m406p789s5s", "5s")
    assert yaku_of(res) == {"haku": 1, "aka_dora": 1}


def test_ura_without_riichi_is_ignored_with_warning() -> None:
    res = score("555z123m456p789s5p", "5p", ura=("4p",))
    assert "ura_dora" not in yaku_of(res)
    assert [w["code"] for w in res["warnings"]] == ["ura_ignored"]


def test_every_registered_yaku_has_a_hand_written_case() -> None:
    covered: set[str] = set()
    for case in YAKU_CASES + YAKUMAN_CASES:
        covered |= set(case.values[3])
    assert {d.id for d in REGISTRY} <= covered


def test_renhou_mangan_is_a_win_on_its_own() -> None:
    # 123m 567m 345p 678s + 9s tanki has no yaku at all; renhou (mangan rule) makes it 8000.
    res = score(
        "123m567m345p678s9s",
        "9s",
        flags=("renhou",),
        ruleset={"base": "tenhou", "overrides": {"renhou": "mangan"}},
    )
    assert (yaku_of(res), res["points"]) == ({"renhou": 5}, 8000)


@pytest.mark.parametrize(
    ("ruleset", "warned"), [("tenhou", False), ("m-league", True), ("wsom", True)]
)
def test_kokushi_robbing_a_kan_is_named_where_no_closed_kan_may_be_robbed(
    ruleset: str, warned: bool
) -> None:
    # m-league (seed 002 line 7) and wsom (WSOM.md §4) let no hand rob a closed kan, kokushi
    # included; a request cannot say which kind of kan was robbed, so the win is named.
    res = api.score(
        {
            "ruleset": ruleset,
            "closed": "19m19p19s1234566z",
            "win_tile": "7z",
            "win": "ron",
            "round_wind": "E",
            "seat_wind": "S",
            "discarder": "W",
            "flags": ["chankan"],
        }
    )
    codes = [w["code"] for w in res["warnings"]]
    assert ("chankan_closed_kan" in codes) == warned
