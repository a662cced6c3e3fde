"""`recognize` time on crowded photos, where the what-if scores group the photo again.

    .venv/bin/python benchmarks/bench_what_if.py [--scenes 992001/98 992001/96 ...] [--repeat 3]

Each scene is rendered by the synthetic generator (``datasets.synth.render_sample`` at
1280-2016 px, as ``bench_photo_to_hand.py`` renders them) and given to
:func:`vision.api.recognize` ``--repeat`` times after one warm-up call (the models load on
the first). For every uncertain tile the grouping groups the photo again under each
candidate class (:mod:`vision.grouping.what_if`), so a whole-table photo with many doubtful
tiles spends most of its time there. Printed per scene: boxes, uncertain tiles, the median
time of the whole ``recognize`` call and of its ``group`` calls (the grouping with its
what-if scores; wall and CPU seconds), each with the grouping's memo
(:mod:`vision.grouping.memo`, as served) and without it (every step measured afresh, as
before the memo). The two responses must be the same (checked). The default scenes are
tuning renders of seed 992001 (used for the photo-to-hand tuning only): 98 a whole table
with 172 boxes and 13 uncertain tiles, the others the most crowded of its first 120 renders
with some doubt.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import statistics
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import vision.api  # noqa: E402
from datasets.art import load_styles  # noqa: E402
from datasets.synth import parse_size, render_sample  # noqa: E402

try:
    from vision.grouping.memo import not_sharing
except ImportError:  # an older checkout, timed for the record: as it is only
    not_sharing = None  # type: ignore[assignment]

SCENES = ["992001/98", "992001/96", "992001/93", "992001/12", "992001/17"]


@contextlib.contextmanager
def timed_group(spent: list[tuple[float, float]]) -> Iterator[None]:
    """``vision.api.group`` timed into ``spent`` (recognize's grouping and what-if scores):
    wall and CPU seconds (CPU time is steadier on a shared machine)."""
    group = vision.api.group

    def timed(request: dict[str, Any]) -> dict[str, Any]:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return group(request)
        finally:
            spent.append((time.perf_counter() - start, time.process_time() - cpu))

    vision.api.group = timed  # type: ignore[assignment]
    try:
        yield
    finally:
        vision.api.group = group  # type: ignore[assignment]


def measure(jpeg: bytes, repeat: int, fresh: bool) -> tuple[float, float, float, dict[str, Any]]:
    """Median seconds of ``recognize``, of its ``group`` calls and of their CPU time, and
    the response. ``fresh``: without the grouping's memo."""
    whole, grouping, cpu = [], [], []
    response: dict[str, Any] = {}
    for _ in range(repeat):
        spent: list[tuple[float, float]] = []
        context = not_sharing() if fresh and not_sharing else contextlib.nullcontext()
        with context, timed_group(spent):
            start = time.perf_counter()
            response = vision.api.recognize(jpeg)
            whole.append(time.perf_counter() - start)
        grouping.append(sum(w for w, _ in spent))
        cpu.append(sum(c for _, c in spent))
    return statistics.median(whole), statistics.median(grouping), statistics.median(cpu), response


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", nargs="+", default=SCENES, help="SEED/INDEX renders")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per scene and way")
    args = parser.parse_args(argv)
    styles, size = load_styles(None), parse_size("1280-2016")
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {platform.node()}")
    rows: list[tuple[str, ...]] = []
    for spec in args.scenes:
        seed, index = (int(v) for v in spec.split("/"))
        jpeg = render_sample(seed, index, size, styles).jpeg
        vision.api.recognize(jpeg)  # warm-up: the models load on the first call
        memo_s, memo_g, memo_c, with_memo = measure(jpeg, args.repeat, fresh=False)
        boxes, uncertain = len(with_memo["detections"]), len(with_memo.get("uncertain", []))
        if not_sharing is None:
            # A checkout without the memo: its times are the "no memo" ones.
            whole, grouping, cpu = f"{memo_s:.2f}", f"{memo_g:.2f}", f"{memo_c:.2f}"
            rows.append((spec, str(boxes), str(uncertain), whole, "", grouping, "", cpu, ""))
            continue
        fresh_s, fresh_g, fresh_c, without = measure(jpeg, args.repeat, fresh=True)
        if json.dumps(with_memo, sort_keys=True) != json.dumps(without, sort_keys=True):
            print(f"{spec}: the responses with and without the memo differ", file=sys.stderr)
            return 1
        rows.append(
            (
                spec,
                str(boxes),
                str(uncertain),
                f"{fresh_s:.2f}",
                f"{memo_s:.2f}",
                f"{fresh_g:.2f}",
                f"{memo_g:.2f}",
                f"{fresh_c:.2f}",
                f"{memo_c:.2f}",
            )
        )
    print(
        "| scene | boxes | uncertain tiles | recognize s, no memo | recognize s, memo "
        "| its grouping s, no memo | its grouping s, memo | grouping CPU s, no memo "
        "| grouping CPU s, memo |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
