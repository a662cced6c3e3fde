"""The ledger's HTTP API and pages: access control, tokens kept out of logs and URLs,
ETags for pollers, undo, exports, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.webapp import ledger_fixtures as fx
from webapp import create_app

# The SQLite / PostgreSQL fixtures, shared by the ledger's test modules (pytest_plugins in
# several modules would import the module twice).
db_url, pg_admin_url, pg_url = fx.db_url, fx.pg_admin_url, fx.pg_url

PLAYERS = {"E": "Ayumi", "S": "Bao", "W": "Chloé", "N": "Dmitri"}
#: Hands every riichi ruleset accepts: an exhaustive draw, dealer and South tenpai.
DRAW = {"result": "draw", "tenpai": ["E", "S"]}
NOBODY_TENPAI = {"result": "draw", "tenpai": []}


@pytest.fixture
def app(db_url: str) -> Any:
    yield from fx.ledger_app(db_url)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _create(client: FlaskClient, ruleset: str = "m-league") -> tuple[str, str]:
    resp = client.post("/api/v1/tables", json={"ruleset": ruleset, "players": PLAYERS})
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    return body["id"], body["token"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_create_then_read_the_public_scoreboard(client: FlaskClient) -> None:
    tid, token = _create(client)
    resp = client.get(f"/api/v1/tables/{tid}")
    assert resp.status_code == 200
    body = resp.get_json()
    assert "token" not in body and token not in resp.get_data(as_text=True)
    assert body["players"] == PLAYERS
    assert body["scoreboard"]["scores"] == {s: 25000 for s in "ESWN"}
    assert body["scoreboard"]["dealer"] == "E"
    assert body["scoreboard"]["round"] == "E1"
    assert resp.headers["ETag"] == '"r0"'


def test_record_and_undo_with_the_token(client: FlaskClient) -> None:
    tid, token = _create(client)
    resp = client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token))
    assert resp.status_code == 201, resp.get_json()
    board = resp.get_json()["scoreboard"]
    # E and S tenpai, W and N not: 1500 each way; the dealer stays, one honba.
    assert board["scores"] == {"E": 26500, "S": 26500, "W": 23500, "N": 23500}
    assert (board["dealer"], board["round"], board["honba"]) == ("E", "E1", 1)
    resp = client.post(f"/api/v1/tables/{tid}/entries", json=NOBODY_TENPAI, headers=_auth(token))
    board = resp.get_json()["scoreboard"]
    assert (board["dealer"], board["round"], board["honba"]) == ("S", "E2", 2)

    resp = client.delete(f"/api/v1/tables/{tid}/entries/2", headers=_auth(token))
    assert resp.status_code == 200
    body = resp.get_json()
    assert [e["seq"] for e in body["entries"]] == [1]
    assert body["scoreboard"]["honba"] == 1 and body["revision"] == 3


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        pytest.param({}, 401, "token_required", id="no_header"),
        pytest.param({"Authorization": "Bearer "}, 401, "token_required", id="empty_bearer"),
        pytest.param({"Authorization": "Basic dXNlcjpwdw=="}, 401, "token_required", id="basic"),
        pytest.param(_auth("A" * 43), 403, "bad_token", id="wrong_token"),
    ],
)
def test_no_write_without_the_token(
    client: FlaskClient, headers: dict[str, str], status: int, code: str
) -> None:
    tid, token = _create(client)
    client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token))
    before = client.get(f"/api/v1/tables/{tid}").get_json()

    resp = client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=headers)
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (status, code)
    assert ("WWW-Authenticate" in resp.headers) == (status == 401)
    resp = client.delete(f"/api/v1/tables/{tid}/entries/1", headers=headers)
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (status, code)
    resp = client.post(f"/api/v1/tables/{tid}/token-check", headers=headers)
    assert resp.status_code == status

    assert client.get(f"/api/v1/tables/{tid}").get_json() == before


def test_another_tables_token_is_refused(client: FlaskClient) -> None:
    tid_a, token_a = _create(client)
    tid_b, _ = _create(client)
    resp = client.post(f"/api/v1/tables/{tid_b}/entries", json=DRAW, headers=_auth(token_a))
    assert resp.status_code == 403
    assert (
        client.post(f"/api/v1/tables/{tid_a}/token-check", headers=_auth(token_a)).status_code
        == 200
    )


def test_a_token_in_the_url_is_refused(client: FlaskClient) -> None:
    tid, token = _create(client)
    resp = client.post(f"/api/v1/tables/{tid}/entries?token={token}", json=DRAW)
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (400, "token_in_url")
    assert token not in resp.get_data(as_text=True)
    assert client.get(f"/api/v1/tables/{tid}?token=x").status_code == 400
    assert client.get(f"/api/v1/tables/{tid}").get_json()["entries"] == []


def test_points_past_any_game_are_refused_and_change_nothing(client: FlaskClient) -> None:
    # 10**30 was stored and shown to JavaScript clients as 1e30 (precision lost past 2**53).
    tid, token = _create(client)
    before = client.get(f"/api/v1/tables/{tid}")
    for bad in (
        {"result": "win", "winner": "S", "from": "W", "points": 10**30},
        {"result": "win", "winner": "S", "deltas": {"E": 0, "S": 10**30, "W": -(10**30), "N": 0}},
    ):
        resp = client.post(f"/api/v1/tables/{tid}/entries", json=bad, headers=_auth(token))
        error = resp.get_json()["error"]
        assert (resp.status_code, error["code"]) == (400, "out_of_range"), error
        assert error["details"] == {"hand": 1}
    after = client.get(f"/api/v1/tables/{tid}")
    assert after.headers["ETag"] == before.headers["ETag"] == '"r0"'
    assert after.get_json()["entries"] == []


def test_the_token_as_a_form_field_works(client: FlaskClient) -> None:
    tid, token = _create(client)
    resp = client.post(f"/api/v1/tables/{tid}/token-check", data={"token": token})
    assert resp.status_code == 200


def test_illegal_hand_is_refused_and_changes_nothing(client: FlaskClient) -> None:
    tid, token = _create(client)
    for bad in (
        {"result": "draw", "tenpai": ["X"]},
        {"result": "no_such_kind"},
        {"result": "win", "winner": "S", "from": "S", "points": 1000},
    ):
        resp = client.post(f"/api/v1/tables/{tid}/entries", json=bad, headers=_auth(token))
        assert 400 <= resp.status_code < 500, (bad, resp.get_json())
        assert "error" in resp.get_json()
    for bad_body in (b"not json", b"[1, 2]"):
        resp = client.post(
            f"/api/v1/tables/{tid}/entries",
            data=bad_body,
            headers={**_auth(token), "Content-Type": "application/json"},
        )
        assert resp.status_code == 400
    body = client.get(f"/api/v1/tables/{tid}").get_json()
    assert body["entries"] == [] and body["revision"] == 0


def test_etag_lets_pollers_skip_unchanged_tables(client: FlaskClient) -> None:
    tid, token = _create(client)
    resp = client.get(f"/api/v1/tables/{tid}", headers={"If-None-Match": '"r0"'})
    assert resp.status_code == 304
    client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token))
    resp = client.get(f"/api/v1/tables/{tid}", headers={"If-None-Match": '"r0"'})
    assert resp.status_code == 200 and resp.headers["ETag"] == '"r1"'


def test_if_match_refuses_a_stale_write(client: FlaskClient) -> None:
    tid, token = _create(client)
    headers = {**_auth(token), "If-Match": '"r0"'}
    assert (
        client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=headers).status_code == 201
    )
    resp = client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=headers)
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (412, "stale_revision")
    resp = client.delete(f"/api/v1/tables/{tid}/entries/1", headers=headers)
    assert resp.status_code == 412
    assert len(client.get(f"/api/v1/tables/{tid}").get_json()["entries"]) == 1


def test_a_weak_etag_in_if_match_never_matches(client: FlaskClient) -> None:
    """RFC 9110 13.1.1: If-Match compares strongly, so W/"r0" does not match "r0": 412,
    with its own code (stale_revision would send a client reloading and retrying forever)."""
    tid, token = _create(client)
    weak = {**_auth(token), "If-Match": 'W/"r0"'}
    for resp in (
        client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=weak),
        client.post(f"/api/v1/tables/{tid}/wins", json={"request": DEALER_MANGAN}, headers=weak),
    ):
        assert (resp.status_code, resp.get_json()["error"]["code"]) == (412, "weak_etag")
    assert client.get(f"/api/v1/tables/{tid}").headers["ETag"] == '"r0"'  # nothing written
    client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token))
    resp = client.delete(f"/api/v1/tables/{tid}/entries/1", headers={**weak, "If-Match": 'W/"r1"'})
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (412, "weak_etag")
    assert '("r1", without W/)' in resp.get_json()["error"]["message"]  # the tag to send
    strong = {**_auth(token), "If-Match": '"r1"'}
    assert client.delete(f"/api/v1/tables/{tid}/entries/1", headers=strong).status_code == 200


@pytest.mark.parametrize("limit", ["abc", "0", "-5", "1.5", "", "٣"])
def test_a_bad_limit_is_refused(client: FlaskClient, limit: str) -> None:
    resp = client.get(f"/api/v1/tables?limit={limit}")
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (400, "bad_limit")


def test_limit_lists_that_many_tables(client: FlaskClient) -> None:
    for _ in range(3):
        _create(client)
    assert len(client.get("/api/v1/tables?limit=2").get_json()["tables"]) == 2
    assert len(client.get("/api/v1/tables?limit=9999").get_json()["tables"]) == 3  # as 500
    assert len(client.get("/api/v1/tables").get_json()["tables"]) == 3


def test_undo_only_the_last_entry(client: FlaskClient) -> None:
    tid, token = _create(client)
    for _ in range(2):
        client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token))
    resp = client.delete(f"/api/v1/tables/{tid}/entries/1", headers=_auth(token))
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (409, "not_last_entry")
    assert client.delete(f"/api/v1/tables/{tid}/entries/2", headers=_auth(token)).status_code == 200
    assert client.delete(f"/api/v1/tables/{tid}/entries/1", headers=_auth(token)).status_code == 200
    resp = client.delete(f"/api/v1/tables/{tid}/entries/1", headers=_auth(token))
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (409, "nothing_to_undo")


def test_create_refuses_bad_input(client: FlaskClient) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"ruleset": "no-such-rules", "players": PLAYERS}, "unknown_ruleset"),
        ({"ruleset": "m-league", "players": {"E": "a"}}, "bad_players"),
        # Two players alike could not be told apart on the pages and in the logs.
        ({"ruleset": "m-league", "players": {**PLAYERS, "S": PLAYERS["E"]}}, "bad_players"),
        ({"ruleset": "m-league", "players": PLAYERS, "colour": "red"}, "unknown_field"),
        ({"players": PLAYERS}, "missing_field"),
    ]
    for body, code in cases:
        resp = client.post("/api/v1/tables", json=body)
        assert resp.status_code == 400 and resp.get_json()["error"]["code"] == code, body
    # Nested deeper than the parser goes (under the 64 KB cap): bad JSON, not a 500.
    deep = client.post("/api/v1/tables", data="[" * 60_000, content_type="application/json")
    assert deep.status_code == 400 and deep.get_json()["error"]["code"] == "bad_json"
    assert client.get("/api/v1/tables").get_json()["tables"] == []


def test_unknown_table_is_404(client: FlaskClient) -> None:
    assert client.get("/api/v1/tables/nope").get_json()["error"]["code"] == "table_not_found"
    resp = client.get("/tables/nope")
    assert resp.status_code == 404 and resp.mimetype == "text/html"
    assert "No such table" in resp.get_data(as_text=True)
    resp = client.post("/api/v1/tables/nope/entries", json=DRAW, headers=_auth("x"))
    assert resp.status_code == 404


def test_tokens_never_reach_the_logs(client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, every level: werkzeug, sqlalchemy, ours
    logging.getLogger("sqlalchemy.engine").setLevel(logging.INFO)  # SQL and its parameters
    try:
        tid, token = _create(client)
        client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token))
        client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token + "x"))
        client.post(f"/api/v1/tables/{tid}/entries?token={token}", json=DRAW)
        client.post(f"/api/v1/tables/{tid}/token-check", data={"token": token})
        client.delete(f"/api/v1/tables/{tid}/entries/1", headers=_auth(token))
        client.post(
            "/tables",
            data={"ruleset": "m-league", **{f"player_{s}": n for s, n in PLAYERS.items()}},
        )
    finally:
        logging.getLogger("sqlalchemy.engine").setLevel(logging.WARNING)
    assert caplog.records, "the check must see the log records it scans"
    for record in caplog.records:
        text = record.getMessage() + repr(record.args) + (record.exc_text or "")
        assert token not in text, record.name


def test_pages_render(client: FlaskClient) -> None:
    resp = client.post(
        "/tables",
        data={
            "ruleset": "m-league",
            "title": "Final",
            **{f"player_{s}": n for s, n in PLAYERS.items()},
        },
    )
    assert resp.status_code == 201
    html = resp.get_data(as_text=True)
    assert "write token" in html
    assert resp.headers["Cache-Control"] == "no-store"
    tid = client.get("/api/v1/tables").get_json()["tables"][0]["id"]
    for path in ("/tables", f"/tables/{tid}", f"/tables/{tid}/overlay"):
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert "Ayumi" in resp.get_data(as_text=True)


def test_export_json_and_log(client: FlaskClient) -> None:
    tid, token = _create(client)
    client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=_auth(token))
    doc = client.get(f"/api/v1/tables/{tid}/export").get_json()
    assert doc["format"] == "agari-table/1"
    assert "token" not in doc
    assert doc["tenhou"]["name"] == list(PLAYERS.values())
    hand = doc["tenhou"]["log"][0]
    assert hand[0] == [0, 0, 0] and hand[1] == [25000] * 4
    assert hand[-1] == ["流局", [1500, 1500, -1500, -1500]]
    log = client.get(f"/api/v1/tables/{tid}/export?format=log").get_data(as_text=True)
    assert "E1-0" in log and "+1500" in log
    # As `agari table export --format tenhou`: the Tenhou-style log alone.
    assert client.get(f"/api/v1/tables/{tid}/export?format=tenhou").get_json() == doc["tenhou"]
    bad = client.get(f"/api/v1/tables/{tid}/export?format=csv")
    assert (bad.status_code, bad.get_json()["error"]["code"]) == (400, "bad_format")


def test_every_ledger_route_is_in_the_openapi_document(app: Flask, client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    routes = {
        (rule.rule.replace("<int:seq>", "{seq}").replace("<table_id>", "{table_id}"), method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/tables")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert routes and routes <= documented
    assert doc["components"]["securitySchemes"]["tableToken"]["scheme"] == "bearer"


def test_an_oversized_entry_is_refused(client: FlaskClient) -> None:
    tid, token = _create(client)
    huge = {**DRAW, "note": "x" * 70_000}
    resp = client.post(f"/api/v1/tables/{tid}/entries", json=huge, headers=_auth(token))
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (413, "too_large")
    assert client.get(f"/api/v1/tables/{tid}").get_json()["entries"] == []


#: Pinfu, tanyao, iipeikou and two dora: a dealer mangan (12000) by ron.
DEALER_MANGAN = {
    "ruleset": "tenhou",  # the page's ruleset: the table's own (m-league) replaces it
    "closed": "223344m567p66s78s",
    "win_tile": "6s",
    "win": "ron",
    "seat_wind": "E",
    "discarder": "S",
    "round_wind": "S",  # wrong for the table (East round): the table's replaces it
    "honba": 5,
    "dora_indicators": ["1m"],
    "flags": [],
}


def test_a_win_from_a_result_page_maps_seat_winds_to_players(client: FlaskClient) -> None:
    tid, token = _create(client)
    first = {"result": "win", "winner": "N", "from": "W", "points": 1000}
    client.post(f"/api/v1/tables/{tid}/entries", json=first, headers=_auth(token))
    # East 2: S deals, so seat wind E is player S, seat wind S is player W, N is player E.
    resp = client.post(
        f"/api/v1/tables/{tid}/wins",
        json={"request": DEALER_MANGAN, "riichi": ["N"]},
        headers=_auth(token),
    )
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    entry = body["entries"][-1]["entry"]
    assert (entry["winner"], entry["from"], entry["riichi"]) == ("S", "W", ["E"])
    assert not {"ruleset", "round_wind", "honba", "win"} & set(entry["request"])
    # E's riichi stick goes to the winner with the dealer mangan; no honba at E2-0.
    assert body["scoreboard"]["scores"] == {"E": 24000, "S": 38000, "W": 12000, "N": 26000}
    assert body["scoreboard"]["round"] == "E2" and body["scoreboard"]["honba"] == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param({"request": {**DEALER_MANGAN, "seat_wind": "X"}}, "bad_seat", id="seat"),
        pytest.param({"requests": []}, "missing_field", id="no_request"),
        pytest.param({"request": DEALER_MANGAN, "colour": 1}, "unknown_field", id="unknown"),
        pytest.param(
            {"requests": [DEALER_MANGAN, {**DEALER_MANGAN, "win": "tsumo", "seat_wind": "W"}]},
            "bad_request",
            id="ron_and_tsumo",
        ),
    ],
)
def test_a_bad_win_from_a_result_page_is_refused(
    client: FlaskClient, body: dict[str, Any], code: str
) -> None:
    tid, token = _create(client)
    resp = client.post(f"/api/v1/tables/{tid}/wins", json=body, headers=_auth(token))
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (400, code)
    resp = client.post(f"/api/v1/tables/{tid}/wins", json={"request": DEALER_MANGAN})
    assert resp.status_code == 401
    assert client.get(f"/api/v1/tables/{tid}").get_json()["revision"] == 0


def test_wins_on_one_discard_that_disagree_about_the_tile_are_refused(
    client: FlaskClient,
) -> None:
    # Two pinfu hands, each a win alone, rons W's discard: one says 5s, the other 8s.
    south = {"closed": "123m456p789s99p34s", "win_tile": "5s", "seat_wind": "S"}
    north = {"closed": "234m567p456m99m67s", "win_tile": "8s", "seat_wind": "N"}
    ron = {"win": "ron", "discarder": "W", "dora_indicators": ["1m"], "ruleset": "tenhou"}
    tid, token = _create(client, ruleset="tenhou")
    body = {"requests": [{**south, **ron}, {**north, **ron}]}
    resp = client.post(f"/api/v1/tables/{tid}/wins", json=body, headers=_auth(token))
    error = resp.get_json()["error"]
    assert (resp.status_code, error["code"]) == (422, "inconsistent_wins"), error
    assert "win_tile '8s' differs" in error["message"]
    assert client.get(f"/api/v1/tables/{tid}").get_json()["revision"] == 0
    body["requests"][1]["win_tile"] = "5s"  # the same discard: paid
    resp = client.post(f"/api/v1/tables/{tid}/wins", json=body, headers=_auth(token))
    assert resp.status_code == 201, resp.get_json()


def test_a_win_the_scoring_refuses_answers_as_the_score_api_does(client: FlaskClient) -> None:
    """A hand with no yaku is a well-formed request the rules refuse: 422, as /score answers,
    and nothing is stored."""
    no_yaku = {**DEALER_MANGAN, "closed": "123m456p789s11z23s", "win_tile": "4s", "honba": 0}
    no_yaku["dora_indicators"] = []
    direct = client.post("/api/v1/score", json={**no_yaku, "round_wind": "E"})
    tid, token = _create(client)
    resp = client.post(
        f"/api/v1/tables/{tid}/wins", json={"request": no_yaku}, headers=_auth(token)
    )
    error = resp.get_json()["error"]
    assert (resp.status_code, error["code"]) == (direct.status_code, "no_yaku") == (422, "no_yaku")
    assert client.get(f"/api/v1/tables/{tid}").get_json()["revision"] == 0


def test_a_stored_entry_the_replay_refuses_shows_as_an_error(
    app: Flask, client: FlaskClient
) -> None:
    """A table stays readable if a later engine disagrees with something stored: the
    scoreboard carries the replay's error instead of failing the page."""
    from webapp.ledger import repository as repo
    from webapp.ledger.views import get_store

    tid, token = _create(client)
    with app.app_context():
        repo.append_entry(get_store(), tid, token, {"result": "draw", "tenpai": ["X"]})
    body = client.get(f"/api/v1/tables/{tid}").get_json()
    assert body["scoreboard"]["error"]["code"] == "illegal_hand"
    page = client.get(f"/tables/{tid}")
    assert page.status_code == 200 and "illegal_hand" in page.get_data(as_text=True)
    # Undo takes the bad entry away and the table replays again.
    client.delete(f"/api/v1/tables/{tid}/entries/1", headers=_auth(token))
    assert "error" not in client.get(f"/api/v1/tables/{tid}").get_json()["scoreboard"]


