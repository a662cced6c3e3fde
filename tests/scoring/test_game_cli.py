"""The command-line faces of this issue: `agari standings --json`, `agari game`, `agari rules`."""

from __future__ import annotations

import io
import json

import pytest

from webapp.cli import main

Capture = pytest.CaptureFixture[str]


def run(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(argv)
    return status, capsys.readouterr().out


def test_standings_json_contract_example(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    line = json.dumps(
        {
            "ruleset": "jpml-a",
            "final_scores": {"E": 41200, "S": 31000, "W": 21300, "N": 5500},
            "riichi_sticks_left": 1,
            "chombo": {"W": 1},
        }
    )
    status, out = run(["standings", "--json"], line + "\n" + line + "\n", monkeypatch, capsys)
    answers = [json.loads(x) for x in out.splitlines()]
    assert status == 0 and len(answers) == 2
    first = answers[0]["standings"][0]
    assert first == first | {"seat": "E", "rank": 1, "score": 41200, "result": 19.2}


def test_standings_bad_line_answers_error_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    good = json.dumps({"ruleset": "m-league", "final_scores": dict.fromkeys("ESWN", 25000)})
    bad = json.dumps({"ruleset": "m-league", "final_scores": {"E": 1}})
    status, out = run(["standings", "--json"], f"{bad}\n{good}\n", monkeypatch, capsys)
    answers = [json.loads(x) for x in out.splitlines()]
    assert status == 2
    assert answers[0]["error"]["code"] == "bad_request"
    # Four tied on 25000 (m-league): 50+10-10-30 = 20 shared, 5 each; -5 + 5 = 0.
    assert [r["result"] for r in answers[1]["standings"]] == [0, 0, 0, 0]


GAME = {
    "ruleset": "m-league",
    "hands": [
        {"result": "win", "winner": "S", "from": "W", "points": 8000},
        {"result": "draw", "tenpai": ["S"]},
    ],
}


def test_game_json_prints_every_hand_and_standings(
    monkeypatch: pytest.MonkeyPatch,
    capsys: Capture,
) -> None:
    status, out = run(["game", "--json"], json.dumps(GAME, indent=2), monkeypatch, capsys)
    answer = json.loads(out)
    assert status == 0
    # E1: S 33000, W 17000. E2 (dealer S): S alone tenpai +3000: S 36000, others -1000.
    assert [h["scores"] for h in answer["hands"]] == [
        {"E": 25000, "S": 33000, "W": 17000, "N": 25000},
        {"E": 24000, "S": 36000, "W": 16000, "N": 24000},
    ]
    assert answer["hands"][1]["next"] == "E2-1"
    assert answer["standings"][0]["seat"] == "S"


def test_game_illegal_hand_says_which(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    game = GAME | {"hands": [*GAME["hands"], {"result": "abortive", "kind": "four_winds"}]}
    status, out = run(["game", "--json"], json.dumps(game), monkeypatch, capsys)
    error = json.loads(out)["error"]
    assert status == 2
    assert error["code"] == "illegal_hand"
    assert error["message"].startswith("hand 3 (E2)")
    assert error["details"] == {"hand": 3}


def test_game_text_table(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    status, out = run(["game"], json.dumps(GAME), monkeypatch, capsys)
    assert status == 0
    assert "E1-0" in out and "S+8000" in out and "ended: unfinished" in out


def test_rules_list_show_diff(capsys: Capture) -> None:
    assert main(["rules", "list"]) == 0
    listed = capsys.readouterr().out
    for rid in ("jpml-a", "jpml-b", "m-league", "tenpane", "wsom", "tenhou", "wrc", "ema"):
        assert rid in listed
    assert main(["rules", "show", "m-league"]) == 0
    shown = capsys.readouterr().out
    tobi = next(line for line in shown.splitlines() if line.startswith("game.tobi "))
    assert "false" in tobi and "m-league" in tobi and "seed 002, line 8" in tobi
    noten = next(line for line in shown.splitlines() if line.startswith("game.noten_payment"))
    assert "base default" in noten
    assert main(["rules", "diff", "jpml-a", "m-league"]) == 0
    diff = capsys.readouterr().out
    assert "game.uma_by_players_above" in diff and "game.start_points" in diff
    assert "game.length" not in diff  # both are hanchan


def test_rules_unknown_id_exit_2(capsys: Capture) -> None:
    assert main(["rules", "show", "nope"]) == 2
    assert "unknown_ruleset" in capsys.readouterr().err
