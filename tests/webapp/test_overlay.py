"""The streamer overlay: tokens, the thread-safe hub, Server-Sent Events (also under waitress)."""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any

import pytest
from flask.testing import FlaskClient

from scoring.errors import AgariError
from tests.webapp.conftest import LiveServer
from webapp import create_app
from webapp.overlay import OverlayHub

CARD = {"hand": {"closed": "234m406p78s11z", "win_tile": "9s"}, "score": {"points": 3900}}


def _create(client: FlaskClient) -> tuple[str, str]:
    resp = client.post("/api/v1/overlays")
    assert resp.status_code == 201
    body = resp.get_json()
    assert body["url"].endswith(f"/overlay/{body['id']}")
    return body["id"], body["token"]


def _publish(client: FlaskClient, oid: str, token: str | None, body: Any = CARD) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return client.post(f"/api/v1/overlays/{oid}/publish", json=body, headers=headers)


def test_publish_needs_the_token(client: FlaskClient) -> None:
    oid, token = _create(client)
    assert _publish(client, oid, None).status_code == 403
    wrong = _publish(client, oid, token[:-2] + "xx")
    assert wrong.status_code == 403
    assert wrong.get_json()["error"]["code"] == "bad_token"
    ok = _publish(client, oid, token)
    assert ok.status_code == 200
    assert ok.get_json() == {"version": 1}


def test_viewing_needs_no_token_and_never_shows_it(client: FlaskClient) -> None:
    oid, token = _create(client)
    page = client.get(f"/overlay/{oid}")
    assert page.status_code == 200
    assert token.encode() not in page.data
    # The overlay page may be embedded (OBS, a stream page); the others may not.
    assert "X-Frame-Options" not in page.headers
    assert client.get("/").headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        pytest.param({"hand": {}, "extra": 1}, 400, "unknown_field", id="unknown_field"),
        pytest.param({"score": [1, 2]}, 400, "bad_request", id="score_not_object"),
        pytest.param({"title": "x" * 70_000}, 413, "too_large", id="too_large"),
    ],
)
def test_publish_validates_the_card(
    client: FlaskClient, body: dict[str, Any], status: int, code: str
) -> None:
    oid, token = _create(client)
    resp = _publish(client, oid, token, body)
    assert resp.status_code == status
    assert resp.get_json()["error"]["code"] == code


def test_unknown_overlay_is_404(client: FlaskClient) -> None:
    assert client.get("/overlay/nope").status_code == 404
    resp = _publish(client, "nope", "token")
    assert resp.status_code == 404
    assert resp.get_json()["error"]["code"] == "unknown_overlay"
    assert client.get("/overlay/nope/events").status_code == 404


def test_event_stream_sends_the_latest_card_then_ends() -> None:
    app = create_app(
        {"TESTING": True, "OVERLAY_STREAM_SECONDS": 0.3, "OVERLAY_HEARTBEAT_SECONDS": 0.1}
    )
    client = app.test_client()
    oid, token = _create(client)
    _publish(client, oid, token)
    resp = client.get(f"/overlay/{oid}/events")
    assert resp.mimetype == "text/event-stream"
    text = resp.get_data(as_text=True)
    assert text.startswith("retry:")
    events = [e for e in text.split("\n\n") if e.startswith("id:")]
    assert len(events) == 1
    data = events[0].split("data: ", 1)[1]
    assert json.loads(data) == CARD
    assert ": keep-alive" in text  # no new card: heartbeats until the stream's life ends
    resp.close()
    assert app.extensions["agari.overlays"].open_streams == 0


def test_stream_count_is_bounded() -> None:
    app = create_app({"TESTING": True, "OVERLAY_MAX_STREAMS": 1, "OVERLAY_STREAM_SECONDS": 5.0})
    client = app.test_client()
    oid, _ = _create(client)
    first = client.get(f"/overlay/{oid}/events", buffered=False)
    second = client.get(f"/overlay/{oid}/events")
    assert second.status_code == 503
    assert second.get_json()["error"]["code"] == "too_many_streams"
    first.close()  # never iterated: the slot still comes back
    assert app.extensions["agari.overlays"].open_streams == 0


