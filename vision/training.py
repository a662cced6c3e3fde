"""Training the tile detector (extra ``train``: torch, torchvision, ultralytics).

Nothing here runs at serving time, and torch/ultralytics are imported inside the functions
so that importing this module (doctests, ``agari --help``) needs only the runtime packages.

The pipeline, each step one function:

1. :func:`write_dataset` - a YOLO dataset of *list files* under ``../data/merged`` pointing
   into ``../shared/data`` (real photos) and ``../data/synth_*`` (synthetic renders); nothing
   is copied and nothing enters git.
2. :func:`peer_init` - optional warm start from ``mahjong-detector``'s YOLO11n weights (an
   ONNX file): its convolutions are BN-fused, so the BN layers are re-created from
   activation statistics measured on real photos, and its 34-class head (alphabetical class
   order) is remapped onto our 38 classes.
3. :func:`train` - Ultralytics training, offline, 2 torch threads, bf16 autocast on CPU,
   no horizontal flips (mirrored glyphs are not tiles). Checkpoints go under ``../runs``;
   ``resume=True`` continues the latest run. Every run appends to ``models/TRAINING_LOG.md``.
4. :func:`export` - ONNX export with the class order written into the metadata, which
   :mod:`vision.onnx_detector` checks on load.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import platform
import time
import zipfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from datasets.classes import CLASS_NAMES
from scoring.errors import ModelError

REPO = Path(__file__).resolve().parents[1]
WORK = REPO.parent
SHARED_DATA = WORK / "shared" / "data"
DATA_DIR = Path(os.environ.get("AGARI_DATA_DIR", WORK / "data"))
RUNS_DIR = Path(os.environ.get("AGARI_RUNS_DIR", WORK / "runs"))
MODEL_PATH = REPO / "models" / "agari-tiles.onnx"
TRAINING_LOG = REPO / "models" / "TRAINING_LOG.md"
REAL_SETS = ("real-photos-hk", "real-photos-riichi-small")
#: mahjong-detector's class names (alphabetical) -> ours.
PEER_NAMES = {
    **{f"{n}{s}": f"{n}{s}" for s in "mps" for n in range(1, 10)},
    "tou": "1z",
    "nan": "2z",
    "sha": "3z",
    "pe": "4z",
    "haku": "5z",
    "hatsu": "6z",
    "chun": "7z",
}
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")


def image_files(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    return sorted(str(p) for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def _mirror(src: Path, dst: Path, split: str) -> list[str]:
    """Symlink one split of a YOLO set under ``dst`` and return its image paths there.

    Ultralytics writes a ``labels/<split>.cache`` beside the labels; mirroring keeps those
    caches out of ``../shared`` (read-only data) and out of other people's folders. Images
    without a label file, or written in the last minute, are left out.
    """
    images = image_files(src / "images" / split)
    if not images:
        return []
    img_dir, lbl_dir = dst / "images" / split, dst / "labels" / split
    img_dir.mkdir(parents=True, exist_ok=True)
    lbl_dir.mkdir(parents=True, exist_ok=True)
    out = []
    settled = time.time() - 60  # a generator may still be writing the newest files
    for image in images:
        label = src / "labels" / split / (Path(image).stem + ".txt")
        if not label.exists() or max(label.stat().st_mtime, Path(image).stat().st_mtime) > settled:
            continue
        link = img_dir / Path(image).name
        if not link.is_symlink():
            link.symlink_to(image)
        label_link = lbl_dir / label.name
        if not label_link.is_symlink():
            label_link.symlink_to(label)
        out.append(str(link))
    return out


def dataset_dir(name: str) -> Path:
    """Where a named set lives: ``../shared/data/NAME`` or ``../data/NAME``."""
    shared = SHARED_DATA / name
    return shared if shared.is_dir() else DATA_DIR / name


def write_dataset(
    out_dir: Path | None = None,
    *,
    synth: Sequence[str] = (),
    real: Sequence[str] = REAL_SETS,
    val: str = "real-photos-hk",
    real_repeat: int = 1,
) -> Path:
    """Write list files and a ``data.yaml`` combining real and synthetic train splits.

    ``synth`` names folders under ``../data`` in YOLO layout (``images/train``); the real
    sets are read from ``../shared/data`` through symlinks. ``real_repeat`` lists each real
    photo that many times, so that real photos keep their share of an epoch beside many
    renders (run ``mixC`` lost accuracy on real photos at an 11% share). Returns the
    ``data.yaml`` path.
    """
    out_dir = out_dir or DATA_DIR / "merged"
    out_dir.mkdir(parents=True, exist_ok=True)
    train: list[str] = []
    for name in (*real, *synth):
        found = _mirror(dataset_dir(name), out_dir / name, "train")
        if not found:
            raise ModelError(
                f"no train images under {dataset_dir(name)!s} (an image counts once its "
                "label file exists and both were written over a minute ago)"
            )
        train += found * (real_repeat if name in real else 1)
    (out_dir / "train.txt").write_text("\n".join(train) + "\n")
    val_images = _mirror(dataset_dir(val), out_dir / val, "val")
    (out_dir / "val.txt").write_text("\n".join(val_images) + "\n")
    names = "\n".join(f"  {i}: '{n}'" for i, n in enumerate(CLASS_NAMES))
    yaml_path = out_dir / "data.yaml"
    yaml_path.write_text(
        f"# written by vision.training.write_dataset\npath: {out_dir}\n"
        f"train: {out_dir / 'train.txt'}\nval: {out_dir / 'val.txt'}\nnames:\n{names}\n"
    )
    return yaml_path


def _offline_env() -> None:
    """Ultralytics fetches fonts and checks versions unless told not to."""
    cfg = WORK / "yolocfg"
    cfg.mkdir(exist_ok=True)
    font = cfg / "Arial.ttf"
    if not font.exists():
        for candidate in (
            Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
            Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
        ):
            if candidate.exists():
                font.symlink_to(candidate)
                break
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(cfg))


def _patch_ultralytics_for_cpu(threads: int) -> None:
    """Two threads instead of Ultralytics' ``cpu_count - 1``, and bf16 autocast on CPU.

    Ultralytics only allows bf16 autocast on CUDA; on CPUs with AVX512-BF16/AMX it halves
    the step time (measured here: 0.32 s vs 0.77 s for a batch of 8 at 512 px).
    """
    import torch
    from ultralytics.engine import trainer, validator
    from ultralytics.utils import torch_utils

    torch.set_num_threads(threads)
    torch_utils.NUM_THREADS = threads
    original = torch_utils.autocast

    def autocast(enabled: bool | torch.dtype, device: str = "cuda") -> Any:
        if device == "cpu" and enabled:
            return torch.amp.autocast("cpu", dtype=torch.bfloat16)
        return original(enabled, device=device)

    trainer.autocast = autocast
    validator.autocast = autocast


def peer_init(
    peer_onnx: Path, out_pt: Path, *, calib: Iterable[str] = (), imgsz: int = 512
) -> Path:
    """A YOLO11n checkpoint for our 38 classes from mahjong-detector's ONNX weights."""
    _offline_env()
    import cv2
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(peer_onnx))
    weights = {
        i.name: torch.from_numpy(numpy_helper.to_array(i).copy())
        for i in graph.graph.initializer
        if i.name.startswith("model.")
    }
    meta = {p.key: p.value for p in graph.metadata_props}
    peer_names = list(ast.literal_eval(meta["names"]).values())
    from ultralytics.nn.tasks import DetectionModel

    model = DetectionModel("yolo11n.yaml", nc=len(CLASS_NAMES), verbose=False)
    model.names = dict(enumerate(CLASS_NAMES))
    convs: dict[str, tuple[Any, Any]] = {}
    for name, module in model.named_modules():
        if hasattr(module, "conv") and hasattr(module, "bn"):
            convs[name] = (module.conv, module.bn)
    state = model.state_dict()
    loaded = 0
    remap = [CLASS_NAMES.index(PEER_NAMES[n]) for n in peer_names]
    for key, value in weights.items():
        prefix = key.rsplit(".", 2)[0]
        if key.endswith(".conv.weight") and prefix in convs:
            state[key] = value
            loaded += 1
        elif key.endswith(".conv.bias") and prefix in convs:
            continue  # folded into the BN below
        elif key in state and state[key].shape == value.shape:
            state[key] = value
            loaded += 1
        elif key in state and value.shape[0] == len(peer_names):  # the class logits
            new = state[key].clone()
            new[remap] = value
            # Red fives start from their plain five's filters (the bias stays at the prior).
            for red, plain in (("0m", "5m"), ("0p", "5p"), ("0s", "5s")):
                new[CLASS_NAMES.index(red)] = value[peer_names.index(plain)]
                if key.endswith(".bias"):
                    new[CLASS_NAMES.index(red)] = state[key][CLASS_NAMES.index(red)]
            state[key] = new
            loaded += 1
    model.load_state_dict(state)
    # The BN layers: identity plus the fused bias first, then set to the statistics of the
    # fused convolution outputs so that training-mode BN starts where the peer was.
    biases = {k.rsplit(".", 2)[0]: v for k, v in weights.items() if k.endswith(".conv.bias")}
    for prefix, (_conv, bn) in convs.items():
        bn.weight.data.fill_(1.0)
        bn.bias.data.copy_(biases.get(prefix, torch.zeros_like(bn.bias)))
        bn.running_mean.zero_()
        bn.running_var.fill_(1.0 - bn.eps)
    stats: dict[str, list[Any]] = {}

    def hook(name: str) -> Any:
        def record(_module: Any, _inputs: Any, output: Any) -> None:
            dims = (0, 2, 3)
            stats.setdefault(name, []).append((output.mean(dims), output.var(dims, unbiased=False)))

        return record

    handles = [conv.register_forward_hook(hook(n)) for n, (conv, _bn) in convs.items()]
    batch = []
    for path in list(calib)[:64]:
        img = cv2.imread(path)
        img = cv2.resize(img, (imgsz, imgsz))[:, :, ::-1]
        batch.append(torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).float() / 255)
    model.eval()
    with torch.no_grad():
        for i in range(0, len(batch), 16):
            model(torch.stack(batch[i : i + 16]))
    for h in handles:
        h.remove()
    for prefix, (_conv, bn) in convs.items():
        if prefix not in stats:
            continue
        mean = torch.stack([m for m, _ in stats[prefix]]).mean(0)
        var = torch.stack([v for _, v in stats[prefix]]).mean(0)
        bn.running_mean.copy_(mean)
        bn.running_var.copy_(var)
        bn.weight.data.copy_(torch.sqrt(var + bn.eps))
        bn.bias.data.add_(mean)
    out_pt.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "model": model,
            "train_args": {},
            "date": datetime.now(UTC).isoformat(),
            "version": "agari-peer-init",
            "note": f"{loaded} tensors from {peer_onnx.name}",
        },
        out_pt,
    )
    return out_pt


