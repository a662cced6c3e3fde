"""Latency from a 12 MP JPEG file to tile detections, p50 over 20 photos, ours and the peer's.

    .venv/bin/python benchmarks/bench_detector_latency.py [--photos DIR] [--model PATH]

Without ``--photos`` it first writes 20 photos of 4032x3024 (12.2 MP, JPEG quality 92) to
``../data/latency_photos`` (outside git), from the synthetic hold-out renders if present,
else from the real-photos-hk validation photos, resized. The timed path is ours end to
end: read the file, decode (EXIF, reduced-scale JPEG decode), letterbox, run, decode,
NMS, the zoomed hand pass when it triggers, the crop classifier on every box (when
``models/agari-tile-classifier.onnx`` is there), boxes in photo pixels. The peer
(mahjong-detector) runs its own path from the same file (PIL decode, grey, autocontrast,
640 px, run, NMS). Two onnxruntime threads each; two warm-up photos are not counted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.peer_detector import PeerDetector, peer_package  # noqa: E402
from vision.onnx_detector import MODEL_PATH, OnnxDetector  # noqa: E402
from vision.recognition import detect_photo  # noqa: E402
from vision.tile_classifier import CLASSIFIER_PATH, default_classifier  # noqa: E402

WORK = REPO.parent
Times = tuple[list[float], list[float]]
SIZE = (4032, 3024)
SOURCES = (
    WORK / "data" / "synth_holdout" / "images",
    WORK / "shared" / "data" / "real-photos-hk" / "images" / "val",
)


def make_photos(out: Path, n: int = 20) -> list[Path]:
    """Write ``n`` 12 MP JPEGs made from the first source set found."""
    out.mkdir(parents=True, exist_ok=True)
    existing = sorted(out.glob("*.jpg"))
    if len(existing) >= n:
        return existing[:n]
    sources: list[Path] = []
    for folder in SOURCES:
        sources = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".jpg", ".png"))
        if sources:
            break
    if not sources:
        raise SystemExit("no source photos: run the generator or provide ../shared/data")
    photos = []
    for i, src in enumerate(sources[:: max(1, len(sources) // n)][:n]):
        img = cv2.imread(str(src))
        h, w = img.shape[:2]
        size = SIZE if w >= h else SIZE[::-1]
        big = cv2.resize(img, size, interpolation=cv2.INTER_CUBIC)
        path = out / f"photo_{i:02d}.jpg"
        cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
        photos.append(path)
    return photos


def timed(fn: Callable[[Path], object], items: list[Path], warmup: int = 2) -> Times:
    """Wall-clock and CPU milliseconds (all threads of this process) per photo.

    On a shared machine the wall clock includes waiting for other jobs; the CPU time
    does not, so both are reported.
    """
    for path in items[:warmup]:
        fn(path)
    wall, cpu = [], []
    for path in items:
        start, start_cpu = time.perf_counter(), time.process_time()
        fn(path)
        wall.append(1000 * (time.perf_counter() - start))
        cpu.append(1000 * (time.process_time() - start_cpu))
    return wall, cpu


def describe(times: Times) -> str:
    wall, cpu = times
    return (
        f"wall p50 {statistics.median(wall):.0f} ms (p90 {np.percentile(wall, 90):.0f} ms), "
        f"CPU time p50 {statistics.median(cpu):.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=Path, default=WORK / "data" / "latency_photos")
    parser.add_argument("--model", type=Path, default=MODEL_PATH)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args(argv)
    photos = make_photos(args.photos)
    mp = [cv2.imread(str(p), cv2.IMREAD_REDUCED_GRAYSCALE_8).size * 64 / 1e6 for p in photos[:1]]

    ours = OnnxDetector(args.model, threads=args.threads)
    zoomed = sum(detect_photo(p.read_bytes(), ours)[2] for p in photos)
    ms = timed(lambda p: detect_photo(p.read_bytes(), ours), photos)
    print(
        f"# detector latency, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, "
        f"{len(photos)} photos of ~{mp[0]:.1f} MP"
    )
    classifier = default_classifier()
    stages = args.model.name + (f" + {CLASSIFIER_PATH.name}" if classifier else "")
    print(f"agari ({stages}): {describe(ms)}; zoomed pass on {zoomed}/{len(photos)}")
    package = None if args.no_peer else peer_package()
    if package is None:
        if not args.no_peer:
            print("peer not found: pip download --no-deps mahjong-detector -d ../peer")
        return 0
    peer = PeerDetector(package, threads=args.threads)
    # The peer's module keeps its own per-thread session: give it the same two threads.
    import importlib

    import onnxruntime as ort

    peer_predict = importlib.import_module("mahjong_detector.predict")
    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    peer_predict.threadlocal.session = ort.InferenceSession(
        str(package / "model.onnx"), sess_options=options, providers=["CPUExecutionProvider"]
    )
    ms_peer = timed(peer.own_pipeline, photos)
    print(f"mahjong-detector (its own path): {describe(ms_peer)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