def test_hub_wakes_every_waiting_viewer() -> None:
    hub = OverlayHub(max_overlays=10, max_streams=10)
    oid, token = hub.create()
    seen: list[tuple[int, str | None]] = []
    lock = threading.Lock()

    def viewer() -> None:
        got = hub.wait(oid, 0, timeout=5.0)
        with lock:
            seen.append(got)

    threads = [threading.Thread(target=viewer) for _ in range(6)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    hub.publish(oid, token, '{"n": 1}')
    for t in threads:
        t.join(timeout=5)
    assert seen == [(1, '{"n": 1}')] * 6


def test_hub_counts_concurrent_publishes_exactly() -> None:
    hub = OverlayHub()
    oid, token = hub.create()

    def publisher(k: int) -> None:
        for i in range(50):
            hub.publish(oid, token, json.dumps([k, i]))

    threads = [threading.Thread(target=publisher, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    version, payload = hub.wait(oid, -1, timeout=0)
    assert version == 400
    assert payload is not None and json.loads(payload)[1] == 49


def test_hub_forgets_the_overlay_used_longest_ago_when_full() -> None:
    hub = OverlayHub(max_overlays=2, keep_seconds=0.0)
    first, token = hub.create()
    second, _ = hub.create()
    hub.publish(first, token, "{}")  # in use: the other is now the one used longest ago
    hub.create()
    assert hub.exists(first) and not hub.exists(second)
    with pytest.raises(AgariError):
        hub.wait(second, 0, timeout=0)


def test_a_flood_of_new_overlays_never_forgets_one_in_use() -> None:
    # 1000 anonymous creations dropped a streamer's overlay (the oldest created) in 1.6 s.
    hub = OverlayHub(max_overlays=3, creates_per_client=1000)
    used, _ = hub.create("streamer")
    for _ in range(2):
        hub.create("flooder")
    with pytest.raises(AgariError) as err:
        hub.create("flooder")
    assert err.value.code == "too_many_overlays"
    assert hub.exists(used)


def test_one_client_creates_a_bounded_number_of_overlays() -> None:
    hub = OverlayHub(creates_per_client=2)
    hub.create("a")
    hub.create("a")
    with pytest.raises(AgariError) as err:
        hub.create("a")
    assert err.value.code == "too_many_overlays"
    hub.create("b")  # others are not held back


def test_one_client_cannot_hold_every_stream() -> None:
    # Four short connections from one address kept every overlay of the server at 503.
    hub = OverlayHub(max_streams=4, streams_per_client=2, streams_per_overlay=2)
    mine, _ = hub.create("attacker")
    theirs, _ = hub.create("streamer")
    hub.acquire_stream(mine, "attacker")
    hub.acquire_stream(mine, "attacker")
    with pytest.raises(AgariError):
        hub.acquire_stream(mine, "attacker-2")  # the overlay's own limit
    with pytest.raises(AgariError):
        hub.acquire_stream(theirs, "attacker")  # the client's limit
    hub.acquire_stream(theirs, "streamer")  # the streamer still gets in
    hub.release_stream(mine, "attacker")
    hub.acquire_stream(theirs, "attacker")
    assert hub.open_streams == 3


def test_sse_under_waitress_delivers_a_published_card(live_server: LiveServer) -> None:
    """A viewer connected through the production server sees a card published later."""
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    conn.request("POST", "/api/v1/overlays")
    created = json.loads(conn.getresponse().read())
    conn.close()

    stream = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    stream.request("GET", f"/overlay/{created['id']}/events")
    resp = stream.getresponse()
    assert resp.status == 200
    assert resp.getheader("Content-Type", "").startswith("text/event-stream")
    assert resp.readline().startswith(b"retry:")

    pub = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    body = json.dumps(CARD)
    headers = {"Authorization": f"Bearer {created['token']}", "Content-Type": "application/json"}
    pub.request("POST", f"/api/v1/overlays/{created['id']}/publish", body, headers)
    assert pub.getresponse().status == 200
    pub.close()

    deadline = time.monotonic() + 10
    data = None
    while time.monotonic() < deadline and data is None:
        line = resp.readline()
        if line.startswith(b"data: "):
            data = json.loads(line[6:])
    stream.close()
    assert data == CARD
