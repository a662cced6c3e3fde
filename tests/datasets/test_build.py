from __future__ import annotations

from pathlib import Path

import pytest

from datasets.build import build_dataset
from datasets.classes import CLASS_NAMES
from datasets.synth import generate
from datasets.yolo import read_data_yaml_names
from scoring.errors import RequestError


def _fake_real(root: Path, names: list[str]) -> Path:
    """A tiny 'real' set with its own class order and a val split that must stay out."""
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        (root / "images" / split / f"{split}0.jpg").write_bytes(b"\xff\xd8 not decoded here")
        (root / "labels" / split / f"{split}0.txt").write_text("1 0.5 0.5 0.1 0.1\n")
    body = "".join(f"  {i}: {n}\n" for i, n in enumerate(names))
    (root / "data.yaml").write_text(
        f"path: .\ntrain: images/train\nval: images/val\nnames:\n{body}"
    )
    return root


def test_mix_remaps_by_name_and_keeps_real_val_out(tmp_path: Path) -> None:
    synth = tmp_path / "synth"
    generate(synth, 4, seed=1, size="256", art=None, workers=1, val_fraction=0.5)
    real = _fake_real(tmp_path / "real", ["7z", "0p", "1m"])
    out = tmp_path / "mix"
    report = build_dataset(out, [synth], [real])
    assert report[str(real)] == {"train": 1}
    assert read_data_yaml_names(out / "data.yaml") == list(CLASS_NAMES)
    label = (out / "labels" / "train" / "real_train0.txt").read_text()
    assert label.split()[0] == str(CLASS_NAMES.index("0p"))
    assert not (out / "images" / "val" / "real_val0.jpg").exists()
    n_synth = sum(report[str(synth)].values())
    assert n_synth == 4
    images = list((out / "images").rglob("*.jpg"))
    assert len(images) == 5 and all(p.resolve().exists() for p in images)


def test_unknown_class_names_are_refused(tmp_path: Path) -> None:
    real = _fake_real(tmp_path / "real", ["1m", "flower"])
    with pytest.raises(RequestError) as err:
        build_dataset(tmp_path / "mix", [], [real])
    assert err.value.code == "bad_dataset"


def test_data_yaml_list_form(tmp_path: Path) -> None:
    p = tmp_path / "data.yaml"
    p.write_text("names: ['1m', '2m']\n")
    assert read_data_yaml_names(p) == ["1m", "2m"]
