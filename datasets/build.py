"""Build one YOLO training set from synthetic runs and the real photo sets.

    python -m datasets.build --out DIR --synth RUN [RUN ...] [--real SET ...]

Synthetic runs keep their train/val split; real sets contribute their **train** split only
(their val splits stay untouched for evaluation). Labels are remapped by class *name* onto
``CLASS_NAMES``, so a source with another order or fewer classes mixes in correctly. Images
are symlinked (``--copy`` to copy them); labels are written anew.
"""

from __future__ import annotations

import argparse
import shutil
from dataclasses import dataclass
from pathlib import Path

from datasets.classes import CLASS_NAMES, class_id
from datasets.yolo import read_data_yaml_names, write_data_yaml
from scoring.errors import RequestError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


@dataclass(frozen=True)
class Source:
    root: Path
    prefix: str
    splits: tuple[str, ...]


def _remap(root: Path) -> list[int]:
    names = read_data_yaml_names(root / "data.yaml")
    unknown = [n for n in names if n not in CLASS_NAMES]
    if unknown:
        raise RequestError(
            f"{str(root)!r} has classes we do not know: {unknown}", code="bad_dataset"
        )
    return [class_id(n) for n in names]


def _add(source: Source, out: Path, *, copy: bool) -> dict[str, int]:
    mapping = _remap(source.root)
    counts: dict[str, int] = {}
    for split in source.splits:
        img_dir = source.root / "images" / split
        if not img_dir.is_dir():
            continue
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        n = 0
        for img in sorted(img_dir.iterdir()):
            if img.suffix.lower() not in IMAGE_SUFFIXES:
                continue
            name = f"{source.prefix}_{img.stem}"
            dst = out / "images" / split / f"{name}{img.suffix.lower()}"
            if dst.exists() or dst.is_symlink():
                dst.unlink()
            if copy:
                shutil.copyfile(img, dst)
            else:
                dst.symlink_to(img.resolve())
            src_label = source.root / "labels" / split / f"{img.stem}.txt"
            lines = []
            if src_label.exists():
                for line in src_label.read_text().splitlines():
                    parts = line.split()
                    if len(parts) != 5:
                        continue
                    cls = int(parts[0])
                    if not 0 <= cls < len(mapping):
                        raise RequestError(
                            f"{str(src_label)!r}: class {cls} outside its data.yaml",
                            code="bad_dataset",
                        )
                    lines.append(" ".join([str(mapping[cls]), *parts[1:]]))
            (out / "labels" / split / f"{name}.txt").write_text("".join(x + "\n" for x in lines))
            n += 1
        counts[split] = n
    return counts


def build_dataset(out: Path, synth: list[Path], real: list[Path], *, copy: bool = False) -> dict:
    """Write the mixed dataset and its ``data.yaml``; return image counts per source and split."""
    out = Path(out)
    sources = [Source(Path(s), f"syn{i}", ("train", "val")) for i, s in enumerate(synth)]
    sources += [Source(Path(r), Path(r).name, ("train",)) for r in real]
    for s in sources:
        if not (s.root / "data.yaml").exists():
            raise RequestError(
                f"{str(s.root)!r} is not a YOLO dataset (no data.yaml)", code="bad_dataset"
            )
    report = {str(s.root): _add(s, out, copy=copy) for s in sources}
    has_val = (out / "images" / "val").is_dir() and any((out / "images" / "val").iterdir())
    write_data_yaml(out, train="images/train", val="images/val" if has_val else "images/train")
    return report


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The builder's options, shared by ``python -m datasets.build`` and ``agari dataset build``."""
    ap.add_argument("--out", required=True)
    ap.add_argument("--synth", nargs="*", default=[], help="synthetic runs (agari generate)")
    ap.add_argument(
        "--real",
        nargs="*",
        default=None,
        help="real YOLO sets (default: ../shared/data/real-photos-* beside the repo)",
    )
    ap.add_argument("--copy", action="store_true", help="copy images instead of symlinking")


def run(args: argparse.Namespace) -> int:
    real = args.real
    if real is None:
        shared = Path(__file__).resolve().parents[1].parent / "shared" / "data"
        real = sorted(str(p) for p in shared.glob("real-photos-*") if (p / "data.yaml").exists())
    report = build_dataset(
        Path(args.out), [Path(s) for s in args.synth], [Path(r) for r in real], copy=args.copy
    )
    for src, counts in report.items():
        print(f"{src}: {counts}")
    print(f"wrote {Path(args.out) / 'data.yaml'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m datasets.build",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(ap)
    return run(ap.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
