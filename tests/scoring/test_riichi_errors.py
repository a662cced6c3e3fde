"""Invalid input gets a specific error code, never a wrong score; alternatives explain."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import api
from scoring.errors import (
    AgariError,
    InvalidHandError,
    NotationError,
    NotAWinError,
    NoYakuError,
    RequestError,
)
from tests.scoring.riichi_builders import request, score

P = pytest.param
GOOD = ("123m567m345p678s9s", "9s")


def _req(**changes: Any) -> dict[str, Any]:
    req = request(*GOOD, flags=("riichi",))
    req.update(changes)
    return req


@pytest.mark.parametrize(
    ("req", "error", "code"),
    [
        P(
            _req(closed="123m567m345p678s99s"),
            InvalidHandError,
            "too_many_tiles",
            id="too_many_tiles",
        ),
        P(_req(closed="123m567m345p678s"), InvalidHandError, "too_few_tiles", id="too_few_tiles"),
        P(
            _req(closed="1111m567m345p678s", win_tile="1m"),
            InvalidHandError,
            "fifth_copy",
            id="fifth_copy",
        ),
        P(
            _req(dora_indicators=["9s", "9s", "9s"]),
            InvalidHandError,
            "fifth_copy",
            id="fifth_copy counting indicators",
        ),
        P(
            _req(dora_indicators=["1z", "2z", "3z", "4z", "5z", "6z"]),
            InvalidHandError,
            "too_many_indicators",
            id="six dora indicators",
        ),
        P(
            _req(ura_indicators=["1z", "2z", "3z", "4z", "5z", "6z"]),
            InvalidHandError,
            "too_many_indicators",
            id="six ura indicators",
        ),
        P(
            {k: v for k, v in _req().items() if k != "win_tile"},
            InvalidHandError,
            "missing_win_tile",
            id="missing_win_tile",
        ),
        P(
            _req(
                closed="123m567m9s",
                melds=[
                    {"kind": "chi", "tiles": "345p", "from": "left"},
                    {"kind": "chi", "tiles": "678s", "from": "left"},
                ],
            ),
            InvalidHandError,
            "riichi_open_hand",
            id="riichi_open_hand",
        ),
        P(
            _req(flags=["ippatsu"]),
            InvalidHandError,
            "ippatsu_without_riichi",
            id="ippatsu_without_riichi",
        ),
        P(
            _req(win="tsumo", flags=["riichi", "chankan"], discarder=None),
            InvalidHandError,
            "chankan_on_tsumo",
            id="chankan_on_tsumo",
        ),
        P(_req(flags=[]), NoYakuError, "no_yaku", id="no_yaku (riichi-less tanki hand)"),
        P(
            _req(
                closed="123m567m340p678s9s",
                dora_indicators=["0p"],
                ruleset={"base": "tenhou", "overrides": {"red_fives": {"p": 1}}},
            ),
            InvalidHandError,
            "red_five_not_in_ruleset",
            id="two red 5p (hand and indicator), ruleset has one",
        ),
        P(
            _req(
                closed="123m567m340p678s9s",
                ruleset={"base": "tenhou", "overrides": {"red_fives": {}}},
            ),
            InvalidHandError,
            "red_five_not_in_ruleset",
            id="red five in a no-red ruleset",
        ),
        P(_req(closed="123m567m345p679s9s"), NotAWinError, "not_a_win", id="not_a_win"),
        P(_req(bogus=1), RequestError, "unknown_field", id="unknown field"),
        P(_req(flags=["riichi", "yolo"]), RequestError, "unknown_flag", id="unknown flag"),
        P(_req(win="dama"), RequestError, "bad_win", id="bad win"),
        P(_req(discarder=None), RequestError, "missing_discarder", id="ron without discarder"),
        P(_req(discarder="S"), InvalidHandError, "ron_from_self", id="ron from self"),
        P(_req(closed="123m567m345p678x"), NotationError, "bad_notation", id="bad notation"),
        P(_req(win_tile="8z"), NotationError, "bad_notation", id="no tile 8z"),
        P(
            _req(
                closed="123m567m9s",
                melds=[
                    {"kind": "chi", "tiles": "357p", "from": "left"},
                    {"kind": "pon", "tiles": "678s", "from": "left"},
                ],
                flags=[],
            ),
            NotationError,
            "bad_meld",
            id="chi that is not a run",
        ),
        P(
            _req(
                closed="123m567m345p9s",
                melds=[{"kind": "chi", "tiles": "678s", "from": "across"}],
                flags=[],
            ),
            NotationError,
            "bad_meld",
            id="chi from across",
        ),
        P(
            _req(win="tsumo", discarder=None, flags=["houtei"]),
            InvalidHandError,
            "houtei_on_tsumo",
            id="houtei on tsumo",
        ),
        P(
            _req(flags=["tenhou"]),
            InvalidHandError,
            "tenhou_not_dealer_tsumo",
            id="tenhou by a non-dealer ron",
        ),
        P(
            _req(flags=["riichi", "double_riichi"]),
            InvalidHandError,
            "riichi_and_double_riichi",
            id="riichi and double riichi",
        ),
        P(
            _req(win="tsumo", discarder=None, flags=["rinshan"]),
            InvalidHandError,
            "rinshan_without_kan",
            id="rinshan without a kan",
        ),
        P(_req(pao="S"), InvalidHandError, "pao_is_winner", id="winner liable"),
        P(_req(honba=-1), RequestError, "bad_count", id="negative honba"),
        P(_req(ruleset="nope"), AgariError, "unknown_ruleset", id="unknown ruleset"),
        P(
            {
                **_req(flags=["nagashi_mangan"]),
                "ruleset": {"base": "tenhou", "overrides": {"nagashi_mangan": False}},
                "win": "tsumo",
                "discarder": None,
            },
            InvalidHandError,
            "nagashi_not_in_ruleset",
            id="nagashi off in ruleset",
        ),
    ],
)
def test_invalid_input_has_a_code(req: dict[str, Any], error: type, code: str) -> None:
    with pytest.raises(error) as info:
        api.score(req)
    assert info.value.code == code


def test_min_han_counts_yaku_without_dora() -> None:
    rs = {"base": "tenhou", "overrides": {"min_han": 2}}
    with pytest.raises(NoYakuError) as info:
        score(*GOOD, flags=("riichi",), dora=("8s",), ruleset=rs)
    assert info.value.code == "below_min_han"


def test_alternatives_say_why_they_lose() -> None:
    # 112233m556677p99s: ryanpeikou (3 han 40 fu) beats chiitoitsu (2 han 25 fu).
    res = score("112233m556677p9s", "9s")
    alts = res["alternatives"]
    assert [a["yaku"] for a in alts] == [[{"id": "chiitoitsu", "han": 2}]]
    assert alts[0]["why"].startswith("pays less")
    assert res["reading"].startswith("pair 99s")


def test_wait_choice_picks_the_reading_worth_more() -> None:
    # 11m 12345m + 3m: 3m closes 345m (ryanmen: pinfu, 2 han 30 fu = 480 basic) or 123m
    # (penchan: riichi only, 1 han 40 fu = 320 basic). The pinfu reading is paid.
    res = score("11m456p789s12345m", "3m", flags=("riichi",))
    assert (res["han"], res["fu"]) == (2, 30)
    assert {y["id"] for y in res["yaku"]} == {"riichi", "pinfu"}
    [alt] = res["alternatives"]
    assert (alt["han"], alt["fu"]) == (1, 40)
    assert "wait penchan" in alt["reading"]
    assert alt["why"] == "pays less: 320 basic points against 480"


def test_bad_line_does_not_change_anything() -> None:
    req = _req()
    before = dict(req)
    with pytest.raises(AgariError):
        api.score({**req, "closed": "1"})
    assert req == before


TSUMO = {"win": "tsumo", "discarder": None}
KAN_OPEN = [{"kind": "daiminkan", "tiles": "2222p", "from": "across"}]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        P({"flags": ["haitei"]}, "haitei_on_ron", id="haitei on ron"),
        P({"flags": ["rinshan"]}, "rinshan_on_ron", id="rinshan on ron"),
        P(
            {
                **TSUMO,
                "closed": "123m567m678s9s",
                "melds": KAN_OPEN,
                "flags": ["haitei", "rinshan"],
            },
            "haitei_and_rinshan",
            id="haitei and rinshan",
        ),
        P({"flags": ["chankan", "houtei"]}, "chankan_and_houtei", id="chankan and houtei"),
        P(
            {
                **TSUMO,
                "closed": "123m567m678s9s",
                "melds": [{"kind": "ankan", "tiles": "2222p"}],
                "flags": ["riichi", "ippatsu", "rinshan"],
            },
            "ippatsu_and_rinshan",
            id="ippatsu on a rinshan tsumo",
        ),
        P(
            {**TSUMO, "seat_wind": "E", "flags": ["chiihou"]},
            "chiihou_not_nondealer_tsumo",
            id="chiihou by the dealer",
        ),
        P(
            {"seat_wind": "E", "flags": ["renhou"]},
            "renhou_not_nondealer_ron",
            id="renhou by the dealer",
        ),
        P(
            {
                **TSUMO,
                "seat_wind": "E",
                "closed": "123m567m678s9s",
                "melds": KAN_OPEN,
                "flags": ["tenhou"],
            },
            "tenhou_with_melds",
            id="tenhou with a call",
        ),
        P(
            {**TSUMO, "seat_wind": "E", "flags": ["tenhou", "riichi"]},
            "first_turn_win_with_riichi",
            id="tenhou with riichi",
        ),
        P({**TSUMO, "discarder": "W"}, "tsumo_with_discarder", id="tsumo with a discarder"),
    ],
)
def test_contradictions(changes: dict[str, Any], code: str) -> None:
    req = request(*GOOD)
    req.update(changes)
    if req.get("discarder") is None:
        req.pop("discarder", None)
    with pytest.raises(InvalidHandError) as info:
        api.score(req)
    assert info.value.code == code


def _win(seat: str, win: str = "ron") -> dict[str, Any]:
    w = request("123m567m678s99s34p", "2p", win, seat=seat)
    for k in ("ruleset", "honba", "riichi_sticks", "discarder"):
        w.pop(k, None)
    return w


@pytest.mark.parametrize(
    ("wins", "code"),
    [
        P([_win("E"), _win("E")], "duplicate_winner", id="same seat twice"),
        P([_win("E", "tsumo"), _win("S", "tsumo")], "multi_tsumo", id="two tsumo"),
        # Wins on one discard share the round, the discard, the indicators and one set.
        P([_win("E"), {**_win("S"), "round_wind": "S"}], "inconsistent_wins", id="two rounds"),
        P(
            [_win("E"), {**_win("S"), "closed": "123m567m678s99s23p", "win_tile": "4p"}],
            "inconsistent_wins",
            id="two discarded tiles",
        ),
        P([_win("E"), {**_win("S"), "dora_indicators": ["1z"]}], "inconsistent_wins", id="dora"),
        P(
            [
                {**_win("E"), "flags": ["riichi"], "ura_indicators": ["1z"]},
                {**_win("S"), "flags": ["riichi"], "ura_indicators": ["2z"]},
            ],
            "inconsistent_wins",
            id="ura",
        ),
        P([_win("E"), _win("S"), _win("W")], "fifth_copy", id="six 9s in three hands"),
    ],
)
def test_settle_rejects_impossible_tables(wins: list[dict[str, Any]], code: str) -> None:
    table: dict[str, Any] = {"ruleset": "tenhou", "wins": wins}
    if wins[0]["win"] == "ron":
        table["discarder"] = "N"
    with pytest.raises(InvalidHandError) as info:
        api.settle(table)
    assert info.value.code == code


def test_settle_ura_only_for_the_riichi_winner() -> None:
    # Only a riichi winner turns the ura over: the other win on the discard gives none.
    riichi = {**_win("E"), "flags": ["riichi"], "ura_indicators": ["1z"]}
    res = api.settle({"ruleset": "tenhou", "discarder": "N", "wins": [riichi, _win("S")]})
    assert sorted(r["seat"] for r in res["results"]) == ["E", "S"]


def test_settle_without_a_ruleset_says_which_it_assumed() -> None:
    res = api.settle({"discarder": "N", "wins": [_win("E")]})
    assert any("tenhou" in w["message"] for w in res["results"][0]["warnings"])
    named = api.settle({"ruleset": "tenhou", "discarder": "N", "wins": [_win("E")]})
    assert not any("ruleset" in w["message"] for w in named["results"][0]["warnings"])


def test_settle_unknown_field_in_a_win() -> None:
    win = {**_win("E"), "honba": 1}  # table fields belong to the settle object
    with pytest.raises(RequestError) as info:
        api.settle({"ruleset": "tenhou", "discarder": "N", "wins": [win]})
    assert info.value.code == "unknown_field"
