"""Grouping, the hand row: rules for standing tiles beside flat ones and added kans seen from
low down, each shown on a fixture from a generated tuning scene that reads wrong (or not at
all) with the rule switched off."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.vision.grouping_fixtures import OUT
from vision.api import group
from vision.grouping import settings
from vision.grouping.hand_row import _without_interleaved_backs
from vision.grouping.values import Detection
from vision.rows import Row

#: Fixtures of their own folder: some read right with a warning (a joined tile, a winning
#: tile assumed), which the clean fixtures of ``OUT`` must not carry; one reads wrong with
#: its doubts named (``sideways_end_and_gap_doubted_together``).
FIXTURES = OUT / "hand_row"


#: Fixtures that a later rule also reads right: that rule is off when testing the first.
ALSO_OFF: dict[str, dict[str, Any]] = {
    # the section's called tile follows a gap: also re-read as a doubt by GAP_GROUP_DOUBTS
    "called_tile_cut_off_in_small_section": {"GAP_GROUP_DOUBTS": False},
    # the added tile is also within a touching step of the flat tiles' own (STACK_CAP_LIKE)
    "kakan_added_tile_dropped_from_row": {"STACK_CAP_LIKE": 0},
}


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.mark.parametrize(
    ("name", "setting", "off"),
    [
        ("standing_tiles_not_stacked", "STACK_LOCAL", 0),
        ("standing_flat_win_off_line", "STEP_REACH", (2.0, 0.0)),
        ("standing_tile_before_flat_melds", "STEP_REACH", (2.0, 0.0)),
        ("kakan_added_tile_low_view", "STACK_NEAR", (0.0, 0.25)),
        ("kakan_added_tile_low_view_left", "STACK_NEAR", (0.0, 0.25)),
        ("kakan_added_tile_dropped_from_row", "DROP_OFF_LINE", 0),
        ("kakan_added_tile_dropped_from_row", "DROP_AS_JUDGED", False),
        ("kakan_beside_standing_hand_low_view", "STACK_CAP_LIKE", 0),
        ("crowded_sideways_tiles_doubted", "DOUBT_NEAR_STEP", 0),
        ("called_tile_cut_off_in_small_section", "SMALL_SECTION_DOUBT", False),
        ("diagonal_first_tile_not_sideways", "END_DOUBT_DIAGONAL", 0),
        ("chi_called_tile_first", "CHI_FIRST_SWAP", False),
        ("called_tiles_turned_together_cheaper", "KEEP_CHEAPER_TURNS", False),
        ("closed_hand_end_tile_not_sideways", "END_DOUBT_MARGIN", 0),
        ("standing_end_tile_not_sideways", "END_DOUBT_MARGIN", 0),
        ("sideways_turn_reads_same_hand_cheaper", "SAME_HAND_TURNS", False),
        ("hand_behind_wall_backs_on_its_line", "BACKS_INTERLEAVED", 0),
    ],
)
def test_rule_reads_its_fixture(
    name: str, setting: str, off: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _fixture(name)
    assert group(data["request"])["hand"] == data["expected"]["hand"], data["about"]
    # The later rule off, this one still reads the fixture, with its warnings ...
    for other, other_off in ALSO_OFF.get(name, {}).items():
        monkeypatch.setattr(settings, other, other_off)
    out = group(data["request"])
    assert out["hand"] == data["expected"]["hand"], data["about"]
    for code in data["expected"]["warnings"]:
        assert code in [w["code"] for w in out["warnings"]]
    # ... and without it, the fixture reads wrong.
    monkeypatch.setattr(settings, setting, off)
    assert group(data["request"])["hand"] != data["expected"]["hand"]


@pytest.mark.parametrize(
    ("name", "joined"),
    [("standing_flat_win_off_line", "6m"), ("standing_tile_before_flat_melds", "4z")],
)
def test_a_tile_joined_off_the_line_is_named(name: str, joined: str) -> None:
    """The tile taken in from beyond the row's end is named (``distant_tiles_joined``): a
    discard or an indicator lying there would be joined the same way."""
    out = group(_fixture(name)["request"])
    warning = next(w for w in out["warnings"] if w["code"] == "distant_tiles_joined")
    assert warning["tiles"] == [joined]


def test_a_standing_hand_without_its_winning_tile_says_why_no_hand_is_read() -> None:
    """The hand row holds 13 tiles: no hand, and the warning says it is short of tiles."""
    data = _fixture("standing_flat_win_off_line")
    request = dict(data["request"])
    request["detections"] = [d for d in request["detections"] if d["tile"] != "6m"]
    out = group(request)
    assert out["hand"] is None
    assert "too_few_tiles" in [w["code"] for w in out["warnings"]]


def test_a_tile_left_out_of_the_row_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The added kan's tile read without (then stacked on its called tile) is named: a
    reading that leaves a row tile out is never silent. (The flat tiles' own steps now find
    this added tile stacked before any tile is left out: that rule off here.)"""
    monkeypatch.setattr(settings, "STACK_CAP_LIKE", 0)
    out = group(_fixture("kakan_added_tile_dropped_from_row")["request"])
    warning = next(w for w in out["warnings"] if w["code"] == "dropped_tile")
    assert warning["tiles"] == ["8m"]
    assert "furthest off the hand's line" in warning["message"]