def latest_run() -> Path | None:
    """The most recently modified run directory with a ``weights/last.pt``."""
    runs = sorted(RUNS_DIR.glob("*/weights/last.pt"), key=lambda p: p.stat().st_mtime)
    return runs[-1].parents[1] if runs else None


def log_run(text: str) -> None:
    """Append a dated line to models/TRAINING_LOG.md (committed: what each run did)."""
    TRAINING_LOG.parent.mkdir(parents=True, exist_ok=True)
    if not TRAINING_LOG.exists():
        TRAINING_LOG.write_text("# Training log\n\nOne entry per run of `agari train`.\n\n")
    with TRAINING_LOG.open("a") as fh:
        fh.write(f"- {datetime.now(UTC):%Y-%m-%d %H:%M} UTC: {text}\n")


def require_train_extra(module: str) -> None:
    """:class:`ModelError` ``missing_extra`` unless ``module`` (torch, ultralytics) is
    installed: training needs the ``train`` extra, serving does not."""
    if importlib.util.find_spec(module) is None:
        raise ModelError(
            "training needs the 'train' extra: pip install -e '.[train]'", code="missing_extra"
        )


def train(
    *,
    name: str = "tiles",
    init: str = "peer",
    synth: Sequence[str] = (),
    epochs: int = 20,
    imgsz: int = 512,
    batch: int = 16,
    threads: int = 2,
    resume: bool = False,
    hours: float | None = None,
    peer_onnx: Path | None = None,
    extra: dict[str, Any] | None = None,
    real_repeat: int = 1,
) -> Path:
    """Train (or resume) a run; returns the run directory holding ``weights/best.pt``."""
    require_train_extra("ultralytics")
    _offline_env()
    # On a shared machine spinning OpenMP threads wait for a descheduled sibling at every
    # barrier (measured: 1.6 s/batch alone, 21 s/batch beside other jobs); sleep instead.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from ultralytics import YOLO

    _patch_ultralytics_for_cpu(threads)
    started = time.monotonic()
    if resume:
        run = latest_run()
        if run is None:
            raise ModelError(f"nothing to resume under {RUNS_DIR!s}", code="no_checkpoint")
        log_run(f"resumed `{run.name}` from {run / 'weights' / 'last.pt'}")
        YOLO(str(run / "weights" / "last.pt")).train(resume=True)
        log_run(f"`{run.name}` finished after {(time.monotonic() - started) / 60:.0f} min")
        return run
    data = write_dataset(synth=synth, real_repeat=real_repeat)
    if init == "peer":
        peer = peer_onnx or WORK / "peer" / "ex" / "mahjong_detector" / "model.onnx"
        wheels = sorted((WORK / "peer").glob("mahjong_detector-*.whl"))
        if not peer.exists() and wheels and peer_onnx is None:
            with zipfile.ZipFile(wheels[-1]) as zf:
                zf.extractall(WORK / "peer" / "ex")
        if not peer.exists():
            raise ModelError(
                f"peer weights not found at {peer!s}: `pip download --no-deps mahjong-detector "
                "-d ../peer`, or use --init scratch"
            )
        calib = (DATA_DIR / "merged" / "train.txt").read_text().split()[::15]
        weights = str(peer_init(peer, RUNS_DIR / "peer-init.pt", calib=calib, imgsz=imgsz))
    elif init == "scratch":
        weights = "yolo11n.yaml"
    else:
        weights = init
    args: dict[str, Any] = {
        "data": str(data),
        "epochs": epochs,
        "imgsz": imgsz,
        "batch": batch,
        "device": "cpu",
        "amp": "bf16",  # patched through to CPU autocast (see _patch_ultralytics_for_cpu)
        "workers": 0,
        "project": str(RUNS_DIR),
        "name": name,
        "exist_ok": False,
        "fliplr": 0.0,  # a mirrored tile is not a tile
        "mosaic": 1.0,
        "close_mosaic": max(1, epochs // 5),
        "degrees": 5.0,
        "warmup_epochs": 1.0,  # every run starts from trained weights (the peer's or ours)
        "plots": False,
        "patience": 50,
        # Every epoch kept (weights/epochN.pt, ~5 MB each, outside git): best.pt is chosen by
        # mAP50-95 on one val set, and under `time` a cut close-mosaic epoch can overwrite a
        # full epoch that reads better on the other sets (run mixI).
        "save_period": 1,
        "seed": 0,
    }
    if hours:
        args["time"] = hours  # Ultralytics fits the epochs (and LR schedule) to the time
    args.update(extra or {})
    log_run(
        f"run `{name}`: init={init}, synth={list(synth) or 'none'}, real x{real_repeat}, "
        f"epochs={epochs}, "
        f"hours={hours}, imgsz={imgsz}, batch={batch}, threads={threads}, "
        f"{platform.processor() or 'cpu'}; "
        f"args={json.dumps({k: v for k, v in args.items() if k not in ('data', 'project')})}"
    )
    model = YOLO(weights)
    result = model.train(**args)
    run = Path(result.save_dir) if result is not None and hasattr(result, "save_dir") else None
    run = run or latest_run() or RUNS_DIR / name
    log_run(f"`{run.name}` finished after {(time.monotonic() - started) / 60:.0f} min")
    return run


def export(weights: Path, out: Path = MODEL_PATH, *, imgsz: int = 512) -> Path:
    """Export to ONNX (fp32, opset 17, fixed input) with the class order in the metadata."""
    _offline_env()
    import onnx
    from ultralytics import YOLO

    model = YOLO(str(weights))
    names = list(model.names.values())
    if names != list(CLASS_NAMES):
        raise ModelError(f"checkpoint classes {names!r} differ from CLASS_NAMES")
    produced = Path(model.export(format="onnx", imgsz=imgsz, opset=17, simplify=True))
    graph = onnx.load(str(produced))
    meta = {p.key: p.value for p in graph.metadata_props}
    meta["agari_classes"] = json.dumps(list(CLASS_NAMES))
    meta["agari_imgsz"] = str(imgsz)
    meta["agari_source"] = str(weights)
    del graph.metadata_props[:]
    for key, value in meta.items():
        entry = graph.metadata_props.add()
        entry.key, entry.value = key, value
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(graph, str(out))
    return out
