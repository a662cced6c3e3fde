"""Indicator rules (``vision/grouping/indicators.py``) beyond the conventions of
``test_grouping``: hand-written layouts, and fixtures from generated tuning scenes that read
wrong with their rule off."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.vision.grouping_fixtures import CLOSED
from tests.vision.grouping_fixtures import OUT as FIXTURES
from tests.vision.grouping_layout import Placed, lay_out, to_detections
from vision.api import group
from vision.grouping import settings


def _request(placed: list[Placed], *, shift_y: float = 0.0) -> dict[str, Any]:
    dets = to_detections(placed)
    for d in dets:
        x1, y1, x2, y2 = d["box"]
        d["box"] = [x1, y1 + shift_y, x2, y2 + shift_y]
    return {"width": 1200, "height": 1000, "detections": dets}


def test_a_tile_cut_by_the_photos_edge_is_not_read_as_dora() -> None:
    """The same lone tile above the hand: a dora indicator in the open, but not when the photo
    ends at its edge (its row may go on beyond the photo); named, never silent."""
    placed = [*lay_out(CLOSED, "2z"), Placed("7p", 2.0, 3.0, False, "discard")]
    inside = _request(placed)
    assert group(inside)["hand"]["dora_indicators"] == ["7p"]
    top = min(d["box"][1] for d in inside["detections"])
    out = group(_request(placed, shift_y=-top))
    assert out["hand"]["dora_indicators"] == []
    assert out["hand"]["closed"] == "123m456p789s1122z"
    warning = next(w for w in out["warnings"] if w["code"] == "possible_indicators")
    assert warning["tiles"] == ["7p"]


def test_a_tile_cut_by_the_photos_edge_is_not_read_as_ura() -> None:
    """Dora with a tile on them: ura in the open, but not when the photo ends at the ura's
    edge (the dora stay read); named, never silent."""
    placed = [
        *lay_out(CLOSED, "2z"),
        Placed("7p", 2.0, 2.5, False, "x"),
        Placed("3s", 2.0, 3.6, False, "x"),
    ]
    inside = _request(placed)
    assert group(inside)["hand"]["ura_indicators"] == ["3s"]
    top = min(d["box"][1] for d in inside["detections"])
    out = group(_request(placed, shift_y=-top))
    assert out["hand"]["dora_indicators"] == ["7p"]
    assert out["hand"]["ura_indicators"] == []
    warning = next(w for w in out["warnings"] if w["code"] == "possible_ura")
    assert warning["tiles"] == ["3s"]


def test_a_tile_close_below_other_discards_is_not_read_as_dora() -> None:
    """A lone tile less than half a tile's depth below a row of discards, over its stretch,
    is part of that block (rows of a river touch; indicators lie apart); the same tile away
    from the row is a dora indicator."""
    row = [
        Placed(t, 3.0 + 0.75 * k, 3.0, False, "discard") for k, t in enumerate(["3m", "9p", "1z"])
    ]
    apart = group(_request([*lay_out(CLOSED, "2z"), *row, Placed("7p", -1.0, 2.6, False, "x")]))
    assert apart["hand"]["dora_indicators"] == ["7p"]
    close = group(_request([*lay_out(CLOSED, "2z"), *row, Placed("7p", 3.3, 2.6, False, "x")]))
    assert close["hand"]["dora_indicators"] == []
    assert close["hand"]["closed"] == "123m456p789s1122z"
    warning = next(w for w in close["warnings"] if w["code"] == "possible_indicators")
    assert "7p" in warning["tiles"]


def test_a_tile_apart_below_a_river_row_is_read_as_dora() -> None:
    """A lone tile under a river's row of six, starting where it starts (a photo in
    perspective: the far rows' tiles look shallower than the hand's): touching the row it is
    the river's short last row; two of its depths below, with a clear space between, it lies
    apart as indicators do and is a dora indicator."""
    row = [Placed(f"{t}s", 5.2 + 0.75 * k, 3.5, False, "discard") for k, t in enumerate("345678")]

    def read(y: float) -> dict[str, Any]:
        placed = [*lay_out(CLOSED, "2z"), *row, Placed("7p", 5.2, y, False, "x")]
        return group(
            {"width": 1200, "height": 1000, "detections": to_detections(placed, tilt=0.15)}
        )

    touching = read(3.5 - 1.05)
    assert touching["hand"]["dora_indicators"] == []
    assert touching["hand"]["closed"] == "123m456p789s1122z"
    warning = next(w for w in touching["warnings"] if w["code"] == "possible_indicators")
    assert warning["tiles"] == ["7p"]
    assert read(3.5 - 2.0)["hand"]["dora_indicators"] == ["7p"]


def test_ura_seen_from_across_the_table_are_read_in_their_own_depth() -> None:
    """Seen from across the table (rows beyond the hand nearer the camera, bigger), a tile one
    row step above the dora lies more than two of the hand's tile depths above them but about
    one of its own: an ura indicator."""
    for step, ura in ((1.05, ["3s"]), (1.3, ["3s"])):
        placed = [
            *lay_out(CLOSED, "2z"),
            Placed("7p", 5.0, 1.8, False, "x"),
            Placed("3s", 5.0, 1.8 + step, False, "x"),
        ]
        dets = to_detections(placed, tilt=-0.1, centre=(800.0, 1100.0))
        out = group({"width": 1600, "height": 1400, "detections": dets})
        assert out["hand"]["dora_indicators"] == ["7p"]
        assert out["hand"]["ura_indicators"] == ura
        assert out["hand"]["closed"] == "123m456p789s1122z"


def test_ura_off_a_dead_wall_seen_from_across_reach_further_in_their_own_depth() -> None:
    """Dora turned up on a dead wall stand a tier higher than the ura laid on the table:
    seen from across the table, an ura one row on them lies up to about 1.9 of the rows' own
    depths away. So far above loose dora the tile is no ura (named as near the indicators)."""
    for wall, ura in ((True, ["3s"]), (False, [])):
        placed = [
            *lay_out(CLOSED, "2z"),
            Placed("7p", 5.0, 1.8, False, "x"),
            Placed("3s", 5.0, 1.8 + 1.6, False, "x"),
        ]
        if wall:
            placed += [Placed("x", x, 1.8, False, "x") for x in (3.5, 4.25, 5.75, 6.5)]
        dets = to_detections(placed, tilt=-0.1, centre=(800.0, 1100.0))
        out = group({"width": 1600, "height": 1400, "detections": dets})
        assert out["hand"]["dora_indicators"] == ["7p"]
        assert out["hand"]["ura_indicators"] == ura
        assert out["hand"]["closed"] == "123m456p789s1122z"
        if not ura:
            assert "tiles_near_indicators" in [w["code"] for w in out["warnings"]]


def test_two_tiles_a_space_apart_in_one_run_are_dora_and_ura(monkeypatch) -> None:
    """Two tiles linked into one run but a space apart (centre step 1.2 of their width): one
    dora and one ura laid beside it, read so and named; touching, they are two dora."""
    monkeypatch.setattr(settings, "SCORER_OVERRIDE", 0.0)  # the rule alone

    def read(step: float) -> dict[str, Any]:
        placed = [
            *lay_out(CLOSED, "2z"),
            Placed("7p", 2.0, 2.5, False, "x"),
            Placed("3s", 2.0 + step, 2.5, False, "x"),
        ]
        return group(_request(placed))

    out = read(0.9)
    assert (out["hand"]["dora_indicators"], out["hand"]["ura_indicators"]) == (["7p"], ["3s"])
    assert "ura_beside_dora" in {w["code"] for w in out["warnings"]}
    out = read(0.76)
    assert (out["hand"]["dora_indicators"], out["hand"]["ura_indicators"]) == (["7p", "3s"], [])


def test_runs_level_with_the_dora_further_along_are_named() -> None:
    """A lone tile far left of three dora, level with them: the left run is read as the dora,
    and both runs are named (either could be the dora)."""
    placed = [
        *lay_out(CLOSED, "2z"),
        Placed("9m", -1.0, 2.5, False, "x"),
        *[Placed(t, 5.0 + 0.75 * k, 2.5, False, "x") for k, t in enumerate(["7p", "3s", "5m"])],
    ]
    out = group(_request(placed))
    assert out["hand"]["dora_indicators"] == ["9m"]
    warning = next(w for w in out["warnings"] if w["code"] == "possible_indicators")
    assert warning["tiles"] == ["9m", "7p", "3s", "5m"]


def test_a_dora_taken_from_a_level_run_is_never_silent() -> None:
    """The fixture's true dora lie level with a lone discard far left of them: whatever run
    is read as the dora, a wrong reading names the tiles (without WARN_LEVEL_RUNS the lone
    discard was read as the dora, silently)."""
    # Kept apart from the fixtures that must read exactly (tests/resources/grouping).
    folder = FIXTURES.parent / "grouping_warned"
    data = json.loads((folder / "dora_level_with_a_far_discard.json").read_text())
    out = group(data["request"])
    if out["hand"] != data["expected"]["hand"]:
        warned = {
            i for w in out["warnings"] if w["code"] == "possible_indicators" for i in w["tiles"]
        }
        assert set(data["expected"]["hand"]["dora_indicators"]) <= warned, data["about"]


@pytest.mark.parametrize(
    ("name", "setting", "value"),
    [
        ("discard_cut_by_frame_not_dora", "FRAME_MARGIN", -1.0),
        ("discard_cut_by_frame_not_ura", "FRAME_MARGIN", -1.0),
        ("discard_close_above_discards_not_dora", "CROWD_RISE", 0.0),
        ("dora_apart_below_river_row", "RIVER_END_RISE", float("inf")),
        ("ura_above_dora_across_view", "URA_OWN_RISE", 0.0),
        ("dora_and_ura_pair_one_run", "URA_PAIR_GAP", 99.0),
        ("dora_and_ura_one_run_with_wall", "URA_SPLIT_WALL", False),
        ("ura_on_dora_beside_river_row_end", "COLUMN_COVER", False),
        ("river_end_beside_dora_not_ura", "URA_RIVER_END_BESIDE", False),
        ("three_dora_three_ura_one_run", "URA_SPLIT_LONG", False),
        ("ura_beside_dora_side_view_own_size", "URA_BESIDE_OWN", False),
        ("dora_beside_own_river_row", "RIVER_ASIDE_RISE", 0.0),
        ("dora_on_dead_wall_beside_river_row", "CROWD_SPARES_DEAD_WALL", False),
    ],
)
def test_each_indicator_rule_is_what_reads_its_fixture(
    name: str, setting: str, value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the rule (its setting off), the fixture from a tuning scene reads wrong."""
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    out = group(data["request"])
    assert out["hand"] == data["expected"]["hand"], data["about"]
    assert set(data["expected"]["warnings"]) <= {w["code"] for w in out["warnings"]}
    # The learned scorers could make up for any one rule: off here (they have their own
    # fixtures).
    monkeypatch.setattr(settings, "SCORER_OVERRIDE", 0.0)
    monkeypatch.setattr(settings, "URA_SCORER_OVERRIDE", 0.0)
    monkeypatch.setattr(settings, setting, value)
    assert group(data["request"])["hand"] != data["expected"]["hand"]