def test_tiles_turned_together_are_named() -> None:
    """The hand read with two sideways judgements turned together names both tiles as
    doubtful (a single turn names only its own): the boxes' reading is not silent about
    which judgements it overruled."""
    out = group(_fixture("called_tiles_turned_together_cheaper")["request"])
    named = [w["tiles"] for w in out["warnings"] if w["code"] == "doubtful_sideways"]
    assert sorted(["1m", "9s"]) in [sorted(tiles) for tiles in named]


def test_a_regression_fixture_needs_the_same_hand_turn_beside_end_doubts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A standing hand whose two end tiles are judged sideways: the end doubts turn them, and
    the turn that reads the hand as judged for less must be kept (SAME_HAND_TURNS), else a
    wrong hand from another turn wins (END_DOUBT_MARGIN without it broke this fixture). The
    crowded sideways tiles' doubts (DOUBT_NEAR_STEP) also read it right without the same-hand
    turn: switched off here, to show the two rules above alone."""
    data = json.loads((OUT / "standing_indicators_beyond.json").read_text())
    assert group(data["request"])["hand"] == data["expected"]["hand"]
    monkeypatch.setattr(settings, "DOUBT_NEAR_STEP", 0)
    assert group(data["request"])["hand"] == data["expected"]["hand"]
    monkeypatch.setattr(settings, "SAME_HAND_TURNS", False)
    assert group(data["request"])["hand"] != data["expected"]["hand"]
    monkeypatch.setattr(settings, "END_DOUBT_MARGIN", 0)
    assert group(data["request"])["hand"] == data["expected"]["hand"]


def test_a_sideways_end_tile_and_a_gap_are_doubted_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two doubtful judgements that each tell the winning tile (a sideways tile at one end, a
    gap at the other): turned alone, each leaves the other to tell it, and only turned
    together do they read another hand. The reading as judged is wrong here; both tiles are
    named and the true hand is an alternative (without SIDE_GAP_PAIRS: silently wrong)."""
    data = json.loads((FIXTURES / "sideways_end_and_gap_doubted_together.json").read_text())
    want = data["expected"]["hand"]
    out = group(data["request"])
    assert out["hand"] != want, "reads right now: move it to the fixtures"
    named = {w["code"]: w["tiles"] for w in out["warnings"]}
    assert "0p" in named["doubtful_sideways"] and named["doubtful_gap"] == ["6p"], data["about"]
    assert want in [a["hand"] for a in out["alternatives"]]
    monkeypatch.setattr(settings, "SIDE_GAP_PAIRS", False)
    assert group(data["request"])["warnings"] == []


