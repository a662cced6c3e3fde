"""``agari table``: create, list, show and export, against a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webapp.cli import main
from webapp.ledger import repository as repo
from webapp.ledger.db import LedgerStore
from webapp.ledger.state import check_replays

HANDS = [
    # m-league, hand by hand (as in test_ledger_games): E riichi ron off S 12000;
    # S and W tenpai after W's riichi; N tsumo 1000/2000 with two honba and W's stick.
    {"result": "win", "winner": "E", "from": "S", "points": 12000, "riichi": ["E"]},
    {"result": "draw", "tenpai": ["S", "W"], "riichi": ["W"]},
    {"result": "win", "winner": "N", "points": [1000, 2000]},
]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cli.sqlite3'}"


def _create(db: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    status = main(
        ["table", "--database", db, "create", "--ruleset", "m-league",
         "--players", "Ayumi,Bao,Chloé,Dmitri", "--title", "Final", "--json"]
    )  # fmt: skip
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    return out["id"], out["token"]


def test_create_show_export(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tid, token = _create(db, capsys)
    store = LedgerStore(db)
    for hand in HANDS:
        repo.append_entry(store, tid, token, hand, check=check_replays)
    store.dispose()

    assert main(["table", "--database", db, "list"]) == 0
    assert f"{tid}    3 hands  Final" in capsys.readouterr().out

    assert main(["table", "--database", db, "show", tid]) == 0
    shown = capsys.readouterr().out
    assert "East 3, honba 0, sticks 0" in shown
    # At East 3 the starting West deals: it sits East now, which the line says.
    assert "W Chloé                  24300  sits East (dealer)" in shown

    out = tmp_path / "game.json"
    assert main(["table", "--database", db, "export", tid, "-o", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["format"] == "agari-table/1" and "token" not in doc
    assert [e["entry"] for e in doc["entries"]] == HANDS
    assert doc["scoreboard"]["scores"] == {"E": 34300, "S": 12300, "W": 24300, "N": 29100}

    assert main(["table", "--database", db, "export", tid, "--format", "log"]) == 0
    log = capsys.readouterr().out.splitlines()
    assert log[0] == "# Final · m-league · Ayumi / Bao / Chloé / Dmitri"
    assert log[1].split()[:3] == ["#", "hand", "result"]  # which column is whose
    assert log[1].split()[3:7] == ["E", "S", "W", "N"]
    assert log[2].split()[:2] == ["1", "E1-0"]
    assert log[3].strip() == "E collects 1000 in riichi sticks"  # the replay's note
    third = next(line for line in log if line.split()[:2] == ["3", "E2-2"])
    assert third.split("|")[1].split() == ["34300", "12300", "24300", "29100"]

    assert main(["table", "--database", db, "export", tid, "--format", "tenhou"]) == 0
    tenhou = json.loads(capsys.readouterr().out)
    assert tenhou["name"] == ["Ayumi", "Bao", "Chloé", "Dmitri"]
    # Hand 3: East 2 (index 1), two honba, one stick at its start; N tsumo from N.
    third = tenhou["log"][2]
    assert third[0] == [1, 2, 1]
    assert third[1] == [35500, 14500, 25500, 23500]
    assert third[-1] == ["和了", [-1200, -2200, -1200, 5600], [3, 3, 3, "1000-2000点"]]
    # Tenhou's changes leave out the hand's own riichi sticks: W's declaration is not in
    # the draw's noten payments, E's stick comes back to E's win.
    assert tenhou["log"][1][-1] == ["流局", [-1500, 1500, 1500, -1500]]
    assert tenhou["log"][0][-1] == ["和了", [13000, -12000, 0, 0], [0, 1, 0, "12000点"]]
    assert tenhou["sc"][0::2] == [343, 123, 243, 291]


def test_errors_are_reported_with_a_code(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--database", db, "show", "nope"]) == 2
    assert "table_not_found" in capsys.readouterr().err
    assert main(["table", "--database", db, "create", "--ruleset", "m-league",
                 "--players", "a,b,c"]) == 2  # fmt: skip
    assert "bad_players" in capsys.readouterr().err
    assert main(["table", "--database", db, "create", "--ruleset", "nope",
                 "--players", "a,b,c,d"]) == 2  # fmt: skip
    assert "unknown_ruleset" in capsys.readouterr().err
    assert main(["table", "--database", db, "list"]) == 0
    assert capsys.readouterr().out == ""


def test_ids_and_tokens_never_start_like_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    # A table id such as '-x3f...' made `agari table show ID` fail (argparse read an option).
    drawn = iter(["-x3f", "_y7", "Ab9"])
    monkeypatch.setattr(repo.secrets, "token_urlsafe", lambda n: next(drawn))
    assert repo.new_table_id() == "Ab9"
    drawn = iter(["-tok", "tok"])
    assert repo.new_token() == "tok"


def test_a_referee_records_and_undoes_hands_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recording a hand and undoing it needed `agari serve` and HTTP requests."""
    db = f"sqlite:///{tmp_path / 'l.db'}"
    tid, token = _create(db, capsys)
    win = json.dumps(HANDS[0])
    assert main(["table", "--database", db, "record", tid, win, "--token", token]) == 0
    assert "1 hands" in capsys.readouterr().out
    # Without the token: refused, nothing written.
    monkeypatch.delenv("AGARI_TABLE_TOKEN", raising=False)
    assert main(["table", "--database", db, "record", tid, win]) == 2
    assert "token_required" in capsys.readouterr().err
    # A hand the replay refuses is refused here too.
    bad = json.dumps({"result": "win", "winner": "S"})
    assert main(["table", "--database", db, "record", tid, bad, "--token", token]) == 2
    assert "illegal_hand" in capsys.readouterr().err
    monkeypatch.setenv("AGARI_TABLE_TOKEN", token)
    assert main(["table", "--database", db, "undo", tid]) == 0
    out = capsys.readouterr().out
    assert "undone: hand 1" in out and "0 hands" in out
    assert main(["table", "--database", db, "export", tid, "-o", "/nonexistent/dir/x"]) == 2
    assert "bad_path" in capsys.readouterr().err


def test_the_tenhou_log_names_every_win_s_payment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dealer's tsumo is '...点∀' as Tenhou writes it; a win recorded as its score request
    names its payment too (it was empty)."""
    db = f"sqlite:///{tmp_path / 'l.db'}"
    tid, token = _create(db, capsys)
    store = LedgerStore(db)
    repo.append_entry(
        store, tid, token, {"result": "win", "winner": "E", "points": 1300}, check=check_replays
    )
    request = {
        "closed": "234m456p678s22m67p",
        "win_tile": "8p",
        "win": "ron",
        "seat_wind": "S",
        "round_wind": "E",
        "discarder": "W",
        "flags": ["riichi"],
    }
    repo.append_entry(
        store,
        tid,
        token,
        {"result": "win", "winner": "S", "from": "W", "request": request, "riichi": ["S"]},
        check=check_replays,
    )
    store.dispose()
    assert main(["table", "--database", db, "export", tid, "--format", "tenhou"]) == 0
    log = json.loads(capsys.readouterr().out)["log"]
    assert log[0][-1][-1][-1] == "1300点∀"
    assert log[1][-1][-1][-1].endswith("点") and log[1][-1][-1][-1] != "点"
