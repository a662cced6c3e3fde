"""Scene-by-scene grouping results on generated seeds, and what one change does to them.

The grouping's settings (``vision/grouping/settings.py``) cite figures such as "study +4 -2,
check +1 -0": the hands a setting reads right that it read wrong before (and the reverse) on
the study seeds. This is the tool that measures them. It groups every scene of the seeds it
is given, once from the true boxes and once from damaged boxes (as ``bench_grouping.py``
damages them), and writes one JSON line per scene; ``diff`` then names the scenes that
changed between two runs::

    .venv/bin/python benchmarks/grouping_compare.py run --out /tmp/before.jsonl \\
        --seeds 1001-1016 --size 1024-2048 --cache /work/scratch/cache
    .venv/bin/python benchmarks/grouping_compare.py run --out /tmp/after.jsonl \\
        --seeds 1001-1016 --size 1024-2048 --cache /work/scratch/cache --set RIVER_END_RISE=1.2
    .venv/bin/python benchmarks/grouping_compare.py diff /tmp/before.jsonl /tmp/after.jsonl

Seeds as the sessions used them: 1001-1030 (1024-2048 px) to study scene by scene, 770013-16
(960 px) to check, totals only; the reporting seeds of ``bench_grouping.py`` (880002,
990001, the held-out set) are never studied scene by scene. ``--set NAME=VALUE`` changes a
grouping setting for the run (a Python literal), so a rule can be measured before its value
is written into ``settings.py``. Each scene's damage draws from its own seed and index, so a
scene's damaged boxes are the same whatever else a run holds. Rendering is most of the time
(~0.25 s a scene on one core): ``--cache`` keeps each scene's truth JSON, the same files
``bench_grouping.py --cache`` keeps.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from collections.abc import Iterator
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_grouping import (  # noqa: E402
    damage,
    indicators_only_after_drop,
    names_the_problem,
    offered,
    same_but_hidden_red_five,
    same_hand,
    without_dropped_indicators,
)

from vision.grouping import group_detections, settings  # noqa: E402
from vision.grouping.truth import detections_of, indicators_visible  # noqa: E402


def parse_seeds(text: str) -> list[int]:
    """``1001-1004,770013`` -> [1001, 1002, 1003, 1004, 770013].

    >>> parse_seeds("1001-1003,7")
    [1001, 1002, 1003, 7]
    """
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds += list(range(int(lo), int(hi or lo) + 1))
    return seeds


def parse_setting(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` for a setting that exists, the value a Python literal of its type's
    kind (an int where a float is expected is taken as a float).

    >>> parse_setting("GAP=0.5")
    ('GAP', 0.5)
    """
    name, sep, raw = text.partition("=")
    if not sep or not hasattr(settings, name) or not name.isupper():
        raise SystemExit(f"--set {text!r}: no grouping setting of that name (settings.py)")
    value = ast.literal_eval(raw)
    old = getattr(settings, name)
    if isinstance(old, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not type(old):
        raise SystemExit(f"--set {text!r}: {name} is a {type(old).__name__}, not {raw!r}")
    return name, value


_STYLES: Any = None


def _truth(seed: int, index: int, size: str, cache: str | None) -> dict[str, Any]:
    """The scene's truth, from the cache or rendered (and cached)."""
    global _STYLES
    path = Path(cache) / f"s{seed}_{size}" / f"synth_s{seed}_{index:06d}.json" if cache else None
    if path is not None and path.exists():
        return json.loads(path.read_text())
    from datasets.art import load_styles
    from datasets.synth import parse_size, render_sample

    _STYLES = _STYLES or load_styles(None)
    truth = render_sample(seed, index, parse_size(size), _STYLES).truth
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(".part")
        part.write_text(json.dumps(truth))
        part.replace(path)  # whole files only, when runs share a cache
    return truth


def scene_result(
    job: tuple[int, int, str, str | None, bool, dict[str, Any]],
) -> dict[str, Any] | None:
    """One scene's line: its hand read from the true boxes and from damaged ones (None: the
    scene does not count, as in ``bench_grouping.py``)."""
    seed, index, size, cache, damaged, overrides = job
    for name, value in overrides.items():
        setattr(settings, name, value)
    truth = _truth(seed, index, size, cache)
    if not truth.get("hand_fully_visible", True) or not indicators_visible(truth):
        return None
    want, dets = truth["hand"], detections_of(truth)
    w, h = truth["width"], truth["height"]
    got = group_detections(dets, width=w, height=h)
    line: dict[str, Any] = {
        "scene": f"{seed}/{index}",
        "view": truth.get("camera", {}).get("view", "?"),
        "want": want,
        "got": got.hand(),
        "exact": same_hand(got.hand(), want),
        "warnings": sorted({x.code for x in got.warnings}),
        "offered": offered(got, want),
        "alternatives": len(got.alternatives),
    }
    line["named"] = line["exact"] or names_the_problem(got, truth)
    if damaged:
        dropped: list[int] = []
        sources: list[int] = []
        rng = np.random.default_rng([seed, index])
        hurt = group_detections(damage(dets, rng, dropped, sources), width=w, height=h)
        hurt_exact = same_hand(hurt.hand(), want)
        line |= {
            "damaged_got": hurt.hand(),
            "damaged_exact": hurt_exact,
            "damaged_named": hurt_exact or names_the_problem(hurt, truth, sources, dropped),
            "damaged_warnings": sorted({x.code for x in hurt.warnings}),
            "damaged_traceless": same_hand(
                hurt.hand(), without_dropped_indicators(want, truth, dropped)
            ),
            "damaged_after_drop": indicators_only_after_drop(hurt.hand(), want, truth, dropped),
        }
    return line


def run(args: argparse.Namespace) -> int:
    overrides = dict(parse_setting(s) for s in args.set)
    jobs = [
        (seed, index, args.size, args.cache, not args.no_damaged, overrides)
        for seed in parse_seeds(args.seeds)
        for index in range(args.n)
    ]
    t0 = time.perf_counter()
    # fork: workers start from this process's imports (the grouping, numpy) at no cost
    with get_context("fork").Pool(args.workers) as pool, open(args.out, "w") as out:
        for line in pool.imap(scene_result, jobs, chunksize=8):
            if line is not None:
                out.write(json.dumps(line) + "\n")
    print(f"{len(jobs)} scenes in {time.perf_counter() - t0:.0f} s -> {args.out}")
    for text in totals(load(args.out)):
        print(text)
    return 0


def load(path: str) -> dict[str, dict[str, Any]]:
    with open(path) as f:
        return {line["scene"]: line for line in map(json.loads, f)}


def _silent(line: dict[str, Any], prefix: str = "") -> bool:
    return not line[f"{prefix}exact"] and not line[f"{prefix}warnings"]


def totals(lines: dict[str, dict[str, Any]]) -> Iterator[str]:
    n = len(lines)
    exact = sum(x["exact"] for x in lines.values())
    yield (
        f"true boxes: {exact}/{n} exact ({100 * exact / max(n, 1):.2f}%), "
        f"{sum(_silent(x) for x in lines.values())} wrong without a warning"
    )
    if all("named" in x for x in lines.values()):
        unnamed = sum(not x["named"] for x in lines.values())
        yield f"  wrong hands whose warnings do not name the problem: {unnamed}"
    if all("offered" in x for x in lines.values()):
        n_offered = sum(x["offered"] for x in lines.values())
        extra = sum(x["alternatives"] for x in lines.values() if x["exact"])
        yield (
            f"  offered (chosen or an alternative): {n_offered}/{n} "
            f"({100 * n_offered / max(n, 1):.2f}%); alternatives on right hands: {extra}"
        )
    hidden_red = sum(
        same_but_hidden_red_five(x.get("got"), x["want"]) for x in lines.values() if "want" in x
    )
    yield f"  wrong hands right but for a closed kan's face-down red five: {hidden_red}"
    hurt = [x for x in lines.values() if "damaged_exact" in x]
    if hurt:
        wrong = [x for x in hurt if not x["damaged_exact"]]
        silent = [x for x in wrong if not x["damaged_warnings"]]
        traceless = sum(x["damaged_traceless"] for x in silent)
        yield (
            f"damaged boxes: {len(wrong)} wrong, {len(silent)} without a warning "
            f"({traceless} of them only lack indicators the damage dropped without a trace)"
        )
        if all("damaged_named" in x for x in hurt):
            unnamed = [x for x in hurt if not x["damaged_named"]]
            after_drop = sum(
                x.get("damaged_after_drop", False) and not x["damaged_traceless"] for x in unnamed
            )
            yield (
                f"  damaged wrong hands whose warnings do not name the problem: {len(unnamed)} "
                f"({sum(x['damaged_traceless'] for x in unnamed)} of them only lack indicators "
                "the damage dropped without a trace; "
                f"{after_drop} more differ only in indicators where the damage dropped one)"
            )


def changes(
    before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]], prefix: str = ""
) -> tuple[list[str], list[str], list[str]]:
    """Scenes read right only after, right only before, and newly silent (wrong with no
    warning after, not so before)."""
    both = [s for s in before if s in after and f"{prefix}exact" in before[s]]
    both = [s for s in both if f"{prefix}exact" in after[s]]
    gained = [s for s in both if not before[s][f"{prefix}exact"] and after[s][f"{prefix}exact"]]
    lost = [s for s in both if before[s][f"{prefix}exact"] and not after[s][f"{prefix}exact"]]
    silent = [s for s in both if _silent(after[s], prefix) and not _silent(before[s], prefix)]
    return gained, lost, silent


