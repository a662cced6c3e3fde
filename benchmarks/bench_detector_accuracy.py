"""Detector accuracy on each validation set, ours beside mahjong-detector, same images.

    .venv/bin/python benchmarks/bench_detector_accuracy.py [--sets hk riichi synth]
        [--model models/agari-tiles.onnx] [--no-peer] [--json-out FILE]

Sets (read in place, never copied): ``hk`` = ../shared/data/real-photos-hk val (210),
``riichi`` = ../shared/data/real-photos-riichi-small val (8), ``synth`` = the generator's
held-out renders in ../data/synth_holdout (else the val split of ../data/synth_v1). Both
detectors run the full runtime path from the JPEG bytes (``vision.recognition.detect_photo``:
decode, letterbox, zoomed pass when tiles are small, NMS; ours then the crop classifier,
unless ``--classifier none``); ms/img is that whole path, decode included.

Metrics, per set, computed here in numpy (no torch needed):
- mAP50: mean over the classes present in the labels of the 101-point interpolated AP at
  IoU 0.5 (the COCO/Ultralytics definition), from every box down to confidence 0.001;
- found: the share of labelled tiles matched (IoU >= 0.5) by a box of the right class at
  the runtime threshold (confidence 0.25), and precision: the share of those boxes that
  are right.
The peer has no red fives and no face-down class, so on sets that contain them it scores
0 on those classes; ``mAP50 (34)`` restricts both to the 34 shared classes.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.peer_detector import PeerDetector, peer_package  # noqa: E402
from datasets.classes import CLASS_NAMES  # noqa: E402
from datasets.yolo import read_label_boxes as read_labels  # noqa: E402
from vision.boxes import box_iou_batch  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.onnx_detector import MODEL_PATH, OnnxDetector  # noqa: E402
from vision.pipeline import TileDetector  # noqa: E402
from vision.recognition import detect_photo  # noqa: E402
from vision.tile_classifier import CLASSIFIER_PATH, TileClassifier  # noqa: E402

WORK = REPO.parent
#: The generator's held-out set; failing that, the val split of the training renders (the
#: trainer reads only their train split).
SYNTH = next(
    (p for p in (WORK / "data" / "synth_holdout", WORK / "data" / "synth_v1") if p.is_dir()),
    WORK / "data" / "synth_holdout",
)
SETS = {
    "synth": SYNTH,
    "hk": WORK / "shared" / "data" / "real-photos-hk",
    "riichi": WORK / "shared" / "data" / "real-photos-riichi-small",
}
RUNTIME_CONF = 0.25
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


def set_images(root: Path) -> list[Path]:
    """The validation images of a YOLO set: images/val, else images/test, else images/."""
    for sub in ("images/val", "images/test", "images"):
        folder = root / sub
        if folder.is_dir():
            found = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if found:
                return found
    return []


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """101-point interpolated AP of a precision/recall curve."""
    r = np.concatenate([[0.0], recall, [1.0]])
    p = np.concatenate([[1.0], precision, [0.0]])
    p = np.flip(np.maximum.accumulate(np.flip(p)))
    x = np.linspace(0, 1, 101)
    return float(np.trapezoid(np.interp(x, r, p), x))


@dataclass
class Tally:
    """Matches accumulated over a set, for one detector."""

    scores: dict[int, list[tuple[float, bool]]] = field(default_factory=dict)
    n_gt: dict[int, int] = field(default_factory=dict)
    found: int = 0
    total: int = 0
    kept: int = 0
    seconds: float = 0.0

    def add(self, dets: Detections, gt_boxes: np.ndarray, gt_classes: np.ndarray) -> None:
        for c in gt_classes.tolist():
            self.n_gt[c] = self.n_gt.get(c, 0) + 1
        self.total += len(gt_classes)
        iou = box_iou_batch(dets.xyxy, gt_boxes) if len(gt_boxes) else None
        matched = np.zeros(len(gt_classes), bool)
        for i in np.argsort(-dets.confidence, kind="stable"):
            c = int(dets.class_id[i])
            hit = False
            if iou is not None:
                cand = np.where((gt_classes == c) & ~matched & (iou[i] >= 0.5))[0]
                if len(cand):
                    j = cand[np.argmax(iou[i, cand])]
                    matched[j] = hit = True
            self.scores.setdefault(c, []).append((float(dets.confidence[i]), hit))
            if dets.confidence[i] >= RUNTIME_CONF:
                self.kept += 1
                self.found += hit

    def ap_per_class(self) -> dict[int, float]:
        out = {}
        for c, n in self.n_gt.items():
            rows = sorted(self.scores.get(c, []), key=lambda r: -r[0])
            if not rows:  # never predicted: AP 0 (not the 0.5 of an empty curve)
                out[c] = 0.0
                continue
            hits = np.array([h for _, h in rows], bool)
            tp = np.cumsum(hits)
            fp = np.cumsum(~hits)
            recall = tp / n
            precision = tp / np.maximum(tp + fp, 1)
            out[c] = average_precision(recall, precision)
        return out

    def summary(self) -> dict[str, float]:
        ap = self.ap_per_class()
        shared = [v for c, v in ap.items() if c < 34]
        return {
            "mAP50": float(np.mean(list(ap.values()))) if ap else 0.0,
            "mAP50_34": float(np.mean(shared)) if shared else 0.0,
            "found": self.found / max(1, self.total),
            "precision": self.found / max(1, self.kept),
            "tiles": self.total,
        }


def evaluate(
    images: list[Path],
    detectors: dict[str, TileDetector],
    classifiers: dict[str, TileClassifier] | None = None,
) -> tuple[dict[str, Tally], int]:
    tallies = {name: Tally() for name in detectors}
    for path in images:
        data = path.read_bytes()
        for name, detector in detectors.items():
            start = time.perf_counter()
            photo, dets, _ = detect_photo(
                data, detector, conf=0.001, classifier=(classifiers or {}).get(name)
            )
            tallies[name].seconds += time.perf_counter() - start
            gt_boxes, gt_classes = read_labels(path, photo.width, photo.height)
            tallies[name].add(dets, gt_boxes, gt_classes)
    return tallies, len(images)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=["synth", "hk", "riichi"], choices=SETS)
    parser.add_argument("--model", type=Path, default=MODEL_PATH)
    parser.add_argument(
        "--classifier",
        type=Path,
        default=CLASSIFIER_PATH,
        help="the crop classifier (second stage) of ours; 'none' for the detector alone",
    )
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--limit", type=int, default=0, help="at most this many images a set")
    parser.add_argument("--json-out", type=Path)
    args = parser.parse_args(argv)

    detectors: dict[str, TileDetector] = {"agari": OnnxDetector(args.model, threads=2)}
    classifiers = {}
    if str(args.classifier) != "none" and args.classifier.is_file():
        classifiers["agari"] = TileClassifier(args.classifier, threads=2)
    package = None if args.no_peer else peer_package()
    if package is not None:
        detectors["mahjong-detector"] = PeerDetector(package, threads=2)
    elif not args.no_peer:
        print("peer not found: pip download --no-deps mahjong-detector -d ../peer", file=sys.stderr)

    print(
        f"# detector accuracy, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, "
        f"model {args.model.name}"
        + (f" + classifier {args.classifier.name}" if classifiers else " (no classifier)")
    )
    report: dict[str, dict] = {}
    for name in args.sets:
        images = set_images(SETS[name])
        if args.limit:
            images = images[: args.limit]
        if not images:
            print(f"\n{name}: no images under {SETS[name]} (skipped)")
            continue
        tallies, n = evaluate(images, detectors, classifiers)
        report[name] = {}
        tiles = next(iter(tallies.values())).total
        print(f"\n## {name} ({SETS[name].name}): {n} images, {tiles} labelled tiles")
        print("| detector | mAP50 | mAP50 (34 shared) | found, right class | precision | ms/img |")
        print("|---|---|---|---|---|---|")
        for det_name, tally in tallies.items():
            s = tally.summary()
            report[name][det_name] = {
                **s,
                "ap": {CLASS_NAMES[c]: v for c, v in sorted(tally.ap_per_class().items())},
            }
            print(
                f"| {det_name} | {s['mAP50']:.3f} | {s['mAP50_34']:.3f} | {s['found']:.3f} | "
                f"{s['precision']:.3f} | {1000 * tally.seconds / n:.0f} |"
            )
        print("\nAP50 per class (ours / peer):")
        ours = report[name]["agari"]["ap"]
        peer = report[name].get("mahjong-detector", {}).get("ap", {})
        print(
            "  "
            + "  ".join(
                f"{c} {ours[c]:.2f}" + (f"/{peer[c]:.2f}" if c in peer else "") for c in ours
            )
        )
    if args.json_out:
        args.json_out.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
