"""Agreement with Tenhou: score every win of ../shared/data/tenhou-hands under ``tenhou``.

Each discard's rons (and each tsumo) go through ``scoring.api.settle`` as one table event,
and every paid result is compared with what Tenhou's server paid: han, fu, limit, yaku set
(han > 0), points and every seat's delta. Prints the agreement and the first mismatches.

    .venv/bin/python benchmarks/tenhou_agreement.py [PATH] [--show N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scoring.tenhou_corpus import check_all, load

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "tenhou-hands" / "hands.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--show", type=int, default=10, help="mismatches to print")
    args = ap.parse_args(argv)
    if not args.path.exists():
        print(f"corpus not found: {args.path}", file=sys.stderr)
        return 2
    records = load(args.path)
    results = check_all(records)
    bad = [(rec, m) for rec, m in results if m]
    for rec, m in bad[: args.show]:
        print(f"{rec['log_id']} round {rec['round_index']} who {rec['who']}: {'; '.join(m)}")
    n = len(results)
    print(f"agreement: {n - len(bad)}/{n} hands = {100 * (n - len(bad)) / n:.2f}%")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
