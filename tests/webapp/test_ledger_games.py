"""One whole game per seed ruleset, recorded hand by hand through the ledger's HTTP API,
every score checked after every hand, and the final standings, all worked out by hand
below (each hand's comment is the arithmetic). The game flow itself is scoring.game's;
these tests check that the ledger stores, replays and reports it exactly, on SQLite and
on PostgreSQL.

Seats are starting seats (E = the first dealer). ``next`` is the hand that follows, as
"E2-1" (round and honba), or None when the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.webapp import ledger_fixtures as fx
from webapp import create_app

# The SQLite / PostgreSQL fixtures, shared by the ledger's test modules (pytest_plugins in
# several modules would import the module twice).
db_url, pg_admin_url, pg_url = fx.db_url, fx.pg_admin_url, fx.pg_url

PLAYERS = {"E": "Ayumi", "S": "Bao", "W": "Chloé", "N": "Dmitri"}


@dataclass(frozen=True)
class Step:
    entry: dict[str, Any]
    scores: tuple[int, int, int, int]  # E S W N after the hand
    next: str | None
    #: Record through POST /wins (a result page's score request) instead of /entries.
    via_score_request: bool = False


def win(winner: str, points: Any, frm: str | None = None, **more: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"result": "win", "winner": winner, "points": points, **more}
    if frm:
        entry["from"] = frm
    return entry


def draw(*tenpai: str, **more: Any) -> dict[str, Any]:
    return {"result": "draw", "tenpai": list(tenpai), **more}


#: A closed dealer hand: pinfu, tanyao, iipeikou and two dora (indicator 1m) = 5 han,
#: a dealer mangan of 12000 by ron in every riichi ruleset here. Seat winds are the hand's.
DEALER_MANGAN_RON = {
    "closed": "223344m567p66s78s",
    "win_tile": "6s",
    "win": "ron",
    "seat_wind": "E",
    "dora_indicators": ["1m"],
    "flags": [],
}

M_LEAGUE = [
    # E1-0: E riichi, ron off S for a dealer mangan: S -12000, E +12000 and back its stick.
    Step(win("E", 12000, "S", riichi=["E"]), (37000, 13000, 25000, 25000), "E1-1"),
    # E1-1: W riichi (stick on the table); S and W tenpai: 1500 each from E and N.
    Step(draw("S", "W", riichi=["W"]), (35500, 14500, 25500, 23500), "E2-2"),
    # E2-2 (dealer S): N tsumo 1000/2000 + 200 each for two honba, plus W's stick.
    Step(win("N", [1000, 2000]), (34300, 12300, 24300, 29100), "E3-0"),
    # E3-0 (dealer W): W ron off E, dealer haneman 18000.
    Step(win("W", 18000, "E"), (16300, 12300, 42300, 29100), "E3-1"),
    # E3-1: S ron off W, 3900 + 300.
    Step(win("S", 3900, "W"), (16300, 16500, 38100, 29100), "E4-0"),
    # E4-0 (dealer N): chombo by S: -20 at the end, no payment, the hand is replayed.
    Step({"result": "chombo", "seat": "S"}, (16300, 16500, 38100, 29100), "E4-0"),
    # E4-0: nobody tenpai: no payment, the deal passes, one honba.
    Step(draw(), (16300, 16500, 38100, 29100), "S1-1"),
    # S1-1 (dealer E): E tsumo 2600 all + 100 each.
    Step(win("E", 2600), (24400, 13800, 35400, 26400), "S1-2"),
    # S1-2: N riichi and ron off E: 8000 + 600, plus N's own stick back.
    Step(win("N", 8000, "E", riichi=["N"]), (15800, 13800, 35400, 35000), "S2-0"),
    # S2-0 (dealer S): the result page's dealer mangan, ron off W (seat wind S this hand).
    Step(
        {"request": {**DEALER_MANGAN_RON, "discarder": "S"}},
        (15800, 25800, 23400, 35000),
        "S2-1",
        via_score_request=True,
    ),
    # S2-1: E riichi, alone tenpai: 3000 from the three others; the dealer S passes.
    Step(draw("E", riichi=["E"]), (17800, 24800, 22400, 34000), "S3-2"),
    # S3-2 (dealer W): W tsumo 4000 all + 200 each, plus E's stick.
    Step(win("W", 4000), (13600, 20600, 36000, 29800), "S3-3"),
    # S3-3: E ron off N, 2000 + 900.
    Step(win("E", 2000, "N"), (16500, 20600, 36000, 26900), "S4-0"),
    # S4-0 (dealer N, all-last): S riichi; S and N tenpai. No tenpai-yame: N plays on.
    Step(draw("S", "N", riichi=["S"]), (15000, 21100, 34500, 28400), "S4-1"),
    # S4-1: E tenpai, the dealer N declares noten (M.League): 1000 each to E; game over.
    Step(draw("E", noten_declared=["N"]), (18000, 20100, 33500, 27400), None),
]
# W 33500 + the last stick 1000 (to 1st): 4.5 + uma 30 + oka 20 = 54.5; N -2.6 + 10;
# S -9.9 - 10 - 20 (chombo); E -12 - 30.
M_LEAGUE_STANDINGS = [("W", 1, 54.5), ("N", 2, 7.4), ("S", 3, -39.9), ("E", 4, -42)]

JPML_A = [
    # E1-0: N ron off W 7700.
    Step(win("N", 7700, "W"), (30000, 30000, 22300, 37700), "E2-0"),
    # E2-0 (dealer S): four winds: abortive, dealer repeats, one honba.
    Step({"result": "abortive", "kind": "four_winds"}, (30000, 30000, 22300, 37700), "E2-1"),
    # E2-1: E riichi; E S W tenpai, N pays 1000 to each.
    Step(draw("E", "S", "W", riichi=["E"]), (30000, 31000, 23300, 34700), "E2-2"),
    # E2-2: W riichi, then a triple ron: an abortive draw under JPML-A; W's stick stays.
    Step(
        {"result": "abortive", "kind": "triple_ron", "riichi": ["W"]},
        (30000, 31000, 22300, 34700),
        "E2-3",
    ),
    # E2-3: S (dealer) tsumo 4000 all + 300 each, and both sticks.
    Step(win("S", 4000), (25700, 45900, 18000, 30400), "E2-4"),
    # E2-4: E ron off S, 2600 + 1200.
    Step(win("E", 2600, "S"), (29500, 42100, 18000, 30400), "E3-0"),
    # E3-0 (dealer W): chombo by N: -20 after uma, the hand is replayed.
    Step({"result": "chombo", "seat": "N"}, (29500, 42100, 18000, 30400), "E3-0"),
    # E3-0: the result page's dealer mangan for W, ron off E (seat wind W this hand).
    Step(
        {"request": {**DEALER_MANGAN_RON, "discarder": "W"}},
        (17500, 42100, 30000, 30400),
        "E3-1",
        via_score_request=True,
    ),
    # E3-1: nobody tenpai.
    Step(draw(), (17500, 42100, 30000, 30400), "E4-2"),
    # E4-2 (dealer N): S tsumo 2000/3900 + 200 each.
    Step(win("S", [2000, 3900]), (15300, 50600, 27800, 26300), "S1-0"),
    # S1-0 (dealer E): E ron off N 11600.
    Step(win("E", 11600, "N"), (26900, 50600, 27800, 14700), "S1-1"),
    # S1-1: S and W riichi, W ron off S 1000 + 300, W takes both sticks.
    Step(win("W", 1000, "S", riichi=["S", "W"]), (26900, 48300, 30100, 14700), "S2-0"),
    # S2-0 (dealer S): N ron off E 8000.
    Step(win("N", 8000, "E"), (18900, 48300, 30100, 22700), "S3-0"),
    # S3-0 (dealer W): W alone tenpai.
    Step(draw("W"), (17900, 47300, 33100, 21700), "S3-1"),
    # S3-1: E and N tenpai, the dealer W passes.
    Step(draw("E", "N"), (19400, 45800, 31600, 23200), "S4-2"),
    # S4-2 (dealer N, all-last): N tsumo 2000 all + 200 each; JPML-A has no stop: play on.
    Step(win("N", 2000), (17200, 43600, 29400, 29800), "S4-3"),
    # S4-3: E ron off W 3900 + 900: the deal passes, game over.
    Step(win("E", 3900, "W"), (22000, 43600, 24600, 29800), None),
]
# One player above 30000: uma +12/-1/-3/-8, no oka (30000/30000). N's chombo -20.
JPML_A_STANDINGS = [("S", 1, 25.6), ("N", 2, -21.2), ("W", 3, -8.4), ("E", 4, -16)]

JPML_B = [
    # E1-0: S riichi, alone tenpai: 3000 from the others; E passes.
    Step(draw("S", riichi=["S"]), (24000, 27000, 24000, 24000), "E2-1"),
    # E2-1 (dealer S): chombo by W: -20 at the end, the hand is replayed.
    Step({"result": "chombo", "seat": "W"}, (24000, 27000, 24000, 24000), "E2-1"),
    # E2-1: nine terminals: abortive, honba +1.
    Step({"result": "abortive", "kind": "nine_terminals"}, (24000, 27000, 24000, 24000), "E2-2"),
    # E2-2: S (dealer) ron off N 12000 + 600, and the stick.
    Step(win("S", 12000, "N"), (24000, 40600, 24000, 11400), "E2-3"),
    # E2-3: S ron off N 18000 + 900: N is below zero, the game ends (JPML-B).
    Step(win("S", 18000, "N"), (24000, 59500, 24000, -7500), None),
]
# Uma 15/5/-5/-15, oka 20 (25000/30000); E and W tie at 24000: E is nearer the dealer.
JPML_B_STANDINGS = [("S", 1, 64.5), ("E", 2, -1), ("W", 3, -31), ("N", 4, -52.5)]

TENPANE = [
    # E1-0: double ron off S: W 3900 (first from S: N's stick), N 2000 after riichi.
    Step(
        {
            "result": "win",
            "from": "S",
            "riichi": ["N"],
            "wins": [{"winner": "W", "points": 3900}, {"winner": "N", "points": 2000}],
        },
        (25000, 19100, 29900, 26000),
        "E2-0",
    ),
    # E2-0 (dealer S): E's false call puts 1000 on the table; S alone tenpai.
    Step(draw("S", false_calls=["E"]), (23000, 22100, 28900, 25000), "E2-1"),
    # E2-1: four kans: abortive, the dealer repeats, honba +1.
    Step({"result": "abortive", "kind": "four_kans"}, (23000, 22100, 28900, 25000), "E2-2"),
    # E2-2: chombo by W: 3000 to each other player, replayed without a honba.
    Step({"result": "chombo", "seat": "W"}, (26000, 25100, 19900, 28000), "E2-2"),
    # E2-2: nagashi mangan by W, paid as a mangan tsumo (4200/2200) plus the 1000 deposit.
    Step(draw(nagashi=["W"]), (23800, 20900, 29500, 25800), "E3-0"),
    # E3-0 (dealer W): E ron off N 1000.
    Step(win("E", 1000, "N"), (24800, 20900, 29500, 24800), "E4-0"),
    # E4-0 (dealer N, all-last): N alone tenpai, not first: plays on.
    Step(draw("N"), (23800, 19900, 28500, 27800), "E4-1"),
    # E4-1: S ron off W 1000 + 300; nobody has 30100: south is sudden death.
    Step(win("S", 1000, "W"), (23800, 21200, 27200, 27800), "S1-0"),
    # S1-0 (dealer E): E S W tenpai, N pays 1000 each.
    Step(draw("E", "S", "W"), (24800, 22200, 28200, 24800), "S1-1"),
    # S1-1: W tsumo 500/1000 + 100 each: W reaches 30500 >= 30100, game over.
    Step(win("W", [500, 1000]), (23700, 21600, 30500, 24200), None),
]
# No uma (not stated), oka 20 to 1st.
TENPANE_STANDINGS = [("W", 1, 20.5), ("N", 2, -5.8), ("E", 3, -6.3), ("S", 4, -8.4)]


def zj(deltas: tuple[int, int, int, int], frm: str | None = None) -> dict[str, Any]:
    """A Zung Jung win given by its payments (the table's ruleset scores no han/fu)."""
    d = dict(zip("ESWN", deltas, strict=True))
    winner = max(d, key=lambda s: d[s])
    entry: dict[str, Any] = {"result": "win", "winner": winner, "deltas": d}
    if frm:
        entry["from"] = frm
    return entry


WSOM = [
    # E1: E self-draws V=25: 25 from each.
    Step(zj((75, -25, -25, -25)), (75, -25, -25, -25), "E2-0"),
    # E2: S wins on W's discard, V=40 > 25: W pays 3V-50 = 70, the others 25.
    Step(zj((-25, 120, -70, -25), frm="W"), (50, 95, -95, -50), "E3-0"),
    # E3: a draw scores nothing; the deal passes anyway.
    Step(draw("W"), (50, 95, -95, -50), "E4-0"),
    # E4: a false win by N: recorded, the hand is replayed.
    Step({"result": "chombo", "seat": "N"}, (50, 95, -95, -50), "E4-0"),
    # E4 (dealer N): the result page's Zung Jung hand for W on E's discard, seat winds of
    # this hand (W is North, E is South): All Sequences 5 + Concealed 5 = V 10 <= 25, so
    # each of the three others pays 10 (formal payoff, WSOM.md section 3).
    Step(
        {
            "request": {
                "closed": "123m456m789p234s5s",
                "win_tile": "5s",
                "win": "ron",
                "seat_wind": "N",
                "discarder": "S",
            }
        },
        (40, 85, -65, -60),
        "S1-0",
        via_score_request=True,
    ),
    # S1: N self-draws V=30.
    Step(zj((-30, -30, -30, 90)), (10, 55, -95, 30), "S2-0"),
    # S2: a draw.
    Step(draw(), (10, 55, -95, 30), "S3-0"),
    # S3: E wins on S's discard, V=60: S pays 130, W and N 25.
    Step(zj((180, -130, -25, -25), frm="S"), (190, -75, -120, 5), "S4-0"),
    # S4: S self-draws V=20; eight hands played, game over.
    Step(zj((-20, 60, -20, -20)), (170, -15, -140, -15), None),
]
# Ranked by points (start 0, no uma, 1 point = 1); S and N tie: S is nearer the dealer.
WSOM_STANDINGS = [("E", 1, 170), ("S", 2, -15), ("N", 3, -15), ("W", 4, -140)]

GAMES = {
    "m-league": (M_LEAGUE, M_LEAGUE_STANDINGS),
    "jpml-a": (JPML_A, JPML_A_STANDINGS),
    "jpml-b": (JPML_B, JPML_B_STANDINGS),
    "tenpane": (TENPANE, TENPANE_STANDINGS),
    "wsom": (WSOM, WSOM_STANDINGS),
}


@pytest.fixture
def client(db_url: str) -> Any:
    app = create_app({"TESTING": True, "LEDGER_DATABASE_URL": db_url})
    yield app.test_client()
    store = app.extensions.get("agari.ledger")
    if store is not None:
        store.dispose()


def _record(client: FlaskClient, tid: str, token: str, step: Step) -> Any:
    path = f"/api/v1/tables/{tid}/{'wins' if step.via_score_request else 'entries'}"
    resp = client.post(path, json=step.entry, headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_whole_game(client: FlaskClient, ruleset: str) -> None:
    steps, standings = GAMES[ruleset]
    resp = client.post("/api/v1/tables", json={"ruleset": ruleset, "players": PLAYERS})
    tid, token = resp.get_json()["id"], resp.get_json()["token"]

    before = tuple(resp.get_json()["scoreboard"]["scores"][s] for s in "ESWN")
    for number, step in enumerate(steps, start=1):
        board = _record(client, tid, token, step)["scoreboard"]
        assert "error" not in board, (number, board)
        scores = tuple(board["scores"][s] for s in "ESWN")
        assert scores == step.scores, f"hand {number}"
        hand = board["hands"][-1]
        assert tuple(hand["scores_before"][s] for s in "ESWN") == before
        assert tuple(hand["deltas"][s] for s in "ESWN") == tuple(
            a - b for a, b in zip(step.scores, before, strict=True)
        )
        before = scores
        if step.next is None:
            assert board["finished"], f"hand {number} should end the game"
        else:
            assert not board["finished"], f"hand {number}"
            assert f"{board['round']}-{board['honba']}" == step.next, f"hand {number}"
            assert board["dealer"] == "ESWN"[int(step.next[1]) - 1]

    final = client.get(f"/api/v1/tables/{tid}").get_json()["scoreboard"]
    got = [(r["seat"], r["rank"], r["result"]) for r in final["standings"]]
    assert got == [(s, r, pytest.approx(v)) for s, r, v in standings]
    page = client.get(f"/tables/{tid}").get_data(as_text=True)
    assert "Game over" in page and "Final standings" in page
    # The game is over: the ledger refuses another hand and stores nothing.
    resp = client.post(
        f"/api/v1/tables/{tid}/entries", json=draw(), headers={"Authorization": f"Bearer {token}"}
    )
    assert resp.status_code == 422
    assert len(client.get(f"/api/v1/tables/{tid}").get_json()["entries"]) == len(steps)


@pytest.mark.parametrize(
    ("ruleset", "entry"),
    [
        pytest.param(
            "jpml-a",
            {
                "result": "win",
                "from": "S",
                "wins": [{"winner": "W", "points": 1000}, {"winner": "N", "points": 1000}],
            },
            id="jpml_a_head_bump_refuses_double_ron",
        ),
        pytest.param(
            "m-league",
            {"result": "abortive", "kind": "four_winds"},
            id="m_league_has_no_abortive_draw",
        ),
        pytest.param("jpml-b", draw(false_calls=["E"]), id="jpml_b_false_call_is_a_chombo"),
        pytest.param("jpml-a", draw(nagashi=["E"]), id="jpml_a_has_no_nagashi"),
        pytest.param("wsom", draw("E", riichi=["E"]), id="wsom_has_no_riichi"),
        pytest.param("wsom", win("E", 8000, "S"), id="wsom_wins_are_not_riichi_points"),
    ],
)
def test_hand_the_ruleset_forbids_is_refused(
    client: FlaskClient, ruleset: str, entry: dict[str, Any]
) -> None:
    resp = client.post("/api/v1/tables", json={"ruleset": ruleset, "players": PLAYERS})
    tid, token = resp.get_json()["id"], resp.get_json()["token"]
    resp = client.post(
        f"/api/v1/tables/{tid}/entries", json=entry, headers={"Authorization": f"Bearer {token}"}
    )
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["error"]["code"] == "illegal_hand"
    body = client.get(f"/api/v1/tables/{tid}").get_json()
    assert body["entries"] == [] and body["revision"] == 0


def test_undo_replays_back_to_the_earlier_state(client: FlaskClient) -> None:
    resp = client.post("/api/v1/tables", json={"ruleset": "m-league", "players": PLAYERS})
    tid, token = resp.get_json()["id"], resp.get_json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    states = []
    for step in M_LEAGUE[:4]:
        states.append(_record(client, tid, token, step)["scoreboard"])
    for seq in (4, 3):
        board = client.delete(f"/api/v1/tables/{tid}/entries/{seq}", headers=auth).get_json()
        assert board["scoreboard"] == states[seq - 2]
