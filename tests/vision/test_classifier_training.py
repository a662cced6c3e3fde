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
from vision.tile_classifier import CROP_SIZE, crop_tiles


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


@pytest.mark.parametrize("degrees", [-50, -30, 20, 45, 70])
def test_tilted_augmentation_cuts_a_turned_tile_as_the_run_time_does(degrees: int) -> None:
    """An upright crop turned by ``tilted_crop_theta`` matches ``crop_tiles`` of the tile
    really turned in the photo (its upright box, turned portrait when landscape)."""
    torch = pytest.importorskip("torch", reason="the augmentation runs in torch (extra 'train')")
    import cv2
    import torch.nn.functional as F

    from vision.classifier_training import tilted_crop_theta

    canvas = np.full((400, 400, 3), 40, np.uint8)
    x1, y1, x2, y2 = 170, 160, 230, 240
    canvas[y1:y2, x1:x2] = 230
    canvas[y1 + 8 : y1 + 30, x1 + 8 : x1 + 30] = (200, 30, 30)  # marks that show the turn
    canvas[y2 - 30 : y2 - 8, x2 - 24 : x2 - 8] = (30, 30, 200)
    upright = crop_tiles(canvas, np.array([[x1, y1, x2, y2]], float))
    # cv2 turns counter-clockwise on screen for a positive angle; the theta the other way.
    turn = cv2.getRotationMatrix2D((200, 200), -degrees, 1.0)
    photo = cv2.warpAffine(canvas, turn, (400, 400), borderValue=(40, 40, 40))
    corners = np.array([[x1, y1], [x2, y1], [x1, y2], [x2, y2]], float) @ turn[:, :2].T
    corners += turn[:, 2]
    want = crop_tiles(photo, np.array([[*corners.min(0), *corners.max(0)]]))[0]
    theta = tilted_crop_theta(
        torch.tensor([degrees * np.pi / 180]), torch.ones(1), torch.zeros(1), torch.zeros(1)
    )
    x = torch.from_numpy(upright).permute(0, 3, 1, 2).float()
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    got = F.grid_sample(x, grid, padding_mode="border", align_corners=False)[0]
    error = np.abs(got.permute(1, 2, 0).numpy() - want.astype(np.float32)).mean()
    assert error < 6, error  # of 255: resampling only (a wrong turn or box gives ~45)


def test_training_without_the_train_extra_says_so(tmp_path: Path) -> None:
    import importlib.util

    from scoring.errors import ModelError
    from vision.classifier_training import export_classifier

    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed here: the missing-extra error cannot happen")
    with pytest.raises(ModelError) as err:
        export_classifier(tmp_path / "weights.pt", tmp_path / "out.onnx")
    assert err.value.code == "missing_extra"