def test_pitch_past_the_measured_pairs_follows_the_tiles_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Eight touching upright tiles 50 px apart, then three larger ones (a meld nearer the
    camera) 65 px apart: their pitch is not measured (the steps look like gaps), so it is
    carried on from the last pitch measured by the tiles' size trend (UNITS_BY_SIZE) instead
    of being held at the range measured, where it would open gaps inside the meld."""
    import numpy as np

    from vision.grouping.row_geometry import _local_pitch

    pos = np.array([50.0 * k for k in range(8)] + [350 + 65.0 * k for k in range(1, 4)])
    upright = np.zeros(len(pos), dtype=bool)
    log_size = np.log(np.array([40.0] * 8 + [52.0] * 3))
    parts = [np.arange(len(pos))]
    monkeypatch.setattr(settings, "UNITS_BY_SIZE", 0.0)
    held = _local_pitch(pos, upright, log_size, parts)
    assert held[-1] == pytest.approx(50.0)  # the pitch measured, held
    monkeypatch.setattr(settings, "UNITS_BY_SIZE", 1.6)
    grown = _local_pitch(pos, upright, log_size, parts)
    assert grown[1:7] == pytest.approx(held[1:7])  # where pairs were measured: unchanged
    # The size trend carries the pitch on past the range a held pitch may reach (1.1 times
    # the largest measured), growing towards the larger tiles, at most 1.6 times the last.
    assert 55.0 < grown[-1] <= 50.0 * 1.6
    assert grown[-3] < grown[-2] < grown[-1]


def test_a_wall_on_the_hands_line_is_left_out_and_named() -> None:
    """The backs read as a wall on the hand's line are named (``backs_left_out``): a hand
    read without tiles the photo shows on its line is never silent."""
    data = _fixture("hand_behind_wall_backs_on_its_line")
    out = group(data["request"])
    warning = next(w for w in out["warnings"] if w["code"] == "backs_left_out")
    assert warning["tiles"] and set(warning["tiles"]) == {"x"}  # face-down, as the API names them


def _row(places: list[tuple[float, bool]]) -> tuple[Row, list[Detection]]:
    """Tiles 40 wide at ``(x, face_down)`` on one horizontal line, as :func:`find_rows`
    gives it (members sorted along the line)."""
    places = sorted(places)
    dets = [Detection("back" if down else "1m", (x - 20, 100, x + 20, 150)) for x, down in places]
    xs = tuple(x for x, _ in places)
    return Row(tuple(range(len(dets))), (0.0, 125.0), (1.0, 0.0), xs, (0.0,) * len(xs)), dets


def test_backs_between_the_hands_tiles_are_thinned_a_kans_are_kept() -> None:
    """Backs half a tile along from face-up tiles a pitch apart (a wall on the line) and
    beyond the row's end are left out; a closed kan's backs, a place of their own each
    (between its face-up tiles or the one at its end), stay."""
    hand = [(x * 42.0, False) for x in range(10)]
    wall = [((x + 0.5) * 42.0, True) for x in range(-4, 12)]
    row, dets = _row(hand + wall)
    kept = _without_interleaved_backs(row, dets).members
    assert [dets[i].face_down for i in kept] == [False] * 10
    # middle down: 1m x x 1m after the hand; ends down: x 1m 1m x
    for kan in (
        [(11 * 42.0, False), (12 * 42.0, True), (13 * 42.0, True), (14 * 42.0, False)],
        [(11 * 42.0, True), (12 * 42.0, False), (13 * 42.0, False), (14 * 42.0, True)],
    ):
        row, dets = _row(hand + kan)
        assert _without_interleaved_backs(row, dets).members == row.members


def test_a_clear_called_tile_among_doubtful_ones_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pon seen end-on: the box judged sideways beyond doubt is not the called tile, and the
    pon's other two tiles are doubts. Each doubt tried as the called tile reads another
    ``from`` (SWAP_TO_DOUBTFUL): the pon's tiles are named and the true hand is offered,
    never chosen (without the rule: the wrong ``from`` with no doubt about the meld)."""
    data = json.loads((FIXTURES / "pon_called_tile_end_on_doubted.json").read_text())
    want = data["expected"]["hand"]
    out = group(data["request"])
    assert out["hand"] != want, "reads right now: move it to the fixtures"
    assert out["hand"]["melds"][0]["from"] == "left"
    named = [t for w in out["warnings"] if w["code"] == "doubtful_sideways" for t in w["tiles"]]
    assert named.count("6p") == 3, data["about"]
    assert want in [a["hand"] for a in out["alternatives"]]
    monkeypatch.setattr(settings, "SWAP_TO_DOUBTFUL", False)
    off = group(data["request"])
    assert off["hand"] == out["hand"]
    assert "doubtful_sideways" not in {w["code"] for w in off["warnings"]}
    assert want not in [a["hand"] for a in off["alternatives"]]


@pytest.mark.parametrize(
    ("name", "code", "setting", "wins", "named"),
    [
        # A gap left among the concealed tiles is the mark that sets a winning tile apart.
        ("gap_names_the_winning_tile_read", "gap_in_concealed", "GAP_NAMES_WIN", ("6m", "1z"),
         ["6p", "6m"]),
        # A doubtful gap beside the winning tile read sets it apart if it is a gap at all.
        ("doubtful_gap_names_the_winning_tile_read", "doubtful_gap", "DOUBTFUL_GAP_NAMES_WIN",
         ("4s", "8m"), ["7m", "4s"]),
    ],
)  # fmt: skip
def test_a_gap_that_sets_the_winning_tile_apart_names_it(
    name: str,
    code: str,
    setting: str,
    wins: tuple[str, str],
    named: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The gap's warning names the winning tile read too, last, and as
    ``winning_tile_detection`` (GAP_NAMES_WIN, DOUBTFUL_GAP_NAMES_WIN): taken the other way,
    another tile may be the winning one. Here that tile is the one read wrong; the reading
    itself is the same with the setting off, and the warning then names the gap's tile
    alone."""
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    want = data["expected"]["hand"]
    out = group(data["request"])
    assert out["hand"] != want, "reads right now: move it to the fixtures"
    assert (out["hand"]["win_tile"], want["win_tile"]) == wins
    gap = next(w for w in out["warnings"] if w["code"] == code)
    assert gap["tiles"] == named, data["about"]
    assert gap["winning_tile_detection"] == gap["detections"][-1] == out["layout"]["win"]
    monkeypatch.setattr(settings, setting, False)
    off = group(data["request"])
    assert off["hand"] == out["hand"]
    gap_off = next(w for w in off["warnings"] if w["code"] == code)
    assert gap_off["tiles"] == named[:-1] and "winning_tile_detection" not in gap_off


def test_a_doubtful_gap_away_from_the_winning_tile_names_only_its_own_tile() -> None:
    """Only a doubtful gap beside the winning tile read names it: in this hand, read right,
    the doubtful gap lies between the first two concealed tiles (7m 7m), far from the
    winning tile, and its warning names the tile after it alone."""
    data = json.loads((OUT / "diagonal_row_sideways_win_and_pon.json").read_text())
    out = group(data["request"])
    assert out["hand"] == data["expected"]["hand"]
    gap = next(w for w in out["warnings"] if w["code"] == "doubtful_gap")
    assert gap["tiles"] == ["7m"] and out["hand"]["win_tile"] == "4s"
    assert "winning_tile_detection" not in gap
