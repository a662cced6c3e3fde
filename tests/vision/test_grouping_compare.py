"""The scene-by-scene grouping comparison (``benchmarks/grouping_compare.py``): the tool the
settings' "study +N -M" figures come from names the scenes a change gains and loses."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "benchmarks" / "grouping_compare.py"


def _tool():
    spec = importlib.util.spec_from_file_location("grouping_compare", TOOL)
    module = importlib.util.module_from_spec(spec)
    # registered under its name: the worker processes find scene_result there
    sys.modules["grouping_compare"] = module
    spec.loader.exec_module(module)
    return module


def _line(
    scene: str, exact: bool, warnings: list[str], damaged_exact: bool = True, offered: bool = False
) -> dict:
    return {
        "scene": scene,
        "exact": exact,
        "warnings": warnings,
        "offered": exact or offered,
        "alternatives": int(offered),
        "damaged_exact": damaged_exact,
        "damaged_warnings": [],
        "damaged_traceless": False,
    }


def test_changes_name_gains_losses_and_new_silence() -> None:
    tool = _tool()
    before = {
        "1/1": _line("1/1", False, ["possible_indicators"]),
        "1/2": _line("1/2", True, []),
        "1/3": _line("1/3", True, []),
        "1/4": _line("1/4", True, [], damaged_exact=True),
    }
    after = {
        "1/1": _line("1/1", True, []),
        "1/2": _line("1/2", False, ["doubtful_gap"]),
        "1/3": _line("1/3", False, []),  # wrong and warned by nothing: silent
        "1/4": _line("1/4", True, [], damaged_exact=False),
    }
    assert tool.changes(before, after) == (["1/1"], ["1/2", "1/3"], ["1/3"])
    assert tool.changes(before, after, "damaged_") == ([], ["1/4"], ["1/4"])
    assert next(tool.totals(after)).startswith("true boxes: 2/4 exact (50.00%), 1 wrong")
    after["1/2"] = _line("1/2", False, ["possible_indicators"], offered=True)
    assert list(tool.totals(after))[1].strip().startswith("offered (chosen or an alternative): 3/4")


def test_settings_are_checked_before_a_run() -> None:
    tool = _tool()
    assert tool.parse_setting("GAP=1") == ("GAP", 1.0)  # an int where a float is expected
    with pytest.raises(SystemExit, match="no grouping setting"):
        tool.parse_setting("NO_SUCH_SETTING=1")
    with pytest.raises(SystemExit, match="is a float"):
        tool.parse_setting("GAP='wide'")
    assert tool.parse_seeds("1001-1003,770013") == [1001, 1002, 1003, 770013]


def test_a_run_and_its_diff_name_what_a_setting_changes(tmp_path: Path, capsys) -> None:
    """Two generated scenes grouped (rendered once, then cached): the lines hold each scene's
    hand from true and damaged boxes, and the diff of a run with itself changes nothing."""
    tool = _tool()
    out = tmp_path / "run.jsonl"
    common = ["--seeds", "880005", "--n", "2", "--size", "640", "--workers", "1"]
    assert tool.main(["run", "--out", str(out), *common, "--cache", str(tmp_path)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines and all(set(x["want"]) >= {"closed", "melds"} for x in lines)
    assert all(isinstance(x["damaged_exact"], bool) for x in lines)
    # a right hand is offered; a wrong one is offered only among its alternatives
    assert all(x["offered"] for x in lines if x["exact"])
    assert all(isinstance(x["alternatives"], int) for x in lines)
    assert list(tmp_path.glob("s880005_640/*.json"))  # the truth was cached
    capsys.readouterr()
    assert tool.main(["diff", str(out), str(out)]) == 0
    report = capsys.readouterr().out
    assert "true boxes: +0 -0, 0 newly silent" in report
    assert "damaged boxes: +0 -0, 0 newly silent" in report
