"""Render the bundled example photo with the synthetic-photo generator (``datasets/``).

    .venv/bin/python webapp/examples/make_example.py

Image 6 of the generator's run seeded 4242 at 1280 px: a hand seen from the player's
seat, with two called chi, a red five and a dora indicator on the dead wall (4 han 30 fu
under Tenhou rules: tanyao, dora, aka dora). The empty lower part of the frame is cropped
away. The tile faces of that image come from the CC0 art in ``../shared/data/tile-art``
(rendered into the scene, no file of it copied); the truth beside it is the generator's.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from datasets.art import load_styles
from datasets.synth import render_sample

HERE = Path(__file__).resolve().parent
ART = HERE.parents[2] / "shared" / "data" / "tile-art"
SEED, INDEX, SIZE = 4242, 6, (1280, 1280)
KEEP_ROWS = 720  # the hand, melds and walls are in the top 720 rows


def main() -> None:
    sample = render_sample(SEED, INDEX, SIZE, load_styles(str(ART)))
    img = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
    crop = img[:KEEP_ROWS]
    ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 88])
    if not ok:
        raise SystemExit("JPEG encoding failed")
    (HERE / "example-hand.jpg").write_bytes(buf.tobytes())
    truth = sample.truth
    tiles = [t for t in truth["tiles"] if t["labelled"] and t["box"][3] <= KEEP_ROWS]
    out = {
        "source": f"datasets.synth.render_sample(seed={SEED}, index={INDEX}, size={SIZE})",
        "width": crop.shape[1],
        "height": crop.shape[0],
        "style": truth["style"],
        "hand": truth["hand"],
        "hand_tiles": truth["hand_tiles"],
        "tiles": [{k: t[k] for k in ("tile", "box", "role", "sideways")} for t in tiles],
    }
    (HERE / "example-hand.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"example-hand.jpg: {len(buf)} bytes, {len(tiles)} labelled tiles")


if __name__ == "__main__":
    main()
