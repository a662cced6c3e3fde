"""``agari group --json``: stdin JSON in, the group response out (CONTRACT.md)."""

from __future__ import annotations

import io
import json

import pytest

from tests.vision.grouping_fixtures import CLOSED
from tests.vision.grouping_layout import lay_out, to_detections
from webapp.cli import main


def _request() -> dict:
    return {"width": 1200, "height": 1000, "detections": to_detections(lay_out(CLOSED, "2z"))}


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status = main(["group", "--json"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, out


def test_pretty_printed_request(monkeypatch, capsys) -> None:
    status, out = _run(monkeypatch, capsys, json.dumps(_request(), indent=2))
    assert status == 0
    (response,) = out
    assert response["hand"]["closed"] == "123m456p789s1122z"
    assert response["hand"]["win_tile"] == "2z"
    assert len(response["hand_tiles"]) == 14


def test_json_lines_with_a_bad_line(monkeypatch, capsys) -> None:
    lines = json.dumps(_request()) + "\n" + '{"width": 1, "height": 1}\n' + "not json\n"
    status, out = _run(monkeypatch, capsys, lines)
    assert status == 2
    assert out[0]["hand"]["win_tile"] == "2z"
    assert out[1]["error"]["code"] == "missing_field"
    assert out[2]["error"]["code"] == "bad_json"
