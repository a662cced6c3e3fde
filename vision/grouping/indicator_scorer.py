"""A learned second opinion on which run above the hand holds the dora indicators.

The rules of :mod:`vision.grouping.indicators` pick the dora among the runs of tiles above the
hand (or none). This scorer, a one-hidden-layer network over each candidate run's
measurements (:data:`FEATURES`, the rules' own choice among them), gives every candidate run
a score and "no dora" the score 0; the softmax over them is the model's belief. It was
trained on generated scenes of seeds never used for tuning or reporting, with the
generator's truth as labels (:mod:`vision.grouping.scorer_training`, whose docstring gives
the command); the weights are ``indicator_scorer.json`` beside this file.

The grouping takes the scorer's choice over the rules' only when it leads by
:data:`~vision.grouping.settings.SCORER_OVERRIDE`, always naming both, and names the runs
when the two best options lie within :data:`~vision.grouping.settings.SCORER_DOUBT`.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from scoring.errors import ModelError

WEIGHTS = Path(__file__).with_name("indicator_scorer.json")

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


@functools.cache
def _weights() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The network's weights ``(W, b, v, w)``: scores ``tanh(X W + b) v + X w``."""
    try:
        data = json.loads(WEIGHTS.read_text())
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the indicator scorer {str(WEIGHTS)!r}: {exc}") from exc
    if tuple(data.get("features", ())) != FEATURES:
        raise ModelError(
            f"the indicator scorer {str(WEIGHTS)!r} was trained on other features "
            f"({data.get('features')!r}); retrain it (vision.grouping.scorer_training)"
        )
    return tuple(np.asarray(data[k], dtype=float) for k in ("W", "b", "v", "w"))  # type: ignore[return-value]


def run_scores(features: np.ndarray) -> np.ndarray:
    """Each candidate run's score (rows of ``features``), against 0 for "no dora".

    >>> run_scores(np.zeros((0, len(FEATURES)))).shape
    (0,)
    """
    if len(features) == 0:
        return np.zeros(0)
    W, b, v, w = _weights()
    return np.tanh(features @ W + b) @ v + features @ w
