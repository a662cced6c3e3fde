"""The JSON API: every endpoint with good and bad input, against the real scoring and vision."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

import scoring.api
from scoring.errors import AgariError, InvalidHandError
from tests.webapp.conftest import SCORE_REQUEST, image_bytes
from webapp import create_app

REPO = Path(__file__).resolve().parents[2]


def _error(resp: Any) -> dict[str, Any]:
    assert resp.is_json, resp.data[:200]
    return resp.get_json()["error"]


# --- /score -------------------------------------------------------------------------------


def test_score_answers_the_contract_example(client: FlaskClient) -> None:
    resp = client.post("/api/v1/score", json=SCORE_REQUEST)
    assert resp.status_code == 200
    body = resp.get_json()
    assert (body["han"], body["fu"], body["points"]) == (3, 30, 3900)
    assert body["deltas"] == {"E": 0, "S": 6200, "W": -4200, "N": 0}
    assert {y["id"] for y in body["yaku"]} == {"haku", "dora", "aka_dora"}
    # The HTTP answer is exactly the function's answer.
    assert body == scoring.api.score(dict(SCORE_REQUEST))


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        pytest.param({"honba": "one"}, 400, "bad_count", id="honba_string"),
        pytest.param({"flags": "riichi"}, 400, "bad_request", id="flags_not_list"),
        pytest.param({"closed": 123}, 400, "bad_request", id="closed_number"),
        pytest.param({"ruleset": "no-such-rules"}, 400, "unknown_ruleset", id="unknown_ruleset"),
        pytest.param({"ruleset": 5}, 400, "unknown_ruleset", id="ruleset_number"),
        pytest.param({"colour": "red"}, 400, "unknown_field", id="unknown_field"),
        pytest.param({"closed": "234m406p78s1z"}, 422, "too_few_tiles", id="too_few_tiles"),
    ],
)
def test_score_rejects_bad_requests(
    client: FlaskClient, change: dict[str, Any], status: int, code: str
) -> None:
    resp = client.post("/api/v1/score", json=SCORE_REQUEST | change)
    assert resp.status_code == status
    assert _error(resp)["code"] == code


def test_score_not_a_win_is_422(client: FlaskClient) -> None:
    req = SCORE_REQUEST | {"closed": "1357m2468p135s57z", "melds": [], "win_tile": "9s"}
    resp = client.post("/api/v1/score", json=req)
    assert resp.status_code == 422
    assert _error(resp)["code"] == "not_a_win"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param(b"{not json", "bad_json", id="not_json"),
        pytest.param(b"[1, 2]", "bad_request", id="array"),
        pytest.param(b'"text"', "bad_request", id="string"),
        pytest.param(b"\xff\xfe", "bad_json", id="not_utf8"),
        pytest.param(b"", "bad_json", id="empty"),
        # Deeper than the parser goes: a RecursionError, answered 500 as if a bug of ours.
        pytest.param(b"[" * 100_000, "bad_json", id="nested_too_deeply"),
    ],
)
@pytest.mark.parametrize("endpoint", ["score", "settle", "standings", "group"])
def test_json_endpoints_refuse_non_objects(
    client: FlaskClient, endpoint: str, body: bytes, code: str
) -> None:
    resp = client.post(f"/api/v1/{endpoint}", data=body, content_type="application/json")
    assert resp.status_code == 400
    assert _error(resp)["code"] == code


def test_get_on_a_post_endpoint_is_json_405(client: FlaskClient) -> None:
    resp = client.get("/api/v1/score")
    assert resp.status_code == 405
    assert _error(resp)["code"] == "method_not_allowed"


def test_unknown_api_path_is_json_404(client: FlaskClient) -> None:
    resp = client.get("/api/v1/nothing-here")
    assert resp.status_code == 404
    assert _error(resp)["code"] == "not_found"


# --- /settle and /standings -----------------------------------------------------------------


def test_settle_pays_the_win(client: FlaskClient) -> None:
    win = {
        k: v
        for k, v in SCORE_REQUEST.items()
        if k not in ("ruleset", "honba", "riichi_sticks", "discarder")
    }
    req = {"ruleset": "tenhou", "honba": 0, "riichi_sticks": 0, "discarder": "W", "wins": [win]}
    resp = client.post("/api/v1/settle", json=req)
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["deltas"] == {"E": 0, "S": 3900, "W": -3900, "N": 0}
    assert body["results"][0]["points"] == 3900


@pytest.mark.parametrize(
    ("req", "code"),
    [
        pytest.param({"ruleset": "tenhou", "wins": "x"}, "missing_field", id="wins_string"),
        pytest.param({"ruleset": "nope", "wins": [{}]}, "unknown_ruleset", id="unknown_ruleset"),
    ],
)
def test_settle_rejects_bad_requests(client: FlaskClient, req: dict[str, Any], code: str) -> None:
    resp = client.post("/api/v1/settle", json=req)
    assert resp.status_code == 400
    assert _error(resp)["code"] == code


STANDINGS = {
    "ruleset": "jpml-a",
    "final_scores": {"E": 41200, "S": 31000, "W": 21300, "N": 6500},
    "riichi_sticks_left": 0,
    "chombo": {"W": 1},
}


def test_standings_ranks_the_seats(client: FlaskClient) -> None:
    resp = client.post("/api/v1/standings", json=STANDINGS)
    assert resp.status_code == 200
    ranks = {row["seat"]: row["rank"] for row in resp.get_json()["standings"]}
    assert ranks == {"E": 1, "S": 2, "W": 3, "N": 4}


@pytest.mark.parametrize(
    ("change", "code"),
    [
        pytest.param({"final_scores": {"E": "x"}}, "bad_request", id="scores_wrong_type"),
        pytest.param({"ruleset": "nope"}, "unknown_ruleset", id="unknown_ruleset"),
    ],
)
def test_standings_rejects_bad_requests(
    client: FlaskClient, change: dict[str, Any], code: str
) -> None:
    resp = client.post("/api/v1/standings", json=STANDINGS | change)
    assert resp.status_code == 400
    assert _error(resp)["code"] == code


# --- /group -----------------------------------------------------------------------------------


def _row(tiles: list[str]) -> list[dict[str, Any]]:
    """Upright tiles side by side, 40 x 56 px each, as a detector would report them."""
    return [
        {"tile": t, "box": [100 + 42 * i, 300, 140 + 42 * i, 356], "confidence": 0.97}
        for i, t in enumerate(tiles)
    ]


def test_group_rebuilds_a_hand_from_boxes(client: FlaskClient) -> None:
    tiles = ["2m", "3m", "4m", "4p", "5p", "6p", "7s", "8s", "9s", "2p", "2p", "5s", "6s"]
    dets = _row(tiles)
    # The winning tile set apart by a gap at the right end.
    dets.append({"tile": "7s", "box": [700, 300, 740, 356], "confidence": 0.95})
    resp = client.post("/api/v1/group", json={"width": 900, "height": 600, "detections": dets})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["hand"]["win_tile"] == "7s"
    assert len(body["hand_tiles"]) == 14


@pytest.mark.parametrize(
    "req",
    [
        pytest.param({"width": 900, "height": 600}, id="no_detections"),
        pytest.param({"width": "wide", "height": 600, "detections": []}, id="width_string"),
        pytest.param({"width": 900, "height": 600, "detections": "none"}, id="detections_string"),
        pytest.param(
            {"width": 900, "height": 600, "detections": [{"tile": "9z", "box": [0, 0, 1, 1]}]},
            id="unknown_tile",
        ),
    ],
)
def test_group_rejects_bad_requests(client: FlaskClient, req: dict[str, Any]) -> None:
    resp = client.post("/api/v1/group", json=req)
    assert resp.status_code == 400
    error = _error(resp)
    assert error["code"] not in ("internal_error", "not_implemented")
    assert error["message"]


@pytest.mark.parametrize(
    ("context", "code"),
    [
        pytest.param({"riichi": True}, "unknown_field", id="unknown_field"),
        pytest.param({"honba": "1"}, "bad_count", id="honba_string"),
        pytest.param({"discarder": "X"}, "bad_seat", id="bad_discarder"),
    ],
)
def test_group_refuses_a_bad_context(client: FlaskClient, context: Any, code: str) -> None:
    dets = _row(["2m", "3m", "4m", "4p", "5p", "6p", "7s", "8s", "9s", "2p", "2p", "5s", "6s"])
    body = {"width": 900, "height": 600, "detections": dets, "context": context}
    resp = client.post("/api/v1/group", json=body)
    assert resp.status_code == 400
    assert _error(resp)["code"] == code


# --- /recognize -------------------------------------------------------------------------------


def _upload(client: FlaskClient, data: bytes, name: str = "photo.jpg") -> Any:
    return client.post(
        "/api/v1/recognize",
        data={"photo": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
    )


def _model_present() -> bool:
    return any((REPO / "models").glob("*.onnx"))


def test_recognize_reads_a_photo(client: FlaskClient) -> None:
    if not _model_present():
        pytest.skip("no shipped detector model in models/ yet (issue 7)")
    examples = sorted((REPO / "webapp" / "examples").glob("*.jpg"))
    data = examples[0].read_bytes() if examples else image_bytes()
    resp = _upload(client, data)
    assert resp.status_code == 200, resp.data[:300]
    body = resp.get_json()
    assert {"width", "height", "detections", "hand_tiles", "hand", "warnings"} <= set(body)
    for det in body["detections"]:
        x1, y1, x2, y2 = det["box"]
        assert 0 <= x1 < x2 <= body["width"] and 0 <= y1 < y2 <= body["height"]


def _fifty_megapixels() -> bytes:
    """A real 50 MP PNG that compresses to a few kB (a decompression bomb in miniature)."""
    buf = io.BytesIO()
    Image.new("1", (8000, 6250)).save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("make", "status", "code"),
    [
        pytest.param(lambda: b"hello, not a photo", 415, "not_an_image", id="not_an_image"),
        pytest.param(lambda: b"", 400, "empty_image", id="empty"),
        pytest.param(
            lambda: image_bytes("JPEG")[: len(image_bytes("JPEG")) // 2],
            400,
            "truncated_image",
            id="truncated_jpeg",
        ),
        pytest.param(_fifty_megapixels, 413, "too_many_pixels", id="fifty_megapixels"),
        pytest.param(lambda: image_bytes("GIF"), 415, "unsupported_image", id="gif"),
        pytest.param(lambda: image_bytes("PNG", (8, 8)), 400, "image_too_small", id="tiny"),
    ],
)
def test_recognize_refuses_bad_uploads(
    client: FlaskClient, make: Any, status: int, code: str
) -> None:
    resp = _upload(client, make())
    assert resp.status_code == status
    assert _error(resp)["code"] == code


def test_recognize_needs_the_photo_field(client: FlaskClient) -> None:
    resp = client.post("/api/v1/recognize", data={}, content_type="multipart/form-data")
    assert resp.status_code == 400
    assert _error(resp)["code"] == "missing_photo"
    wrong_name = client.post(
        "/api/v1/recognize",
        data={"picture": (io.BytesIO(image_bytes()), "p.jpg")},
        content_type="multipart/form-data",
    )
    assert wrong_name.status_code == 400
    assert _error(wrong_name)["code"] == "unknown_field"


def test_recognize_photo_sent_as_text_is_refused(client: FlaskClient) -> None:
    resp = client.post("/api/v1/recognize", data={"photo": "not a file"})
    assert resp.status_code == 400
    assert _error(resp)["code"] == "missing_photo"


def test_recognize_refuses_unknown_form_fields(client: FlaskClient) -> None:
    resp = client.post(
        "/api/v1/recognize",
        data={"photo": (io.BytesIO(image_bytes()), "p.jpg"), "rules": "tenhou"},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 400
    assert _error(resp)["code"] == "unknown_field"


@pytest.mark.parametrize(
    ("context", "code"),
    [
        pytest.param('{"ruleset": "no-such-rules"}', "unknown_ruleset", id="unknown_ruleset"),
        pytest.param('{"ruleset": ', "bad_json", id="not_json"),
        pytest.param('["tenhou"]', "bad_request", id="not_an_object"),
        pytest.param("[" * 100_000, "bad_json", id="nested_too_deeply"),
        pytest.param(
            '{"ruleset": {"base": "tenhou", "overrides": {"no_rule": 1}}}',
            "unknown_rule",
            id="bad_override",
        ),
        # Checked up front like the ruleset: each what-if score would carry the same error.
        pytest.param('{"riichi": true}', "unknown_field", id="unknown_field"),
        pytest.param('{"honba": "1"}', "bad_count", id="honba_string"),
        pytest.param('{"flags": ["rich"]}', "unknown_flag", id="unknown_flag"),
        pytest.param('{"seat_wind": "X"}', "bad_seat", id="bad_seat"),
        pytest.param('{"win": "RON"}', "bad_win", id="bad_win"),
    ],
)
def test_recognize_refuses_a_bad_context(client: FlaskClient, context: str, code: str) -> None:
    resp = client.post(
        "/api/v1/recognize",
        data={"photo": (io.BytesIO(image_bytes()), "p.jpg"), "context": context},
        content_type="multipart/form-data",
    )
    assert resp.status_code in (400, 422)
    assert _error(resp)["code"] == code


def test_recognize_takes_the_rulesets_context(client: FlaskClient) -> None:
    if not _model_present():
        pytest.skip("no shipped detector model in models/ yet (issue 7)")
    examples = sorted((REPO / "webapp" / "examples").glob("*.jpg"))
    data = examples[0].read_bytes() if examples else image_bytes()
    resp = client.post(
        "/api/v1/recognize",
        data={"photo": (io.BytesIO(data), "p.jpg"), "context": '{"ruleset": "ema"}'},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 200, resp.data[:300]
    plain = _upload(client, data).get_json()
    body = resp.get_json()
    # The same photo, the same reading; the context only feeds red fives and what-if scores.
    assert body["hand_tiles"] == plain["hand_tiles"]
    assert body["detections"] == plain["detections"]


def test_recognize_json_body_is_refused(client: FlaskClient) -> None:
    resp = client.post("/api/v1/recognize", json={"photo": "aGVsbG8="})
    assert resp.status_code == 400
    assert _error(resp)["code"] == "missing_photo"


def test_upload_over_the_size_cap_is_json_413() -> None:
    from webapp import create_app

    client = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 10_000}).test_client()
    resp = _upload(client, image_bytes("PNG", (400, 400)) + b"\0" * 20_000)
    assert resp.status_code == 413
    assert _error(resp)["code"] == "too_large"


# --- error mapping, docs ----------------------------------------------------------------------


def test_agari_errors_keep_code_and_status(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(_: dict[str, Any]) -> dict[str, Any]:
        raise InvalidHandError("riichi with an open hand", code="riichi_open_hand")

    monkeypatch.setattr(scoring.api, "score", refuse)
    resp = client.post("/api/v1/score", json={})
    assert resp.status_code == 422
    assert _error(resp) == {"code": "riichi_open_hand", "message": "riichi with an open hand"}


def test_not_implemented_is_501(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def pending(_: dict[str, Any]) -> dict[str, Any]:
        raise AgariError("settle is not implemented yet", code="not_implemented")

    monkeypatch.setattr(scoring.api, "settle", pending)
    resp = client.post("/api/v1/settle", json={})
    assert resp.status_code == 501
    assert _error(resp)["code"] == "not_implemented"


def test_a_bug_is_a_json_500_without_traceback(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(_: dict[str, Any]) -> dict[str, Any]:
        raise ZeroDivisionError("secret internal detail")

    monkeypatch.setattr(scoring.api, "score", crash)
    resp = client.post("/api/v1/score", json={})
    assert resp.status_code == 500
    assert _error(resp)["code"] == "internal_error"
    assert b"secret internal detail" not in resp.data
    assert b"Traceback" not in resp.data


def test_openapi_document_lists_every_endpoint(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    for path in ("score", "settle", "recognize", "group", "standings"):
        assert "post" in doc["paths"][f"/api/v1/{path}"]
    # Every $ref points at a schema that exists.
    refs = [r.split("/")[-1] for r in _refs(doc)]
    assert refs and set(refs) <= set(doc["components"]["schemas"])
    # Every error status of the contract's endpoints answers the Error object.
    for path in ("score", "settle", "recognize", "group", "standings"):
        for status, resp in doc["paths"][f"/api/v1/{path}"]["post"]["responses"].items():
            if status.startswith(("4", "5")):
                schema = resp["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (path, status)
    assert client.get("/api/v1/docs").status_code == 200


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if "$ref" in node else []
        return own + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_rulesets_lists_every_shipped_ruleset(client: FlaskClient) -> None:
    from scoring.ruleset import list_rulesets

    body = client.get("/api/v1/rulesets").get_json()
    assert [r["id"] for r in body["rulesets"]] == list_rulesets()
    assert all(r["name"] for r in body["rulesets"])


def test_a_json_request_is_capped_far_below_a_photo(client: FlaskClient) -> None:
    # The app's 25 MB is for photos: 4 million dora indicators cost 8 s of parsing.
    big = b'{"ruleset": "tenhou", "dora_indicators": [' + b'"4p",' * 200_000 + b'"4p"]}'
    resp = client.post("/api/v1/score", data=big, content_type="application/json")
    assert (resp.status_code, _error(resp)["code"]) == (413, "too_large")


def test_an_error_quotes_at_most_a_line_of_the_input(client: FlaskClient) -> None:
    # A 300 KB tile string came back whole in the message.
    req = SCORE_REQUEST | {"closed": "1m" * 150_000 + "x"}
    resp = client.post("/api/v1/score", json=req)
    assert resp.status_code == 400
    assert len(_error(resp)["message"]) <= 1001


def test_recognize_waits_its_turn_then_answers_busy() -> None:
    # Six tiny 40 MP PNGs read at once held 3 GB: photos are read a few at a time.
    app = create_app({"TESTING": True, "RECOGNIZE_CONCURRENCY": 1, "RECOGNIZE_WAIT_SECONDS": 0.05})
    slots = app.extensions["agari.recognize_slots"]
    assert slots.acquire(timeout=1)  # another photo is being read
    try:
        resp = app.test_client().post(
            "/api/v1/recognize",
            data={"photo": (io.BytesIO(image_bytes()), "p.jpg")},
            content_type="multipart/form-data",
        )
    finally:
        slots.release()
    assert (resp.status_code, _error(resp)["code"]) == (503, "busy")
