"""Differential check: N random valid hands scored by Agari and by ``mahjong`` (1.4.0).

Equivalent rules and the hand generator are in ``tests/scoring/mahjong_oracle.py``. Prints
how many hands agree (han, fu, points, yaku set; or both reject the hand), how many differ
for a documented reason, how many differ unexplained (with examples), and how often each
yaku occurred. The test suite runs the same check on a few thousand hands.

    .venv/bin/python benchmarks/mahjong_differential.py [--hands 100000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.scoring helpers

from tests.scoring.mahjong_oracle import compare, random_case


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    outcomes: collections.Counter[str] = collections.Counter()
    coverage: collections.Counter[str] = collections.Counter()
    examples = []
    start = time.perf_counter()
    for i in range(args.hands):
        if i and i % 10_000 == 0:  # progress on stderr for long runs
            print(f"{i} hands, {outcomes['UNEXPLAINED']} unexplained", file=sys.stderr, flush=True)
        case = random_case(rng)
        ours, theirs, why = compare(case)
        if why is None:
            outcomes["agree (scored)" if ours.ok else f"agree (both reject: {ours.error})"] += 1
        else:
            outcomes[why] += 1
            if why == "UNEXPLAINED" and len(examples) < args.show:
                examples.append((case.request, ours, theirs))
        for y, _ in ours.yaku:
            coverage[y] += 1
    elapsed = time.perf_counter() - start
    print(f"{args.hands} random hands, seed {args.seed}, {elapsed:.0f} s")
    for k, v in outcomes.most_common():
        print(f"  {k}: {v}")
    print(
        "yaku seen (Agari's reading): "
        + ", ".join(f"{k} {v}" for k, v in sorted(coverage.items(), key=lambda x: -x[1]))
    )
    for req, ours, theirs in examples:
        print(f"UNEXPLAINED {req}\n  agari   {ours}\n  mahjong {theirs}")
    return 0 if not outcomes["UNEXPLAINED"] else 1


if __name__ == "__main__":
    sys.exit(main())
