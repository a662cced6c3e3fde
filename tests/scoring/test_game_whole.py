"""One whole game per seed ruleset, replayed from the first hand to the final standings.

Every figure was worked out by hand; the comment beside each hand shows the arithmetic
(scores listed E S W N, players named by their starting seat, E = starting dealer).
"""

from __future__ import annotations

from typing import Any

from scoring.api import replay_game
from tests.scoring.game_builders import draw, ron, tsumo


def scores_of(game: dict[str, Any]) -> list[tuple[str, list[int]]]:
    return [(f"{h['round']}-{h['honba']}", list(h["scores"].values())) for h in game["hands"]]


def results_of(game: dict[str, Any]) -> dict[str, float]:
    return {row["seat"]: row["result"] for row in game["standings"]}


def test_jpml_a_whole_game() -> None:
    hands = [
        tsumo("E", 2000),  # E1-0 dealer 2000 all: E 36000, others 28000; E repeats
        draw("S", riichi=["S"]),  # E1-1 S riichi 27000, tenpai alone +3000: S 30000,
        # E 35000, W 27000, N 27000; pot 1000; dealer noten -> passes, honba 2
        ron("W", "E", 3900),  # E2-2 E pays 3900+600: E 30500; W 27000+4500+1000 = 32500
        tsumo("N", [1000, 2000]),  # E3-0 dealer W pays 2000, E S 1000: N 31000, W 30500,
        # E 29500, S 29000
        {"result": "abortive", "kind": "four_winds"},  # E4-0 N keeps the deal, honba 1
        draw(),  # E4-1 nobody tenpai: deal passes, honba 2
        draw("E", "W", riichi=["E", "W"]),  # S1-2 E 28500 W 29500, +1500 each: E 30000,
        # W 31000, S 27500, N 29500; pot 2000; E tenpai repeats
        ron("E", "N", 12000),  # S1-3 N pays 12000+900: N 16600; E 30000+12900+2000 = 44900
        ron("S", "E", 1000),  # S1-4 E pays 1000+1200: E 42700, S 29700
        ron("N", "W", 8000),  # S2-0 N 24600, W 23000
        draw("W"),  # S3-0 W +3000 = 26000; E 41700 S 28700 N 23600; W repeats
        tsumo("E", [2000, 3900]),  # S3-1 W pays 4000, S N 2100: E 49900 W 22000 S 26600
        # N 21500
        tsumo("N", 4000),  # S4-0 N 4000 all: N 33500, E 45900, S 22600, W 18000;
        # jpml-a has no all-last stop (seed 001 line 16): N repeats
        draw("S"),  # S4-1 S +3000 = 25600, E 44900 W 17000 N 32500; dealer noten: the end
    ]
    game = replay_game({"ruleset": "jpml-a", "hands": hands})
    assert scores_of(game)[0] == ("E1-0", [36000, 28000, 28000, 28000])
    assert scores_of(game)[7] == ("S1-3", [44900, 27500, 31000, 16600])
    assert game["final_scores"] == {"E": 44900, "S": 25600, "W": 17000, "N": 32500}
    assert game["ended"] == "scheduled"
    assert game["hands"][12]["next"] == "S4-1"
    # Two above 30000 (E, N): +8/+4/-4/-8.
    # E 14.9+8 = 22.9; N 2.5+4 = 6.5; S -4.4-4 = -8.4; W -13-8 = -21.
    assert results_of(game) == {"E": 22.9, "N": 6.5, "S": -8.4, "W": -21}


