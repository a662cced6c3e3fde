"""The learned indicator scorer (``vision/grouping/indicator_scorer.py``): its weights, how
the grouping takes its second opinion (overrides named, close calls named), its training
step, and fixtures from generated tuning scenes that read wrong without it."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from tests.vision.grouping_fixtures import CLOSED
from tests.vision.grouping_fixtures import OUT as FIXTURES
from tests.vision.grouping_layout import Placed, lay_out, to_detections
from vision.api import group
from vision.grouping import indicator_scorer, scorer_training, settings


def _layout() -> dict[str, Any]:
    """A hand with one lone tile above it (the rules' dora) and a row of three further up."""
    placed = [
        *lay_out(CLOSED, "2z"),
        Placed("7p", 2.0, 2.5, False, "x"),
        *[Placed(t, 6.0 + 0.75 * k, 3.8, False, "x") for k, t in enumerate(["3s", "5m", "9p"])],
    ]
    return {"width": 1200, "height": 1000, "detections": to_detections(placed)}


def _scored(monkeypatch: pytest.MonkeyPatch, lone: float, row: float) -> dict[str, Any]:
    """The layout read with the scorer giving the lone tile's run ``lone``, the row ``row``
    (and "no dora" 0)."""

    def scores(table: np.ndarray) -> np.ndarray:
        n_tiles = table[:, indicator_scorer.FEATURES.index("tiles_1")]
        return np.where(n_tiles == 1, lone, row)

    monkeypatch.setattr(indicator_scorer, "run_scores", scores)
    return group(_layout())


def _named(out: dict[str, Any]) -> set[str]:
    return {t for w in out["warnings"] if w["code"] == "possible_indicators" for t in w["tiles"]}


def test_the_weights_fit_the_features() -> None:
    for path, names in (
        (indicator_scorer.WEIGHTS, indicator_scorer.FEATURES),
        (indicator_scorer.URA_WEIGHTS, indicator_scorer.URA_FEATURES),
    ):
        W, b, v, w = indicator_scorer._weights(path, names)
        n = len(names)
        assert W.shape == (n, len(b)) and v.shape == b.shape and w.shape == (n,)
        data = json.loads(path.read_text())
        assert "scorer_training" in data["trained"]  # how they were made, for the record


def test_weights_for_other_features_are_refused(tmp_path) -> None:
    from scoring.errors import ModelError

    path = tmp_path / "w.json"
    path.write_text(json.dumps({"features": ["bias"], "W": [], "b": [], "v": [], "w": []}))
    with pytest.raises(ModelError, match="other features"):
        indicator_scorer._weights(path, indicator_scorer.URA_FEATURES)


def test_the_rules_reading_stands_when_the_scorer_agrees(monkeypatch) -> None:
    out = _scored(monkeypatch, 8.0, -8.0)
    assert out["hand"]["dora_indicators"] == ["7p"]
    assert not _named(out)


def test_a_clear_lead_of_the_scorer_overrides_the_rules_and_is_named(monkeypatch) -> None:
    out = _scored(monkeypatch, -1.0, settings.SCORER_OVERRIDE + 0.5)
    assert out["hand"]["dora_indicators"] == ["3s", "5m", "9p"]
    assert out["hand"]["closed"] == "123m456p789s1122z"
    assert {"7p", "3s", "5m", "9p"} <= _named(out)


def test_the_scorer_can_read_no_dora_and_names_the_rules_reading(monkeypatch) -> None:
    out = _scored(monkeypatch, -settings.SCORER_OVERRIDE - 0.5, -9.0)
    assert out["hand"]["dora_indicators"] == []
    assert "7p" in _named(out)


def test_a_close_call_keeps_the_rules_reading_and_names_both(monkeypatch) -> None:
    """The rules' run leads the row by less than SCORER_DOUBT: the reading stands, doubt said."""
    out = _scored(monkeypatch, 3.0, 3.0 - settings.SCORER_DOUBT / 2)
    assert out["hand"]["dora_indicators"] == ["7p"]
    assert {"7p", "3s", "5m", "9p"} <= _named(out)
    # ... and a lead short of the override, the other way, is a close call too
    out = _scored(monkeypatch, 3.0, 3.0 + settings.SCORER_OVERRIDE / 2)
    assert out["hand"]["dora_indicators"] == ["7p"]
    assert {"7p", "3s", "5m", "9p"} <= _named(out)


def test_off_the_scorer_is_not_consulted(monkeypatch) -> None:
    monkeypatch.setattr(settings, "SCORER_OVERRIDE", 0.0)
    out = _scored(monkeypatch, -9.0, 9.0)
    assert out["hand"]["dora_indicators"] == ["7p"]


def _truth(
    request: dict[str, Any], roles: list[str], dora: list[str], ura: list[str]
) -> dict[str, Any]:
    """A scene laid out by hand as the generator writes its truth."""
    return {
        "width": request["width"],
        "height": request["height"],
        "hand": {"dora_indicators": dora, "ura_indicators": ura},
        "tiles": [
            {"class": d["tile"], "box": d["box"], "labelled": True, "role": role}
            for d, role in zip(request["detections"], roles, strict=True)
        ],
    }


def test_training_labels_the_run_holding_the_true_dora() -> None:
    """``example_of`` on a scene laid out by hand (truth as the generator writes it): the
    candidate runs are the lone tile and the row, the label the lone tile's run."""
    truth = _truth(_layout(), ["hand"] * 14 + ["dora"] + ["discard"] * 3, ["7p"], [])
    example = scorer_training.example_of(truth)
    assert example is not None
    table, right = example
    assert table.shape == (2, len(indicator_scorer.FEATURES))
    assert table[right, indicator_scorer.FEATURES.index("tiles_1")] == 1.0
    truth["hand"]["dora_indicators"] = []
    truth["tiles"][14]["role"] = "discard"
    second = scorer_training.example_of(truth)
    assert second is not None and second[1] == len(second[0])  # "no dora"


@pytest.mark.parametrize(
    "name",
    ["no_dora_loose_tiles_scorer", "no_dora_lone_discard_scorer", "dora_found_by_scorer_across"],
)
def test_each_scorer_fixture_reads_wrong_without_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tuning scenes the rules read wrong (two of them silently): the scorer's reading is
    right and named; with the scorer off, the fixture reads wrong."""
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    out = group(data["request"])
    assert out["hand"] == data["expected"]["hand"], data["about"]
    assert _named(out), data["about"]
    monkeypatch.setattr(settings, "SCORER_OVERRIDE", 0.0)
    # A later rule also reads the dora beside the river's row (its own test has its fixture).
    monkeypatch.setattr(settings, "RIVER_ASIDE_RISE", 0.0)
    assert group(data["request"])["hand"] != data["expected"]["hand"]


def _ura_layout() -> dict[str, Any]:
    """A hand with a dora just above it, one tile on it (the rules' ura), and a lone tile
    further up and along (a discard, or the ura)."""
    placed = [
        *lay_out(CLOSED, "2z", dora=["7p"], ura=["3s"]),
        Placed("9m", 3.5, 4.3, False, "x"),
    ]
    return {"width": 1200, "height": 1000, "detections": to_detections(placed)}


def _ura_scored(monkeypatch: pytest.MonkeyPatch, on_dora: float, far: float) -> dict[str, Any]:
    """The layout read with the ura scorer giving the tile on the dora ``on_dora``, the far
    tile ``far`` (and "no ura" 0)."""

    def scores(table: np.ndarray) -> np.ndarray:
        rise = table[:, indicator_scorer.URA_FEATURES.index("rise")]
        return np.where(rise < 0.5, on_dora, far)

    monkeypatch.setattr(indicator_scorer, "ura_scores", scores)
    return group(_ura_layout())


def _ura_named(out: dict[str, Any]) -> set[str]:
    return {t for w in out["warnings"] if w["code"] == "possible_ura" for t in w["tiles"]}


def test_the_rules_ura_stand_when_the_ura_scorer_agrees(monkeypatch) -> None:
    out = _ura_scored(monkeypatch, 8.0, -8.0)
    assert out["hand"]["dora_indicators"] == ["7p"]
    assert out["hand"]["ura_indicators"] == ["3s"]
    assert not _ura_named(out)


def test_a_clear_lead_of_the_ura_scorer_overrides_the_rules_and_is_named(monkeypatch) -> None:
    out = _ura_scored(monkeypatch, -1.0, settings.URA_SCORER_OVERRIDE + 0.5)
    assert out["hand"]["ura_indicators"] == ["9m"]
    assert out["hand"]["dora_indicators"] == ["7p"]
    assert {"3s", "9m"} <= _ura_named(out)
    # ... and it can read no ura, naming the rules' reading
    out = _ura_scored(monkeypatch, -settings.URA_SCORER_OVERRIDE - 0.5, -9.0)
    assert out["hand"]["ura_indicators"] == []
    assert "3s" in _ura_named(out)


def test_a_close_ura_call_keeps_the_rules_reading_and_names_both(monkeypatch) -> None:
    out = _ura_scored(monkeypatch, 3.0, 3.0 - settings.URA_SCORER_DOUBT / 2)
    assert out["hand"]["ura_indicators"] == ["3s"]
    assert {"3s", "9m"} <= _ura_named(out)


def test_off_the_ura_scorer_is_not_consulted(monkeypatch) -> None:
    monkeypatch.setattr(settings, "URA_SCORER_OVERRIDE", 0.0)
    out = _ura_scored(monkeypatch, -9.0, 9.0)
    assert out["hand"]["ura_indicators"] == ["3s"]


def test_ura_training_labels_the_run_holding_the_true_ura() -> None:
    """``ura_example_of`` on the scene laid out by hand: candidates the tile on the dora and
    the far tile; the label the one on the dora, or "no ura" when the truth has none."""
    truth = _truth(_ura_layout(), ["hand"] * 14 + ["dora", "ura", "discard"], ["7p"], ["3s"])
    example = scorer_training.ura_example_of(truth)
    assert example is not None
    table, right = example
    assert table.shape == (2, len(indicator_scorer.URA_FEATURES))
    assert table[right, indicator_scorer.URA_FEATURES.index("rule_pick")] == 1.0
    truth["hand"]["ura_indicators"] = []
    truth["tiles"][15]["role"] = "discard"
    second = scorer_training.ura_example_of(truth)
    assert second is not None and second[1] == len(second[0])  # "no ura"
    # the dora read wrong: nothing to learn the ura against
    truth["tiles"][14]["role"] = "discard"
    truth["tiles"][16]["role"] = "dora"
    assert scorer_training.ura_example_of(truth) is None


@pytest.mark.parametrize(
    "name",
    [
        "five_ura_on_five_dora_low_view_scorer",
        "three_ura_on_dora_grazing_view_scorer",
        "loose_tile_not_ura_scorer",
        "discards_not_ura_scorer",
    ],
)
def test_each_ura_scorer_fixture_reads_wrong_without_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Study scenes whose ura the rules read wrong: the ura scorer's reading is right and
    named ``possible_ura``; with it off, the fixture reads wrong."""
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    out = group(data["request"])
    assert out["hand"] == data["expected"]["hand"], data["about"]
    assert _ura_named(out), data["about"]
    monkeypatch.setattr(settings, "URA_SCORER_OVERRIDE", 0.0)
    assert group(data["request"])["hand"] != data["expected"]["hand"]
