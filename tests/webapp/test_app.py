from __future__ import annotations

from webapp import create_app


def test_home_answers() -> None:
    client = create_app({"TESTING": True}).test_client()
    resp = client.get("/")
    assert resp.status_code == 200
    assert b"Agari" in resp.data