def test_jpml_b_whole_game() -> None:
    hands = [
        ron("S", "N", 5200),  # E1-0 S 30200, N 19800
        {"result": "chombo", "seat": "W"},  # E2-0 no payments (seed 000 line 10): replayed
        ron("S", "E", 2900),  # E2-0 dealer S 33100, E 22100; S repeats
        draw("W", "N"),  # E2-1 W N +1500, E S -1500: E 20600 S 31600 W 26500 N 21300
        ron("N", "W", 8000, riichi=["W"]),  # E3-2 W 25500 then pays 8600: W 16900;
        # N 21300+8600+1000 = 30900
        {"result": "abortive", "kind": "nine_terminals"},  # E4-0 +1 honba (line 9)
        tsumo("N", 2600),  # E4-1 2700 each: N 39000, E 17900 S 28900 W 14200
        ron("E", "W", 3900),  # E4-2 W pays 4500: E 22400, W 9700
        draw("E"),  # S1-0 E +3000 = 25400; S 27900 W 8700 N 38000; E repeats
        tsumo("S", [700, 1300]),  # S1-1 E pays 1400, W N 800: S 30900 E 24000 W 7900 N 37200
        ron("W", "N", 12000),  # S2-0 W 19900, N 25200
        ron("N", "E", 7700),  # S3-0 N 32900, E 16300
        tsumo("N", 1300),  # S4-0 N 36800, E 15000 S 29600 W 18600: the dealer wins and
        # leads -> the game ends (seed 000 line 19)
    ]
    game = replay_game({"ruleset": "jpml-b", "hands": hands})
    assert scores_of(game)[1] == ("E2-0", [25000, 30200, 25000, 19800])
    assert game["hands"][1]["next"] == "E2-0"  # a chombo replays the hand
    assert game["final_scores"] == {"E": 15000, "S": 29600, "W": 18600, "N": 36800}
    assert game["ended"] == "stopped"
    # 25000/30000 (base default), oka 20, uma +15/+5/-5/-15, W's chombo -20:
    # N 6.8+15+20 = 41.8; S -0.4+5 = 4.6; W -11.4-5-20 = -36.4; E -15-15 = -30.
    assert results_of(game) == {"N": 41.8, "S": 4.6, "W": -36.4, "E": -30}


def test_m_league_whole_game() -> None:
    hands = [
        ron("N", "E", 18000),  # E1-0 N 43000, E 7000
        ron("W", "E", 12000, riichi=["E"]),  # E2-0 E 6000-12000 = -6000 (no tobi, line 8);
        # W 25000+12000+1000 = 38000
        draw("E", "N", riichi=["E"]),  # E3-0 riichi below zero is allowed (line 12):
        # E -7000+1500 = -5500, N 44500, S 23500, W 36500; pot 1000
        tsumo("N", 6000),  # E4-1 6100 each: N 44500+18300+1000 = 63800, E -11600,
        # S 17400, W 30400
        ron("E", "N", 8000),  # E4-2 N pays 8600: E -3000, N 55200
        {"result": "chombo", "seat": "S", "deliberate": True},  # S1-0 replayed
        tsumo("E", 4000),  # S1-0 E 9000, S 13400, W 26400, N 51200; E repeats
        draw(),  # S1-1 passes
        ron("S", "W", 11600),  # S2-2 W pays 12200: S 25600, W 14200
        ron("W", "S", 5200),  # S2-3 S pays 6100: W 20300, S 19500
        draw("N", riichi=["N"]),  # S3-0 N 50200+3000 = 53200, E 8000 S 18500 W 19300
        draw("S", noten_declared=["N"]),  # S4-1 the dealer declares noten (line 17):
        # S +3000 = 21500, E 7000 W 18300 N 52200; the game ends
    ]
    game = replay_game({"ruleset": "m-league", "hands": hands})
    assert scores_of(game)[1] == ("E2-0", [-6000, 25000, 38000, 43000])
    assert scores_of(game)[3] == ("E4-1", [-11600, 17400, 30400, 63800])
    assert game["final_scores"] == {"E": 7000, "S": 21500, "W": 18300, "N": 52200}
    assert game["riichi_sticks_left"] == 1
    assert game["ended"] == "scheduled"
    # The stick left goes to 1st (line 23): N 53200 -> 23.2 + 50 = 73.2;
    # S -8.5+10 = 1.5, minus a deliberate chombo 3 x 20 = -58.5; W -11.7-10 = -21.7;
    # E -23-30 = -53.
    assert results_of(game) == {"N": 73.2, "S": -58.5, "W": -21.7, "E": -53}


