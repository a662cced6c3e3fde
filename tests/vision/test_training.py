"""The training helpers that run without torch: dataset lists, the peer's class mapping."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import pytest

from datasets.classes import CLASS_NAMES
from scoring.errors import ModelError
from vision import training


def yolo_set(root: Path, split: str, names: dict[str, str | None]) -> None:
    """Images (empty files will do) and labels; a None label means no label file."""
    (root / "images" / split).mkdir(parents=True)
    (root / "labels" / split).mkdir(parents=True)
    for name, label in names.items():
        (root / "images" / split / f"{name}.jpg").write_bytes(b"jpeg")
        if label is not None:
            (root / "labels" / split / f"{name}.txt").write_text(label)


def age(root: Path, seconds: float = 3600) -> None:
    past = time.time() - seconds
    for path in root.rglob("*"):
        os.utime(path, (past, past))


def test_write_dataset_mirrors_sets_without_touching_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, data = tmp_path / "shared", tmp_path / "data"
    yolo_set(shared / "real", "train", {"r1": "3 0.5 0.5 0.1 0.1\n"})
    yolo_set(shared / "real", "val", {"v1": "4 0.5 0.5 0.1 0.1\n"})
    yolo_set(data / "synth", "train", {"s1": "37 0.5 0.5 0.1 0.1\n", "s2": None})
    age(tmp_path)
    yolo_set(data / "synth", "val", {})
    (data / "synth" / "images" / "train" / "s3.jpg").write_bytes(b"still being written")
    (data / "synth" / "labels" / "train" / "s3.txt").write_text("")
    monkeypatch.setattr(training, "SHARED_DATA", shared)
    monkeypatch.setattr(training, "DATA_DIR", data)
    before = sorted(p.name for p in tmp_path.rglob("*") if "merged" not in p.parts)

    yaml_path = training.write_dataset(data / "merged", synth=["synth"], real=["real"], val="real")

    train = (data / "merged" / "train.txt").read_text().split()
    assert [Path(p).name for p in train] == ["r1.jpg", "s1.jpg"]  # s2 unlabelled, s3 too new
    for image in map(Path, train):
        label = Path(str(image).replace("/images/", "/labels/")).with_suffix(".txt")
        assert image.is_symlink() and label.is_symlink() and label.read_text()
    assert [Path(p).name for p in (data / "merged" / "val.txt").read_text().split()] == ["v1.jpg"]
    text = yaml_path.read_text()
    assert all(f"  {i}: '{name}'" in text for i, name in enumerate(CLASS_NAMES))
    assert sorted(p.name for p in tmp_path.rglob("*") if "merged" not in p.parts) == before


def test_write_dataset_refuses_an_empty_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(training, "SHARED_DATA", tmp_path / "shared")
    monkeypatch.setattr(training, "DATA_DIR", tmp_path / "data")
    with pytest.raises(ModelError, match="no train images"):
        training.write_dataset(tmp_path / "merged", real=["absent"])


def test_peer_classes_map_onto_our_first_34() -> None:
    ours = [CLASS_NAMES.index(v) for v in training.PEER_NAMES.values()]
    assert sorted(ours) == list(range(34))


@pytest.mark.skipif(
    importlib.util.find_spec("ultralytics") is not None, reason="the train extra is installed"
)
def test_train_without_the_extra_says_what_to_install() -> None:
    with pytest.raises(ModelError, match="train") as err:
        training.train(epochs=1)
    assert err.value.code == "missing_extra"
