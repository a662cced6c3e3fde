"""``agari score`` / ``agari settle``: JSON Lines in and out, readable text, exit status."""

from __future__ import annotations

import io
import json
import re

import pytest

from scoring.yaku import REGISTRY, YAKU_IDS
from tests.conftest import shared_path
from tests.helpers import CONTRACT_SCORE_EXAMPLE
from tests.scoring.riichi_builders import request
from webapp.cli import main

CONTRACT_EXAMPLE = CONTRACT_SCORE_EXAMPLE


def _run(
    argv: list[str],
    lines: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    status = main(argv)
    return status, capsys.readouterr().out


def test_score_json_lines_one_answer_per_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _run(
        ["score", "--json"],
        [
            json.dumps(CONTRACT_EXAMPLE),
            '{"closed": "1m", "win": "ron"}',
            json.dumps(CONTRACT_EXAMPLE),
        ],
        monkeypatch,
        capsys,
    )
    first, bad, third = (json.loads(x) for x in out.splitlines())
    assert status == 2
    # The contract's example response: 3 han 30 fu, 3900, S +6200 (3900+300+2000), W -4200.
    assert (first["han"], first["fu"], first["points"]) == (3, 30, 3900)
    assert first["deltas"] == {"E": 0, "S": 6200, "W": -4200, "N": 0}
    assert {"id": "haku", "han": 1} in first["yaku"]
    assert bad["error"]["code"] == "missing_win_tile"
    assert third == first


def test_score_text_is_readable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _run(["score"], [json.dumps(CONTRACT_EXAMPLE)], monkeypatch, capsys)
    assert status == 0
    assert out.startswith("3 han 30 fu: 3900 + 1 honba = 4200")
    assert "deltas: E 0, S +6200, W -4200, N 0" in out


def test_settle_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    win = request("123m567m678s99s34p", "2p", seat="E")
    for k in ("ruleset", "honba", "riichi_sticks", "discarder"):
        win.pop(k)
    req = {"ruleset": "tenhou", "honba": 0, "riichi_sticks": 0, "discarder": "N", "wins": [win]}
    status, out = _run(["settle", "--json"], [json.dumps(req)], monkeypatch, capsys)
    res = json.loads(out)
    assert status == 0
    assert res["deltas"] == {"E": 1500, "S": 0, "W": 0, "N": -1500}
    assert [r["seat"] for r in res["results"]] == ["E"]


def test_registry_covers_every_contract_yaku_id() -> None:
    text = shared_path("api", "CONTRACT.md").read_text(encoding="utf-8")
    listed = re.search(r"snake case: `([^`]*)`", text)
    assert listed is not None
    ids = set(re.findall(r"[a-z][a-z0-9_]*", listed.group(1)))
    ids |= {
        f"{kind}_wind_{w}" for kind in ("seat", "round") for w in ("east", "south", "west", "north")
    }
    assert len(ids) > 50
    assert ids <= YAKU_IDS


def test_supersedes_relations_are_data() -> None:
    sup = {d.id: set(d.supersedes) for d in REGISTRY}
    assert "honitsu" in sup["chinitsu"]
    assert "iipeikou" in sup["ryanpeikou"]
    assert "chanta" in sup["junchan"]
    assert "riichi" in sup["double_riichi"]
    assert all(d.rule for d in REGISTRY)  # every yaku says which rule it implements


def test_score_one_hand_in_notation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", "234m406p78s11z+9s pon:555z@left", "--ron", "W", "--seat", "S"]
    argv += ["--dora", "4p", "--honba", "1", "--sticks", "2", "--json"]
    status, out = _run(argv, [], monkeypatch, capsys)
    res = json.loads(out)
    assert status == 0
    assert res["deltas"] == {"E": 0, "S": 6200, "W": -4200, "N": 0}


def test_score_bad_hand_notation_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["score", "123m9s"]) == 2
    assert "bad_notation" in capsys.readouterr().err
