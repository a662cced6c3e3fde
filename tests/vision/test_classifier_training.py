"""The crop classifier's training data: crops of labelled tiles and of non-tiles."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from datasets.classes import CLASS_NAMES
from tests.vision.conftest import write_colour_classifier
from tests.vision.test_pipeline import COLOURS
from vision.classifier_training import NONE_ID, CropPlan, build_crops, clean_none_crops
from vision.tile_classifier import CROP_SIZE


def tiny_set(root: Path) -> Path:
    """A YOLO set of two photos, each with four coloured tiles of classes 0-3."""
    for split in ("train",):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        for n in range(2):
            img = np.full((240, 320, 3), 20, np.uint8)
            lines = []
            for cls in range(4):
                x1, y1 = 20 + cls * 70, 80 + n * 20
                img[y1 : y1 + 60, x1 : x1 + 45] = COLOURS[cls]
                cx, cy = (x1 + 22.5) / 320, (y1 + 30) / 240
                lines.append(f"{cls} {cx:.5f} {cy:.5f} {45 / 320:.5f} {60 / 240:.5f}")
            Image.fromarray(img).save(root / "images" / split / f"p{n}.png")
            (root / "labels" / split / f"p{n}.txt").write_text("\n".join(lines) + "\n")
    return root


def test_build_crops_cuts_every_tile_and_some_non_tiles(tmp_path: Path) -> None:
    root = tiny_set(tmp_path / "set")
    plan = CropPlan(jitters=2, jitter=0.03, none_share=0.5)
    out = build_crops(root, tmp_path / "crops.npz", plan=plan, workers=1)
    data = np.load(out)
    x, y = data["x"], data["y"]
    assert x.shape[1:] == (*CROP_SIZE, 3) and x.dtype == np.uint8
    tiles = y[y != NONE_ID]
    assert sorted(np.bincount(tiles).tolist()) == [4, 4, 4, 4]  # 2 photos x 2 jitters
    assert 1 <= (y == NONE_ID).sum() <= 4  # half a crop per tile, when room is found
    # A tile crop shows its colour; a `none` crop is mostly table (grey 20).
    red = x[y == 0].reshape(-1, 3).mean(axis=0)
    assert red[0] > 120 > red[1]
    assert np.median(x[y == NONE_ID]) < 120
    # Same seed, same crops.
    again = np.load(build_crops(root, tmp_path / "again.npz", plan=plan, workers=1))
    np.testing.assert_array_equal(again["x"], x)


def test_none_crops_are_kept_only_where_the_classifier_agrees(tmp_path: Path) -> None:
    crops = np.zeros((3, *CROP_SIZE, 3), np.uint8)
    crops[1] = COLOURS[2]  # a blue tile labelled `none` (unlabelled in the photo)
    crops[2] = COLOURS[0]
    labels = np.array([NONE_ID, NONE_ID, 0])
    np.savez(tmp_path / "raw.npz", x=crops, y=labels)
    classifier = write_colour_classifier(tmp_path / "cls.onnx", COLOURS)
    clean = np.load(clean_none_crops(tmp_path / "raw.npz", tmp_path / "clean.npz", classifier))
    assert clean["y"].tolist() == [NONE_ID, 0]
    assert len(CLASS_NAMES) == NONE_ID


def test_augmentation_keeps_shape_and_range() -> None:
    torch = pytest.importorskip("torch", reason="the augmentation runs in torch (extra 'train')")
    from vision.classifier_training import augment, make_model

    x = torch.rand(8, 3, *CROP_SIZE)
    out = augment(x.clone(), torch.Generator().manual_seed(0))
    assert out.shape == x.shape and float(out.min()) >= 0 and float(out.max()) <= 1
    assert make_model()(out).shape == (8, NONE_ID + 1)


def test_training_without_the_train_extra_says_so(tmp_path: Path) -> None:
    import importlib.util

    from scoring.errors import ModelError
    from vision.classifier_training import export_classifier

    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed here: the missing-extra error cannot happen")
    with pytest.raises(ModelError) as err:
        export_classifier(tmp_path / "weights.pt", tmp_path / "out.onnx")
    assert err.value.code == "missing_extra"
