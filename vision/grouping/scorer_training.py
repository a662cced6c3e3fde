"""Training the indicator scorer (:mod:`vision.grouping.indicator_scorer`) on generated scenes.

    .venv/bin/python -m vision.grouping.scorer_training --seeds 550001-550020 \\
        --cache /work/scratch/g12-ind/cache --out vision/grouping/indicator_scorer.json
    .venv/bin/python -m vision.grouping.scorer_training --kind ura --seeds 550001-550040 \
        --cache /work/scratch/g12-ind/cache

Seeds: never those that tune the rules (770001-770008) or report the grouping (880002,
990001, the held-out set). Each scene (500 a seed, rendered once and kept as truth JSON in
``--cache``, outside git) is grouped from its true boxes with the scorer off; the reading
that gives the final hand row, read the right way up, lists the candidate runs above the hand
with their measurements (:data:`~vision.grouping.indicator_scorer.FEATURES`). The label is the
run holding exactly the true dora indicators, or "no dora" when the scene has none; scenes
whose dora no run holds alone (merged with other tiles, split) teach nothing and are left out.
The network, one hidden layer of tanh units plus a linear part, scores each run; a softmax
over the runs and "no dora" (score 0) is fitted by full-batch Adam with an L2 penalty, from a
fixed seed, so the same scenes give the same weights.

The ura scorer (``--kind ura``) learns the same way from each scene grouped as at run time
(the dora scorer on, the ura scorer off) whose dora are read right: the candidates are the
runs near the dora (:data:`~vision.grouping.indicator_scorer.URA_FEATURES`), the label the run
holding exactly the true ura, or "no ura".
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from vision.grouping import indicators, settings
from vision.grouping.indicator_scorer import FEATURES, URA_FEATURES, URA_WEIGHTS, WEIGHTS
from vision.grouping.truth import detections_of, indicators_visible
from vision.rows import centres_of

Example = tuple[np.ndarray, int]


def _grouped(
    truth: dict[str, Any], trace_var: ContextVar[list[Any] | None], setting: str
) -> tuple[Any, list[Any], list[str], list[Any]] | None:
    """The scene grouped from its true boxes with the scorer ``setting`` off, collecting the
    candidates ``trace_var`` traces: ``(best reading, trace, roles, detections)``, or None when
    the scene teaches nothing (the hand or an indicator not seen, no hand row)."""
    from vision.grouping import group_detections  # the package imports this module's siblings

    if not truth.get("hand_fully_visible", True):
        return None
    if not indicators_visible(truth):
        return None  # an indicator not seen
    dets = detections_of(truth)
    trace: list[Any] = []
    token = trace_var.set(trace)
    saved = getattr(settings, setting)
    setattr(settings, setting, 0.0)
    try:
        result = group_detections(dets, width=truth["width"], height=truth["height"])
    finally:
        setattr(settings, setting, saved)
        trace_var.reset(token)
    best = result.best
    if best is None or len(best.order) < 2:
        return None
    roles = [t["role"] for t in truth["tiles"] if t["labelled"]]
    return best, trace, roles, dets


def _labelled(table: np.ndarray, pool: list[Any], roles: list[str], role: str) -> Example | None:
    """The example with the run holding exactly the tiles of ``role`` as its label (none such
    in the scene: the last option), or None when no run holds them alone."""
    wanted = {i for i, r in enumerate(roles) if r == role}
    if not wanted:
        return table, len(pool)
    right = [k for k, run in enumerate(pool) if set(run.face_up) == wanted]
    return (table, right[0]) if right else None


def example_of(truth: dict[str, Any]) -> Example | None:
    """The candidate runs' measurements and the index of the right option (``len(table)``:
    no dora), or None when the scene teaches nothing.

    >>> example_of({"tiles": [], "hand": {}, "hand_fully_visible": False}) is None
    True
    """
    got = _grouped(truth, indicators.TRACE, "SCORER_OVERRIDE")
    if got is None:
        return None
    best, trace, roles, dets = got
    members = [t.det for t in best.order]
    first, last = centres_of(np.array([dets[members[0]].box, dets[members[-1]].box]))
    along = (last - first) / (np.linalg.norm(last - first) or 1.0)
    up = np.array([along[1], -along[0]])  # the reading direction's up (see _runs_above)
    found = next(
        (
            c
            for c in trace
            if c.ura_allowed and set(c.members) == set(members) and float(np.dot(c.up, up)) > 0.5
        ),
        None,
    )
    if found is None:
        return None
    return _labelled(found.table, found.pool, roles, "dora")


def ura_example_of(truth: dict[str, Any]) -> Example | None:
    """The candidate ura runs' measurements and the index of the right option
    (``len(table)``: no ura), or None when the scene teaches nothing: the dora read wrong (the
    ura are read against them), no reading with ura allowed, or the true ura in no run alone.
    The scene is grouped as at run time (the dora scorer on), the ura scorer off.

    >>> ura_example_of({"tiles": [], "hand": {}, "hand_fully_visible": False}) is None
    True
    """
    got = _grouped(truth, indicators.URA_TRACE, "URA_SCORER_OVERRIDE")
    if got is None:
        return None
    best, trace, roles, _ = got
    dora = {i for i, r in enumerate(roles) if r == "dora"}
    if set(best.dora) != dora or not dora:
        return None
    members = set(t.det for t in best.order)
    found = next((c for c in trace if set(c.members) == members and set(c.dora) == dora), None)
    if found is None or not found.pool:
        return None
    return _labelled(found.table, found.pool, roles, "ura")


def fit(
    examples: list[Example], *, hidden: int = 8, l2: float = 1e-4, epochs: int = 1500, seed: int = 0
) -> dict[str, Any]:
    """The network's weights fitted to ``examples`` (softmax over each example's runs and
    "no dora" at 0), with the final training loss.

    >>> table = np.zeros((2, len(FEATURES))); table[:, 0] = 1; table[0, 1] = 1
    >>> w = fit([(table, 0)] * 4, hidden=2, epochs=200)
    >>> bool(w["loss"] < 0.1)
    True
    """
    rng = np.random.default_rng(seed)
    n_feat = examples[0][0].shape[1]
    k_max = max(1, max(len(t) for t, _ in examples))
    n = len(examples)
    x = np.zeros((n, k_max, n_feat))
    mask = np.zeros((n, k_max + 1), dtype=bool)
    target = np.zeros(n, dtype=int)
    for i, (table, right) in enumerate(examples):
        x[i, : len(table)] = table
        mask[i, : len(table)] = True
        mask[i, k_max] = True
        target[i] = right if right < len(table) else k_max
    params = {
        "W": rng.normal(0.0, 0.3, (n_feat, hidden)),
        "b": np.zeros(hidden),
        "v": rng.normal(0.0, 0.3, hidden),
        "w": np.zeros(n_feat),
    }
    m1 = {k: np.zeros_like(p) for k, p in params.items()}
    m2 = {k: np.zeros_like(p) for k, p in params.items()}
    rows = np.arange(n)
    loss = 0.0
    for step in range(1, epochs + 1):
        act = np.tanh(x @ params["W"] + params["b"])
        s = np.concatenate([act @ params["v"] + x @ params["w"], np.zeros((n, 1))], axis=1)
        s = np.where(mask, s, -np.inf)
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        loss = float(-np.log(p[rows, target] + 1e-12).mean())
        g = p.copy()
        g[rows, target] -= 1
        g = g[:, :k_max] / n
        dz = g[:, :, None] * params["v"] * (1 - act**2)
        grads = {
            "w": np.einsum("nk,nkf->f", g, x),
            "v": np.einsum("nk,nkh->h", g, act),
            "W": np.einsum("nkf,nkh->fh", x, dz),
            "b": dz.sum(axis=(0, 1)),
        }
        for k in params:
            grad = grads[k] + (2 * l2 * params[k] if k != "b" else 0.0)
            m1[k] = 0.9 * m1[k] + 0.1 * grad
            m2[k] = 0.999 * m2[k] + 0.001 * grad**2
            params[k] -= (
                0.05 * (m1[k] / (1 - 0.9**step)) / (np.sqrt(m2[k] / (1 - 0.999**step)) + 1e-8)
            )
    return {k: v.round(6).tolist() for k, v in params.items()} | {"loss": loss}


def _scenes(seeds: Iterable[int], n: int, cache: Path) -> Iterator[dict[str, Any]]:
    from datasets.art import load_styles
    from datasets.synth import render_sample

    styles = None
    for seed in seeds:
        folder = cache / f"s{seed}_960"
        folder.mkdir(parents=True, exist_ok=True)
        for index in range(n):
            path = folder / f"synth_s{seed}_{index:06d}.json"
            if not path.exists():
                styles = styles or load_styles(None)
                path.write_text(json.dumps(render_sample(seed, index, (960, 960), styles).truth))
            yield json.loads(path.read_text())


def _seed_range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="550001-550020", help="generator seeds, a-b")
    parser.add_argument("--n", type=int, default=500, help="scenes a seed")
    parser.add_argument("--cache", required=True, help="truth JSON kept here (outside git)")
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument(
        "--kind", choices=("dora", "ura"), default="dora", help="which scorer to train"
    )
    parser.add_argument("--out", help="weights file (default: the shipped one of --kind)")
    args = parser.parse_args(argv)
    seeds = _seed_range(args.seeds)
    extract = example_of if args.kind == "dora" else ura_example_of
    examples = [e for t in _scenes(seeds, args.n, Path(args.cache)) if (e := extract(t))]
    weights = fit(examples, hidden=args.hidden, l2=args.l2)
    out = args.out or str(WEIGHTS if args.kind == "dora" else URA_WEIGHTS)
    weights = {
        "features": list(FEATURES if args.kind == "dora" else URA_FEATURES),
        "trained": f"{datetime.now(UTC):%Y-%m-%d}: vision.grouping.scorer_training --kind "
        f"{args.kind} --seeds {args.seeds} --n {args.n} --hidden {args.hidden} --l2 {args.l2}; "
        f"{len(examples)} scenes, loss {weights['loss']:.4f}",
        **weights,
    }
    Path(out).write_text(json.dumps(weights, indent=1) + "\n")
    print(weights["trained"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
