"""How the two-stage score weighs the detector: mAP50 for each candidate weight.

    .venv/bin/agari dataset synth --out ../data/synth_tune --n 150 --seed 5151 \
        --size 1024-2048 --val -1
    .venv/bin/python benchmarks/tune_detector_weight.py --set ../data/synth_tune

A box's final confidence is P(class) x (detector confidence) ** w
(``vision.tile_classifier.DETECTOR_WEIGHT``). This runs the whole runtime path
(``detect_photo``) once per candidate w on renders of a seed used nowhere else (not the
validation sets: the weight is chosen here, then measured there) and prints mAP50, found
and precision, computed as ``bench_detector_accuracy.py`` does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import vision.tile_classifier as stage2  # noqa: E402
from benchmarks.bench_detector_accuracy import Tally, set_images  # noqa: E402
from datasets.yolo import read_label_boxes  # noqa: E402
from vision.onnx_detector import OnnxDetector  # noqa: E402
from vision.recognition import detect_photo  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", type=Path, required=True, help="a YOLO set of fresh renders")
    parser.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.25, 0.5, 0.75, 1.0])
    args = parser.parse_args(argv)

    images = set_images(args.set)
    if not images:
        print(f"no images under {args.set}", file=sys.stderr)
        return 1
    detector = OnnxDetector(threads=2)
    classifier = stage2.default_classifier()
    if classifier is None:
        print(f"no classifier at {stage2.CLASSIFIER_PATH}", file=sys.stderr)
        return 1
    shipped = stage2.DETECTOR_WEIGHT
    try:
        for weight in args.weights:
            stage2.DETECTOR_WEIGHT = weight  # read by TileClassifier.relabel at each call
            tally = Tally()
            for path in images:
                photo, dets, _ = detect_photo(
                    path.read_bytes(), detector, conf=0.001, classifier=classifier
                )
                tally.add(dets, *read_label_boxes(path, photo.width, photo.height))
            s = tally.summary()
            print(
                f"w={weight}: mAP50 {s['mAP50']:.3f} found {s['found']:.3f} "
                f"precision {s['precision']:.3f}" + ("  (shipped)" if weight == shipped else "")
            )
    finally:
        stage2.DETECTOR_WEIGHT = shipped
    return 0


if __name__ == "__main__":
    sys.exit(main())