def test_tenpane_whole_game() -> None:
    hands = [
        draw("E", riichi=["E"], false_calls=["S"]),  # E1-0 E riichi 24000, S's false call
        # puts 1000 on the table (seed 004 line 26) 24000; E alone tenpai +3000 = 27000,
        # S 23000, W N 24000; pot 2000; E repeats
        {
            "result": "win",
            "from": "E",
            "wins": [{"winner": "N", "points": 2000}, {"winner": "W", "points": 3900}],
        },  # E1-1 double ron (line 47): honba to each, the pot to W (first from E):
        # E pays 4200 + 2300 = 6500 -> 20500; W 24000+4200+2000 = 30200; N 26300
        {"result": "chombo", "seat": "N"},  # E2-0 N pays 3000 to each (line 55): N 17300,
        # E 23500, S 26000, W 33200; replayed, no counter
        {"result": "draw", "nagashi": ["S"]},  # E2-0 the dealer's nagashi is a mangan win
        # (line 33): 4000 all: S 38000, E 19500, W 29200, N 13300; S keeps the deal
        {"result": "abortive", "kind": "nine_terminals"},  # E2-1 +1 honba, S stays (line 43)
        tsumo("N", [2000, 3900]),  # E2-2 S pays 4100, E W 2200: N 21800, S 33900,
        # E 17300, W 27000
        ron("E", "S", 8000),  # E3-0 E 25300, S 25900
        ron("N", "W", 2000),  # E4-0 N 23800, W 25000; N repeats (not top, no stop)
        draw("N", "E"),  # E4-1 +1500 each: N 25300, E 26800, S 24400, W 23500; N repeats
        draw(),  # E4-2 N noten: the east round is over, top 26800 <= 30000: south, sudden
        # death (line 13)
        ron("S", "W", 3900, riichi=["W"]),  # S1-3 W 22500 pays 3900+900: W 17700;
        # S 24400+4800+1000 = 30200 >= 30100: the game ends
    ]
    game = replay_game({"ruleset": "tenpane", "hands": hands})
    assert scores_of(game)[1] == ("E1-1", [20500, 23000, 30200, 26300])
    assert scores_of(game)[3] == ("E2-0", [19500, 38000, 29200, 13300])
    assert game["hands"][9]["next"] == "S1-3"
    assert game["final_scores"] == {"E": 26800, "S": 30200, "W": 17700, "N": 25300}
    assert game["ended"] == "sudden_death"
    # Oka 20 to 1st, no uma: S 0.2+20 = 20.2; E -3.2; N -4.7; W -12.3.
    assert results_of(game) == {"S": 20.2, "E": -3.2, "N": -4.7, "W": -12.3}


def test_wsom_whole_game_flow() -> None:
    # Zung Jung payments (WSOM.md §3), given as deltas: self-draw, each pays V; discard with
    # V <= 25, each pays V; V > 25, the discarder pays 3V - 50 and the others 25.
    def win(winner: str, deltas: list[int], frm: str | None = None) -> dict[str, Any]:
        hand = {"result": "win", "winner": winner, "deltas": dict(zip("ESWN", deltas, strict=True))}
        return hand | ({"from": frm} if frm else {})

    hands = [
        win("E", [255, -85, -85, -85]),  # E1 the dealer's self-draw 85; the deal passes
        draw(),  # E2 nobody scores
        win("N", [-25, -25, -70, 120], "W"),  # E3 40 on W's discard: W 3x40-50 = 70
        win("S", [-10, 30, -10, -10], "N"),  # E4 10 on a discard: each pays 10
        win("W", [-30, -30, 90, -30]),  # S1 self-draw 30
        draw(),  # S2
        win("E", [75, -25, -25, -25], "S"),  # S3 25 on a discard: each pays 25
        win("N", [-130, -25, -25, 180], "E"),  # S4 60 on E's discard: E 3x60-50 = 130
    ]
    game = replay_game({"ruleset": "wsom", "hands": hands})
    # Every hand moves the deal on, with no counter: E1 E2 E3 E4 S1 S2 S3 S4.
    assert [h["round"] for h in game["hands"]] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    assert all(h["honba"] == 0 for h in game["hands"])
    assert game["ended"] == "scheduled"
    # E 255-25-10-30+75-130 = 135; S -85-25+30-30-25-25 = -160;
    # W -85-70-10+90-25-25 = -125; N -85+120-10-30-25+180 = 150.
    assert game["final_scores"] == {"E": 135, "S": -160, "W": -125, "N": 150}
    # Start 0, no oka or uma, 1 point = 1: the result is the total.
    assert results_of(game) == {"N": 150, "E": 135, "W": -125, "S": -160}