def diff(args: argparse.Namespace) -> int:
    before, after = load(args.before), load(args.after)
    for label, lines in (("before", before), ("after", after)):
        for text in totals(lines):
            print(f"{label}: {text}")
    kinds = [("", "true boxes")]
    if all(any("damaged_exact" in x for x in run.values()) for run in (before, after)):
        kinds.append(("damaged_", "damaged boxes"))
    for prefix, label in kinds:
        gained, lost, silent = changes(before, after, prefix)
        print(f"{label}: +{len(gained)} -{len(lost)}, {len(silent)} newly silent")
        for name, scenes in (("gained", gained), ("lost", lost), ("newly silent", silent)):
            if scenes:
                print(f"  {name}: {' '.join(scenes[: args.show])}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="group every scene of the seeds; one JSON line per scene")
    r.add_argument("--out", required=True, help="the JSON-lines file to write")
    r.add_argument("--seeds", required=True, help="e.g. 1001-1016 or 770013-770016,1020")
    r.add_argument("--n", type=int, default=500, help="scenes per seed (index 0..n-1)")
    r.add_argument("--size", default="1024-2048", help="long side, or a range LO-HI")
    r.add_argument("--cache", help="keep each rendered scene's truth JSON here (outside git)")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    r.add_argument("--no-damaged", action="store_true", help="true boxes only (half the time)")
    r.add_argument("--workers", type=int, default=2)
    d = sub.add_parser("diff", help="the scenes two runs read differently")
    d.add_argument("before")
    d.add_argument("after")
    d.add_argument("--show", type=int, default=40, help="scenes to name per list")
    args = parser.parse_args(argv)
    return run(args) if args.command == "run" else diff(args)


if __name__ == "__main__":
    sys.exit(main())