@pytest.mark.parametrize(
    ("name", "setting", "value"),
    [
        ("dora_and_ura_pair_linked_side_view", "URA_PAIR_SPREAD", float("inf")),
        ("dora_and_ura_pair_alone", "URA_PAIR_ALONE_STEP", float("inf")),
        ("ura_beside_dora_tilted_line", "URA_NEAR_RISE", 0.0),
    ],
)
def test_each_ura_doubt_is_what_names_its_fixture(
    name: str, setting: str, value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tuning scene whose ura the boxes do not settle is read wrong, but named
    ``possible_ura`` (the true ura among the tiles named); without the rule, silently."""
    data = json.loads((FIXTURES / "doubt" / f"{name}.json").read_text())
    out = group(data["request"])
    assert out["hand"] != data["expected"]["hand"], "reads right now: move it to the fixtures"
    named = [t for w in out["warnings"] if w["code"] == "possible_ura" for t in w["tiles"]]
    assert set(data["expected"]["hand"]["ura_indicators"]) <= set(named), data["about"]
    monkeypatch.setattr(settings, setting, value)
    assert not [w for w in group(data["request"])["warnings"] if w["code"] == "possible_ura"]


@pytest.mark.parametrize(
    ("name", "setting", "value"),
    [
        ("lone_discard_taken_for_dora_rival_named", "SCORER_RIVAL", float("inf")),
        ("river_row_of_five_read_as_dora_named", "FIVE_DORA_NAMED", False),
    ],
)
def test_each_dora_doubt_is_what_names_its_fixture(
    name: str, setting: str, value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A study scene whose dora the rules and the scorer both read wrong is named
    ``possible_indicators`` (the true dora, if any, and the tiles read among the tiles
    named); without the doubt, the wrong hand carries no warning at all."""
    data = json.loads((FIXTURES / "doubt" / f"{name}.json").read_text())
    out = group(data["request"])
    assert out["hand"] != data["expected"]["hand"], "reads right now: move it to the fixtures"
    named = [t for w in out["warnings"] if w["code"] == "possible_indicators" for t in w["tiles"]]
    read = out["hand"]["dora_indicators"]
    assert {*data["expected"]["hand"]["dora_indicators"], *read} <= set(named), data["about"]
    monkeypatch.setattr(settings, setting, value)
    assert group(data["request"])["warnings"] == []


def test_the_median_of_a_runs_few_values_is_numpys() -> None:
    """``_median`` sorts short arrays in Python (speed): the same value as ``np.median``."""
    import numpy as np

    from vision.grouping.indicators import _median

    rng = np.random.default_rng(0)
    for n in range(1, 40):
        for _ in range(50):
            values = rng.normal(size=n) * rng.uniform(0.1, 1000)
            assert _median(values) == float(np.median(values))


def test_a_lone_run_just_beyond_the_reach_is_read_as_dora(monkeypatch) -> None:
    """Two tiles a little beyond the indicators' reach, the only face-up tiles above the hand:
    read as the dora, named (without FAR_LONE_RUN: named only); beyond a wall they stay
    discards (test_grouping: a face-up tile beyond the wall is a discard)."""
    from tests.vision.grouping_layout import wall

    monkeypatch.setattr(settings, "SCORER_OVERRIDE", 0.0)  # the rule alone
    lone = [Placed("7p", 2.0, 4.6, False, "x"), Placed("3s", 2.75, 4.6, False, "x")]
    out = group(_request([*lay_out(CLOSED, "2z"), *lone]))
    assert out["hand"]["dora_indicators"] == ["7p", "3s"]
    assert out["hand"]["closed"] == "123m456p789s1122z"
    warning = next(w for w in out["warnings"] if w["code"] == "possible_indicators")
    assert warning["tiles"] == ["7p", "3s"]
    walled = group(_request([*lay_out(CLOSED, "2z"), *wall(0.0, 2.0, 8), *lone]))
    assert walled["hand"]["dora_indicators"] == []
    monkeypatch.setattr(settings, "FAR_LONE_RUN", False)
    assert group(_request([*lay_out(CLOSED, "2z"), *lone]))["hand"]["dora_indicators"] == []


@pytest.mark.parametrize(("space", "doubted"), [(1.0, False), (1.4, True)])
def test_two_dora_alone_a_space_apart_may_be_a_dora_and_its_ura(
    space: float, doubted: bool
) -> None:
    """Two face-up tiles alone above the hand, turned 20 degrees and foreshortened: their
    boxes link them into one run of two dora however far apart. Touching, they are two dora
    with no doubt (the common clean photo); a third of a tile apart, with no other row to
    compare their spacing with, the second is named as a possible ura (URA_PAIR_ALONE_STEP)."""
    from tests.vision.grouping_layout import W

    pair = [Placed("3m", 1.0, 1.6, False, "x"), Placed("9p", 1.0 + space * W, 1.6, False, "x")]
    placed = [*lay_out(CLOSED, "2z"), *pair]
    out = group(
        {"width": 1200, "height": 1000, "detections": to_detections(placed, angle=20, tilt=0.2)}
    )
    assert out["hand"]["dora_indicators"] == ["3m", "9p"]
    named = [t for w in out["warnings"] if w["code"] == "possible_ura" for t in w["tiles"]]
    assert named == (["3m", "9p"] if doubted else [])


@pytest.mark.parametrize("count", [4, 5])
def test_five_dora_are_read_but_named(count: int) -> None:
    """Five tiles in a row above the hand are read as dora, but named: a table shows five
    only after four kans, and a river's first row of five looks the same (FIVE_DORA_NAMED).
    Four are read as they are."""
    dora = ["3m", "9p", "1z", "5s", "7p"][:count]
    out = group(_request(lay_out(CLOSED, "2z", dora=dora)))
    assert out["hand"]["dora_indicators"] == dora
    named = [t for w in out["warnings"] if w["code"] == "possible_indicators" for t in w["tiles"]]
    assert named == (dora if count == 5 else [])