def test_a_stored_win_a_newer_typed_points_check_refuses_still_reads(
    app: Flask, client: FlaskClient
) -> None:
    """A check of typed points added after a hand was stored (a dealer's ron of 1000: the
    least is 1500) does not turn the saved table into an error; a new such hand is refused."""
    from webapp.ledger import repository as repo
    from webapp.ledger.views import get_store

    dealer_1000 = {"result": "win", "winner": "E", "from": "S", "points": 1000}
    tid, token = _create(client)
    with app.app_context():  # stored as the engine of its day took it
        repo.append_entry(get_store(), tid, token, dealer_1000)
    board = client.get(f"/api/v1/tables/{tid}").get_json()["scoreboard"]
    assert "error" not in board and board["scores"]["E"] - board["scores"]["S"] == 2000
    # E keeps the deal (E1-1): the same typed value now is refused, and nothing is stored.
    resp = client.post(f"/api/v1/tables/{tid}/entries", json=dealer_1000, headers=_auth(token))
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (422, "illegal_hand")
    assert client.get(f"/api/v1/tables/{tid}").get_json()["revision"] == 1


@pytest.mark.parametrize(
    "if_match", ['"r\u00b2"', '"r' + "9" * 5000 + '"'], ids=["superscript_two", "5000_digits"]
)
def test_an_if_match_of_odd_digits_is_bad_etag_not_a_500(
    client: FlaskClient, if_match: str
) -> None:
    # str.isdigit() takes '²' and 5,000 digits; int() refused both: a 500 and a traceback.
    tid, token = _create(client)
    headers = {**_auth(token), "If-Match": if_match.encode("utf-8").decode("latin-1")}
    resp = client.post(f"/api/v1/tables/{tid}/entries", json=DRAW, headers=headers)
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (400, "bad_etag")
    resp = client.get("/api/v1/tables?limit=" + "9" * 5000)
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (400, "bad_limit")


def test_one_address_creates_a_bounded_number_of_tables(tmp_path: Any) -> None:
    # Anyone may create a table; a flood filled the public index and the database.
    app = create_app(
        {
            "TESTING": True,
            "LEDGER_DATABASE_URL": f"sqlite:///{tmp_path}/l.db",
            "LEDGER_CREATES_PER_HOUR": 2,
        }
    )
    client = app.test_client()
    _create(client)
    _create(client)
    resp = client.post("/api/v1/tables", json={"ruleset": "tenhou", "players": PLAYERS})
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (429, "too_many_tables")
    assert len(client.get("/api/v1/tables").get_json()["tables"]) == 2  # nothing stored
    app.extensions["agari.ledger"].dispose()
