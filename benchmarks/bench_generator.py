"""Speed of the synthetic photo generator: images per second at a fixed size.

    .venv/bin/python benchmarks/bench_generator.py [--count 200] [--size 1280] [--workers 2]

Writes a full dataset (JPEG, YOLO labels, truth JSON) into a temporary folder, as
``agari generate`` does, and reports wall-clock images per second and the projected time for
1,000 images (target: under 3 minutes). Results go in benchmarks/RESULTS.md by hand.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import tempfile
import time
from pathlib import Path

from datasets.art import load_styles
from datasets.synth import generate

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--size", default="1280")
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--art", default=str(REPO.parent / "shared" / "data" / "tile-art"))
    args = ap.parse_args()
    art = Path(args.art) if Path(args.art).is_dir() else None
    t0 = time.perf_counter()
    load_styles(str(art) if art else None)
    t_styles = time.perf_counter() - t0

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    with tempfile.TemporaryDirectory() as tmp:
        c0 = cpu()
        t0 = time.perf_counter()
        generate(
            Path(tmp), args.count, seed=args.seed, size=args.size, art=art, workers=args.workers
        )
        dt = time.perf_counter() - t0
        cpu_s = cpu() - c0
        mb = sum(p.stat().st_size for p in Path(tmp).rglob("*") if p.is_file()) / 1e6
    rate = args.count / dt
    print(
        f"machine: {platform.node()} {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} CPUs, workers={args.workers}"
    )
    print(f"styles loaded once in {t_styles:.2f} s (art: {art})")
    print(
        f"{args.count} images, long side {args.size} px: {dt:.1f} s -> {rate:.2f} img/s, "
        f"{mb / args.count:.2f} MB/image on disk"
    )
    print(f"1,000 images: {1000 / rate / 60:.1f} min wall (target < 3 min)")
    # the machine is shared: CPU time per image tells what idle cores would do
    per = cpu_s / args.count
    print(
        f"CPU time {per:.3f} s/image -> {args.workers / per:.1f} img/s on {args.workers} idle cores"
        f", 1,000 images in {1000 * per / args.workers / 60:.1f} min; load average now "
        f"{os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
