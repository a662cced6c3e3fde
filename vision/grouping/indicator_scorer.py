"""A learned second opinion on which run above the hand holds the dora indicators, and
which run holds the ura indicators once the dora are read.

The rules of :mod:`vision.grouping.indicators` pick the dora among the runs of tiles above the
hand (or none). This scorer, a one-hidden-layer network over each candidate run's
measurements (:data:`FEATURES`, the rules' own choice among them), gives every candidate run
a score and "no dora" the score 0; the softmax over them is the model's belief. It was
trained on generated scenes of seeds never used for tuning or reporting, with the
generator's truth as labels (:mod:`vision.grouping.scorer_training`, whose docstring gives
the command); the weights are ``indicator_scorer.json`` beside this file.

The ura scorer (:data:`URA_FEATURES`, weights ``ura_scorer.json``) is the same network over
each candidate ura run's measurements against the dora read (rise across the table, shift
along, counts, the rules' flags): seen from low down or from the side, the rules' fixed
reaches miss ura lying on their dora or take discards for them.

The grouping takes the scorer's choice over the rules' only when it leads by
:data:`~vision.grouping.settings.SCORER_OVERRIDE`, always naming both, and names the runs
when the two best options lie within :data:`~vision.grouping.settings.SCORER_DOUBT`
(for the ura, :data:`~vision.grouping.settings.URA_SCORER_OVERRIDE` and
:data:`~vision.grouping.settings.URA_SCORER_DOUBT`).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from scoring.errors import ModelError

WEIGHTS = Path(__file__).with_name("indicator_scorer.json")
URA_WEIGHTS = Path(__file__).with_name("ura_scorer.json")

#: The measurements of a candidate run, in the order of the network's inputs (heights in
#: hand tile depths, places along in hand tile widths; see ``features`` in indicators.py).
FEATURES = (
    "bias",
    "rule_pick",
    "rule_none",
    "sideways_shape",
    "stray_tiles",
    "height_near",
    "height_far",
    "tiles_1",
    "tiles_2",
    "tiles_3",
    "tiles_4",
    "tiles_5",
    "dead_wall",
    "river",
    "behind_wall",
    "crowded",
    "runs_below",
    "runs_below_count",
    "wall_below",
    "level_left",
    "level_right",
    "level_river",
    "run_above",
    "rise_above",
    "longer_above",
    "ura_like_above",
    "rise_below",
    "river_below",
    "start_from_hand",
    "end_from_hand",
    "log_size",
    "mean_step",
    "step_spread",
    "face_up_total",
    "river_seen",
)


#: The measurements of a candidate ura run against the dora read (see ``ura_features`` in
#: indicators.py): rise across the table in hand depths and in the two runs' own depth,
#: shift along in their size, counts, and the rules' flags for the run.
URA_FEATURES = (
    "bias",
    "rule_pick",
    "rule_none",
    "same_count",
    "count_diff",
    "count",
    "dora_count",
    "rise",
    "own_rise",
    "shift_start",
    "shift_end",
    "gap_after",
    "level",
    "dora_on_wall",
    "dead_wall",
    "river",
    "stacked",
    "crowded",
    "behind_wall",
    "size_ratio",
    "row_between",
    "longer_above",
    "from_block",
    "dora_from_block",
    "sideways_shape",
    "dora_height",
    "face_up_total",
    "candidates",
)


@functools.cache
def _weights(path: Path, features: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """The network's weights ``(W, b, v, w)``: scores ``tanh(X W + b) v + X w``."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the indicator scorer {str(path)!r}: {exc}") from exc
    if tuple(data.get("features", ())) != features:
        raise ModelError(
            f"the indicator scorer {str(path)!r} was trained on other features "
            f"({data.get('features')!r}); retrain it (vision.grouping.scorer_training)"
        )
    return tuple(np.asarray(data[k], dtype=float) for k in ("W", "b", "v", "w"))


def _scores(features: np.ndarray, path: Path, names: tuple[str, ...]) -> np.ndarray:
    if len(features) == 0:
        return np.zeros(0)
    W, b, v, w = _weights(path, names)
    return np.tanh(features @ W + b) @ v + features @ w


def run_scores(features: np.ndarray) -> np.ndarray:
    """Each candidate dora run's score (rows of ``features``), against 0 for "no dora".

    >>> run_scores(np.zeros((0, len(FEATURES)))).shape
    (0,)
    """
    return _scores(features, WEIGHTS, FEATURES)


def ura_scores(features: np.ndarray) -> np.ndarray:
    """Each candidate ura run's score (rows of ``features``), against 0 for "no ura"."""
    return _scores(features, URA_WEIGHTS, URA_FEATURES)
