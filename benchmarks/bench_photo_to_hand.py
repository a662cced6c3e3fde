"""Photo to hand, end to end, on generated scenes: the whole `recognize` path from JPEG bytes.

    .venv/bin/python benchmarks/bench_photo_to_hand.py --n 200 --seed 991001 [--model ONNX]

Each scene is rendered by the synthetic generator (``datasets.synth.render_sample``, a seed
that training, tuning and the grouping benchmark do not use), encoded as the JPEG a phone
would send, and given to :func:`vision.api.recognize` (decode, detector, zoom, crop
classifier, grouping). Only scenes whose whole hand and every indicator are visible count
(as in ``bench_grouping.py``).

Figures: the share of scenes whose hand (concealed tiles, melds with ``from``, winning tile,
dora and ura indicators) comes back exactly; how many wrong hands carry no warning (a
silent wrong hand is the worst outcome: the page would not ask the user to check); the
share of the hand's tiles named right (the multiset of ``hand_tiles`` against the truth);
and the time per photo.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.bench_grouping import indicators_visible, same_hand  # noqa: E402
from datasets.art import find_cjk_font, load_styles  # noqa: E402
from datasets.synth import parse_size, render_sample  # noqa: E402
from vision.api import recognize  # noqa: E402
from vision.onnx_detector import OnnxDetector  # noqa: E402


def truth_tiles(hand: dict[str, Any]) -> Counter[str]:
    """The tiles of a truth hand (concealed, winning tile, melds), as MPSZ names."""
    from scoring.notation import parse_tiles

    tiles: Counter[str] = Counter()
    for meld in hand["melds"]:
        tiles.update(str(t) for t in parse_tiles(meld["tiles"]))
    tiles.update(str(t) for t in parse_tiles(hand["closed"]))
    tiles[hand["win_tile"]] += 1
    return tiles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200, help="scenes to render")
    parser.add_argument("--seed", type=int, default=991001, help="a seed used nowhere else")
    parser.add_argument("--size", default="1280-2016", help="long side, px or a range lo-hi")
    parser.add_argument("--show", type=int, default=5, help="failures to print")
    parser.add_argument("--model", type=Path, help="another detector ONNX than the shipped one")
    parser.add_argument(
        "--any-font",
        action="store_true",
        help="run even without a CJK font (scenes drawn with Hershey strokes: not comparable)",
    )
    args = parser.parse_args(argv)
    detector = OnnxDetector(args.model, threads=2) if args.model else None

    styles = load_styles(None)
    if find_cjk_font() is None and not args.any_font:
        # Without a CJK font the drawn faces fall back to Hershey strokes, which the shipped
        # detector reads far worse (7% exact hands on seed 991001, against 84%): the figures
        # would say more about this machine's fonts than about the product.
        print(
            "bench_photo_to_hand: no CJK font on this machine, so the scenes would be drawn "
            "with Hershey strokes and the figures would not compare with RESULTS.md; install "
            "fonts-wqy-zenhei (scripts/test-services.sh does) or set AGARI_CJK_FONT, or pass "
            "--any-font",
            file=sys.stderr,
        )
        return 2
    size = parse_size(args.size)
    counted = exact = silent = no_hand = tiles_right = tiles_total = offered = 0
    seconds = 0.0
    failures: list[str] = []
    for index in range(args.n):
        sample = render_sample(args.seed, index, size, styles)
        truth = sample.truth
        if not truth.get("hand_fully_visible", True) or not indicators_visible(truth):
            continue
        counted += 1
        start = time.perf_counter()
        result = recognize(sample.jpeg, detector=detector)
        seconds += time.perf_counter() - start
        want, got = truth["hand"], result.get("hand")
        want_tiles = truth_tiles(want)
        got_tiles = Counter(t.replace("'", "") for t in result.get("hand_tiles") or [])
        tiles_total += sum(want_tiles.values())
        tiles_right += sum((want_tiles & got_tiles).values())
        # the true hand chosen, or among the alternatives (one tap on the page)
        offered += any(
            same_hand(h, want)
            for h in (got, *(a.get("hand") for a in result.get("alternatives", [])))
        )
        if same_hand(got, want):
            exact += 1
            continue
        no_hand += got is None
        warned = bool(result.get("warnings"))
        silent += not warned
        if len(failures) < args.show:
            failures.append(
                f"{sample.name}: want {want}\n   got {got}\n   warnings "
                f"{[w.get('code') for w in result.get('warnings', [])]}"
            )
    print(f"# bench_photo_to_hand  {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  {platform.machine()}")
    print(f"scenes: {counted} of {args.n} with the hand and indicators in view, seed {args.seed}")
    print(f"face styles: {', '.join(style.name for style in styles)}")
    if not counted:
        return 1
    print(f"exact hand: {exact}/{counted} = {exact / counted:.1%}")
    print(f"wrong hands: {counted - exact} ({no_hand} without a hand), silent: {silent}")
    print(
        f"offered (the chosen hand or an alternative): {offered}/{counted} "
        f"= {offered / counted:.1%}"
    )
    print(f"hand tiles named right: {tiles_right}/{tiles_total} = {tiles_right / tiles_total:.1%}")
    print(f"recognize: {1000 * seconds / counted:.0f} ms a photo (mean)")
    for failure in failures:
        print(" -", failure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
