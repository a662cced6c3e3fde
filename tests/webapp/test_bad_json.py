"""Every place a user's JSON text is parsed answers the same ``bad_json`` error: the HTTP
API's body, the ledger's body, each CLI line, ``agari game`` and ``agari group``'s whole
document, and the recognize context (``scoring.errors.parse_json``)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scoring.errors import AgariError, parse_json
from vision.api import context_from_json
from webapp import create_app
from webapp.cli import main, run_json_lines

#: (text, the reason every site gives after "... is not valid JSON: ")
CASES = [
    pytest.param('{"honba": ', "Expecting value (column 11)", id="cut_short"),
    # Under the ledger's 64 KB cap, far deeper than the parser goes.
    pytest.param("[" * 60_000, "nested too deeply", id="nested_too_deeply"),
    # Python converts integers of at most 4,300 digits: a plain ValueError, once a 500.
    pytest.param('{"honba": 1' + "0" * 5000 + "}", "a number has too many digits", id="huge_int"),
    pytest.param(
        "{'honba': 1}",
        "Expecting property name enclosed in double quotes (column 2)",
        id="single_quotes",
    ),
]


def _error_of(call: Callable[[], Any]) -> dict[str, Any]:
    try:
        call()
    except AgariError as exc:
        return exc.to_dict()
    raise AssertionError("no error raised")


def _via_api(text: str, tmp_path: Path) -> dict[str, Any]:
    client = create_app({"TESTING": True}).test_client()
    resp = client.post("/api/v1/score", data=text, content_type="application/json")
    assert resp.status_code == 400
    return resp.get_json()["error"]


def _via_ledger(text: str, tmp_path: Path) -> dict[str, Any]:
    app = create_app({"TESTING": True, "LEDGER_DATABASE_URL": f"sqlite:///{tmp_path}/l.db"})
    client = app.test_client()
    resp = client.post("/api/v1/tables", data=text, content_type="application/json")
    assert resp.status_code == 400
    assert client.get("/api/v1/tables").get_json()["tables"] == []  # nothing stored
    app.extensions["agari.ledger"].dispose()
    return resp.get_json()["error"]


def _via_json_lines(text: str, tmp_path: Path) -> dict[str, Any]:
    out = io.StringIO()
    assert run_json_lines(lambda r: r, [text], out) == 2
    return json.loads(out.getvalue())["error"]


def _via_command(command: str) -> Callable[[str, Path], dict[str, Any]]:
    def run(text: str, tmp_path: Path) -> dict[str, Any]:
        mp = pytest.MonkeyPatch()
        out = io.StringIO()
        mp.setattr("sys.stdin", io.StringIO(text))
        mp.setattr("sys.stdout", out)
        try:
            assert main([command, "--json"]) == 2
        finally:
            mp.undo()
        return json.loads(out.getvalue())["error"]

    return run


def _via_context(text: str, tmp_path: Path) -> dict[str, Any]:
    return _error_of(lambda: context_from_json(text, what="--context"))


SITES = [
    pytest.param(_via_api, id="api_body"),
    pytest.param(_via_ledger, id="ledger_body"),
    pytest.param(_via_json_lines, id="cli_json_lines"),
    pytest.param(_via_command("game"), id="cli_game"),
    pytest.param(_via_command("group"), id="cli_group"),
    pytest.param(_via_context, id="recognize_context"),
]


@pytest.mark.parametrize("text, reason", CASES)
@pytest.mark.parametrize("site", SITES)
def test_every_site_answers_the_same_bad_json(
    site: Callable[[str, Path], dict[str, Any]], text: str, reason: str, tmp_path: Path
) -> None:
    error = site(text, tmp_path)
    assert error["code"] == "bad_json"
    assert error["message"].endswith(f" is not valid JSON: {reason}"), error["message"]


def test_the_parser_names_what_was_read_and_where() -> None:
    assert parse_json(b'{"a": [1, 2]}', what="the body") == {"a": [1, 2]}
    bad = _error_of(lambda: parse_json('{\n  "a": 1,\n}', what="the game"))
    assert bad == {
        "code": "bad_json",
        "message": "the game is not valid JSON: "
        "Expecting property name enclosed in double quotes (line 3, column 1)",
    }
    not_utf8 = _error_of(lambda: parse_json(b'{"a": "\xff"}', what="the body"))
    assert not_utf8 == {"code": "bad_json", "message": "the body is not valid JSON: not UTF-8"}
