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
from typing import Any

from scoring import api
from scoring.errors import AgariError
from scoring.payments import SEATS
from scoring.tenhou_corpus import load, mismatches, seat_of, settle_groups, settle_request

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "tenhou-hands" / "hands.jsonl"


def check_all(records: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[str]]]:
    """``(record, mismatches)`` for every record, via settle."""
    out: list[tuple[dict[str, Any], list[str]]] = []
    for group in settle_groups(records):
        try:
            res = api.settle(settle_request(group))
        except AgariError as exc:
            out.extend((rec, [f"error {exc.code}: {exc.message}"]) for rec in group)
            continue
        by_seat = {r["seat"]: r for r in res["results"]}
        for rec in group:
            got = by_seat.get(seat_of(rec, rec["who"]))
            if got is None:
                out.append((rec, ["not paid by settle"]))
            else:
                out.append((rec, mismatches(rec, got)))
        assert sorted(res["deltas"]) == sorted(SEATS)
    return out


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
