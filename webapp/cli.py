"""The ``agari`` command line: a thin wrapper over the functions the web app also calls.

JSON commands read one request per line on stdin and answer one line each, in order; a bad
line is answered with ``{"error": {"code", "message"}}`` and the exit status becomes 2 once
every line is answered (CONTRACT.md). Heavy packages are imported inside each command so
that ``agari --help`` and scoring stay fast.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from scoring.errors import AgariError, RequestError, parse_json
from webapp.ledger import cli as ledger_cli

EXIT_OK = 0
EXIT_USER_ERROR = 2

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def _error_line(exc: AgariError) -> dict[str, Any]:
    return {"error": exc.to_dict()}


def run_json_lines(handler: Handler, lines: Iterable[str], out: TextIO) -> int:
    """Answer each JSON request line with one response line; never stop on a bad line."""
    status = EXIT_OK
    for raw in lines:
        if not raw.strip():
            continue
        try:
            request = parse_json(raw, what="the line")
            if not isinstance(request, dict):
                raise RequestError("each line must be a JSON object", code="bad_request")
            response = handler(request)
        except AgariError as exc:
            response = _error_line(exc)
            status = EXIT_USER_ERROR
        except Exception as exc:
            # A bug of ours: its traceback on stderr for us, an error line for the caller,
            # whose other lines are still answered (CONTRACT.md), as the HTTP API's JSON 500.
            traceback.print_exc(file=sys.stderr)
            message = f"an unexpected error occurred ({type(exc).__name__})"
            response = {"error": {"code": "internal_error", "message": message}}
            status = EXIT_USER_ERROR
        out.write(json.dumps(response, ensure_ascii=False) + "\n")
        out.flush()
    return status


def _lines(text: str) -> list[str]:
    """JSON Lines split at newlines only (``str.splitlines`` also splits at U+2028 and
    other separators a JSON string may hold raw)."""
    return text.split("\n")


#: :func:`_document`'s answer for a text of JSON Lines.
_LINES = object()


def _document(text: str, *, what: str) -> Any:
    r"""The one JSON document of ``agari game`` / ``group`` (pretty-printed or not), or
    :data:`_LINES` when the text is JSON Lines, one request a line.

    A text that fails as one document is read as lines only when its first line stands
    alone as JSON or is itself broken; otherwise it is one document with a slip, refused
    with the document's own line and column (read as lines, each of its lines would get an
    error of its own, none naming the slip). An empty text is refused too.

    >>> _document('{"a": 1}\n{"a": 2}\n', what="x") is _LINES
    True
    >>> _document('{\n "a": [\n  1,\n ],\n}\n', what="the game")
    Traceback (most recent call last):
    ...
    scoring.errors.RequestError: the game is not valid JSON: Expecting value (line 4, column 2)
    """
    if not text.strip():
        raise RequestError(f"{what} is empty: one JSON document expected", code="bad_json")
    try:
        return parse_json(text, what=what)
    except RequestError as whole:
        first = next(line for line in _lines(text) if line.strip())
        try:
            parse_json(first, what="the line")
            return _LINES
        except RequestError:
            pass
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            if exc.lineno == 1:  # the first line is broken: a bad request line
                return _LINES
        except (ValueError, RecursionError):  # parse_json's other failures: as one document
            pass
        raise whole from None


def not_yet(feature: str, issue: str) -> int:
    """A command whose implementation belongs to another issue: say so, exit 2."""
    print(
        f"agari: {feature} is not implemented yet (tracked in the issue {issue!r}).",
        file=sys.stderr,
    )
    return EXIT_USER_ERROR


# --- commands -------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    from waitress import serve

    from webapp.app import create_app

    print(f"Agari serving on http://{args.host}:{args.port}/", flush=True)
    serve(create_app(), host=args.host, port=args.port, threads=args.threads)
    return EXIT_OK


#: ``agari score --help``'s notation section.
SCORE_NOTATION = """\
hand notation:
  CONCEALED+WIN [MELD ...]   the concealed tiles, '+', the winning tile, then each call
  tiles       digits before their suit: 123m (characters) 456p (dots) 789s (bamboo);
              0 is the red five (406p); honours 1z-7z = East South West North,
              white, green, red dragon (11z = a pair of East)
  melds       KIND:TILES@FROM, FROM = left, across or right (who discarded the tile):
                chi:345s@left  pon:555z@across  daiminkan:2222p@right
                kakan:7777m@left (an added kan: FROM is the pon's)
                ankan:1111z (a closed kan: no @)
  examples    agari score "234m406p78s11z+9s pon:555z@left" --ron W --seat S --dora 4p
              agari score "123456m789p1122s+2s" --flag riichi --flag ippatsu --ura 3m
  flags       riichi double_riichi ippatsu haitei houtei rinshan chankan tenhou chiihou
              renhou nagashi_mangan
  without HAND, JSON score requests are read from stdin, one a line (CONTRACT.md)
"""


def cmd_score(args: argparse.Namespace) -> int:
    """Score requests read as JSON Lines on stdin (or one HAND given in notation): JSON
    Lines out with --json, else readable text."""
    from scoring.api import score

    lines: Iterable[str] = sys.stdin
    given = [
        f"--{name}"
        for name in ("ron", "seat", "round", "dora", "ura", "flag", "ruleset", "honba", "sticks")
        if getattr(args, name) not in (None, [])
    ]
    if args.hand:
        from scoring.request import request_from_hand

        req = request_from_hand(
            args.hand,
            ron_from=args.ron,
            seat_wind=args.seat or "E",
            round_wind=args.round or "E",
            dora=tuple(args.dora),
            ura=tuple(args.ura),
            flags=tuple(args.flag),
            ruleset=args.ruleset or "tenhou",
            honba=args.honba or 0,
            riichi_sticks=args.sticks or 0,
        )
        lines = [json.dumps(req)]
    elif given:
        # They were ignored, and the JSON's own fields (or their defaults) scored the hand.
        raise RequestError(
            f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} to a HAND given "
            "on the command line; with JSON "
            "requests on stdin, put these fields in each request",
            code="usage",
        )
    if args.json:
        return run_json_lines(score, lines, sys.stdout)
    from scoring.explain import explain

    class _Text:
        """Turns each JSON response line into readable text as it is written."""

        def write(self, line: str) -> None:
            response = json.loads(line)
            # Scores on stdout, errors on stderr (a script keeping stdout gets scores only).
            out = sys.stderr if "error" in response else sys.stdout
            print(explain(response) + "\n", file=out)

        def flush(self) -> None:
            sys.stdout.flush()

    return run_json_lines(score, lines, _Text())  # type: ignore[arg-type]


def _document_or_lines(handler: Handler, what: str) -> int:
    """Stdin as one JSON document (pretty-printed, as CONTRACT.md shows the settle and
    standings requests; settle, standings, group) or as JSON Lines, one request a line; one
    response line each.

    A first line that is a whole request makes it JSON Lines, answered as they come (a
    caller may keep the pipe open and wait for each answer); otherwise the whole text is
    read and judged as :func:`_document` judges it."""
    first = ""
    for line in sys.stdin:
        first += line
        if line.strip():
            break
    try:
        parse_json(first, what="the line")
    except RequestError:
        text = first + sys.stdin.read()
        request = _document(text, what=what)
        if request is _LINES:
            return run_json_lines(handler, _lines(text), sys.stdout)
        return run_json_lines(handler, [json.dumps(request)], sys.stdout)
    return run_json_lines(handler, itertools.chain([first], sys.stdin), sys.stdout)


def cmd_settle(args: argparse.Namespace) -> int:
    """Settle requests (a JSON document or JSON Lines on stdin), one JSON response line each."""
    from scoring.api import settle

    return _document_or_lines(settle, "the settle request")


def cmd_standings(args: argparse.Namespace) -> int:
    from scoring.api import standings

    # JSON in, JSON Lines out (CONTRACT.md); --json is the only form.
    return _document_or_lines(standings, "the standings request")


def cmd_game(args: argparse.Namespace) -> int:
    from scoring.api import replay_game

    text = sys.stdin.read()
    # One game as a (possibly pretty-printed) JSON document, or several, one a line.
    request = _document(text, what="the game")
    if request is _LINES:
        return run_json_lines(replay_game, _lines(text), sys.stdout)
    if args.json:
        return run_json_lines(replay_game, [json.dumps(request)], sys.stdout)
    if not isinstance(request, dict):
        raise RequestError("the game must be a JSON object", code="bad_request")
    game = replay_game(request)
    for h in game["hands"]:
        deltas = " ".join(f"{s}{v:+d}" for s, v in h["deltas"].items())
        scores = " ".join(f"{s} {v}" for s, v in h["scores"].items())
        notes = f"  ({'; '.join(h['notes'])})" if h["notes"] else ""
        where = f"{h['round']}-{h['honba']}"
        print(f"{h['hand']:>3} {where:<5} {h['result']:<8} {deltas:<34} {scores}{notes}")
    print(f"ended: {game['ended']}; riichi sticks left: {game['riichi_sticks_left']}")
    for row in game["standings"]:
        print(f"  {row['rank']}. {row['seat']} {row['score']:>7} {row['result']:>+8}")
    return EXIT_OK


def _rule_value(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}={_rule_value(v)}" for k, v in value.items()) or "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_rule_value(v) for v in value) + "]"
    return json.dumps(value) if isinstance(value, (bool, str)) else str(value)


def cmd_rules(args: argparse.Namespace) -> int:
    from scoring.ruleset import declared_in, list_rulesets, load_ruleset, rule_names

    if args.action == "list":
        if args.ids:
            raise RequestError("'agari rules list' takes no ids", code="bad_request")
        for rid in list_rulesets():
            rs = load_ruleset(rid)
            print(f"{rid:<14} {rs.name}  (extends {rs.extends or '-'})")
        return EXIT_OK
    if args.action == "show":
        if len(args.ids) != 1:
            raise RequestError("usage: agari rules show ID", code="bad_request")
        rs = load_ruleset(args.ids[0])
        origin = declared_in(rs.id)
        print(f"{rs.id}: {rs.name} (extends {rs.extends or '-'})")
        print(f"{'rule':<30} {'value':<26} {'set in':<14} source")
        for rule in rule_names():
            where = origin[rule]
            tag = "base default" if where in ("base", "default") else where
            value = _rule_value(rs.value_of(rule))
            print(f"{rule:<30} {value:<26} {tag:<14} {rs.source_of(rule)}")
        return EXIT_OK
    if len(args.ids) != 2:
        raise RequestError("usage: agari rules diff A B", code="bad_request")
    a, b = (load_ruleset(i) for i in args.ids)
    differing = [r for r in rule_names() if a.value_of(r) != b.value_of(r)]
    print(f"{len(differing)} rules differ between {a.id} and {b.id}")
    print(f"{'rule':<30} {a.id:<26} {b.id}")
    for rule in differing:
        print(f"{rule:<30} {_rule_value(a.value_of(rule)):<26} {_rule_value(b.value_of(rule))}")
        print(f"{'':<30}   {a.id}: {a.source_of(rule)}")
        print(f"{'':<30}   {b.id}: {b.source_of(rule)}")
    return EXIT_OK


def cmd_recognize(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scoring.api import check_context
    from vision.api import recognize
    from webapp.images import check_image, pixel_cap

    try:
        context = _recognize_context(args)
        if context is not None:
            check_context(context)  # a bad ruleset is refused before the photo is read
        try:
            data = Path(args.photo).read_bytes()
        except OSError as exc:
            raise RequestError(
                f"cannot read {args.photo!r}: {exc.strerror}", code="bad_path"
            ) from None
        # The upload's checks, as POST /recognize: the same answer for the same photo, and
        # a HEIC photo (iPhone) turned into the JPEG the detector's decoder reads.
        data = check_image(data, max_pixels=pixel_cap()).data
        result = recognize(data, context=context)
    except AgariError as exc:  # with --json, every error is a JSON line (CONTRACT.md)
        if args.json:
            print(json.dumps(_error_line(exc), ensure_ascii=False))
            return EXIT_USER_ERROR
        raise
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return EXIT_OK
    dets = result["detections"]
    print(f"{args.photo}: {result['width']}x{result['height']}, {len(dets)} tiles found")
    for d in dets:
        side = " (sideways)" if d["sideways"] else ""
        print(f"  {d['tile']:>4}  {d['confidence']:.2f}  at {d['box']}{side}")
    print("hand tiles: " + (" ".join(result["hand_tiles"]) or "(none)"))
    if result["hand"]:
        print("hand: " + json.dumps(result["hand"], ensure_ascii=False))
    for w in result["warnings"]:
        print(f"warning [{w['code']}]: {w['message']}")
    return EXIT_OK


def _recognize_context(args: argparse.Namespace) -> dict[str, Any] | None:
    """``--context JSON`` with ``--ruleset ID`` laid over it; None when neither is given."""
    from vision.api import context_from_json

    context = context_from_json(args.context, what="--context") or {}
    if args.ruleset:
        context = {**context, "ruleset": args.ruleset}
    return context or None


def cmd_group(args: argparse.Namespace) -> int:
    """Group detections from stdin: one JSON object (pretty-printed or not), or JSON Lines."""
    from vision.api import group

    status = _document_or_lines(group, "the group request")
    if not args.json:
        print("(--json gives this same JSON; the hand is under 'hand')", file=sys.stderr)
    return status


def cmd_train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vision import training

    if args.export:
        out = training.export(Path(args.export), imgsz=args.imgsz)
        print(f"exported {args.export} -> {out}")
        return EXIT_OK
    run = training.train(
        name=args.name,
        init=args.init,
        synth=args.synth,
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        threads=args.threads,
        resume=args.resume,
        hours=args.hours,
        real_repeat=args.real_repeat,
    )
    print(f"run finished: {run}  (export: agari train --export {run}/weights/best.pt)")
    return EXIT_OK


def cmd_train_classifier(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vision import classifier_training

    if args.export:
        out = classifier_training.export_classifier(Path(args.export))
        print(f"exported {args.export} -> {out}")
        return EXIT_OK
    weights = classifier_training.run(
        name=args.name,
        synth=args.synth or ("synth_v1", "synth_v2", "synth_v3"),
        epochs=args.epochs,
        epoch_size=args.epoch_size,
        hours=args.hours,
        lr=args.lr,
        init=Path(args.init) if args.init else None,
        clean_with=Path(args.clean_with) if args.clean_with else None,
    )
    print(f"run finished: {weights}  (export: agari train-classifier --export {weights})")
    return EXIT_OK


def cmd_generate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from datasets.synth import generate

    default_art = Path(__file__).resolve().parents[1].parent / "shared/data/tile-art"
    art: Path | None = Path(args.art) if args.art else default_art
    if not args.art and not default_art.is_dir():
        print(f"agari: no tile art at {default_art}; drawing faces only", file=sys.stderr)
        art = None
    manifest = generate(
        Path(args.out),
        args.count,
        seed=args.seed,
        size=args.size,
        art=art,
        workers=args.workers,
        val_fraction=args.val,
        start=args.start,
        progress=True,
    )
    print(json.dumps(manifest, sort_keys=True))
    return EXIT_OK


def cmd_dataset_build(args: argparse.Namespace) -> int:
    from datasets.build import run

    return run(args)


def _add_generate_arguments(p: argparse.ArgumentParser) -> None:
    """Shared by ``agari generate`` and ``agari dataset synth`` (the issue's name for it)."""
    p.add_argument("--out", required=True, help="output folder (YOLO layout + truth JSON)")
    p.add_argument("--count", "--n", type=int, default=100, help="how many images")
    p.add_argument("--seed", type=int, default=0, help="same seed, same bytes")
    p.add_argument("--start", type=int, default=0, help="first image index of the run")
    p.add_argument("--size", default="640-1280", help="long side in px, or a range lo-hi")
    p.add_argument("--art", default=None, help="tile art folder (default ../shared/data/tile-art)")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--val", type=float, default=0.0, help="val share (-1: all val)")
    p.set_defaults(func=cmd_generate)


def cmd_table(args: argparse.Namespace) -> int:
    from webapp.ledger.cli import run

    return run(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agari",
        description="Score riichi-mahjong hands, from a photo or from notation.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "score",
        help="score hands (text, or --json lines on stdin)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=SCORE_NOTATION,
    )
    p.add_argument("--json", action="store_true", help="JSON Lines in and out (CONTRACT.md)")
    p.add_argument(
        "hand",
        nargs="?",
        help="one hand instead of stdin, e.g. '234m406p78s11z+9s pon:555z@left' (below)",
    )
    p.add_argument(
        "--ron", metavar="SEAT", help="with HAND: won by ron from the discarder's seat wind "
        "(E S W N); without it, tsumo"
    )  # fmt: skip
    p.add_argument("--seat", help="with HAND: the winner's seat wind, E S W N (default E)")
    p.add_argument("--round", help="with HAND: the round wind (default E)")
    p.add_argument(
        "--dora", action="append", default=[], metavar="TILE",
        help="with HAND: a dora indicator; repeat for kan dora (--dora 4p --dora 1z)",
    )  # fmt: skip
    p.add_argument(
        "--ura", action="append", default=[], metavar="TILE", help="with HAND: an ura indicator"
    )
    p.add_argument(
        "--flag", action="append", default=[], metavar="FLAG",
        help="with HAND: repeat for each (--flag riichi --flag ippatsu); the flags are below",
    )  # fmt: skip
    p.add_argument("--ruleset", help="with HAND: ruleset id (default tenhou; agari rules list)")
    p.add_argument("--honba", type=int, help="with HAND: counters on the table (default 0)")
    p.add_argument("--sticks", type=int, help="with HAND: riichi sticks on the table (default 0)")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("settle", help="settle one discard's wins with the table state (--json)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_settle)

    p = sub.add_parser("recognize", help="detect tiles in a photo and rebuild the hand")
    p.add_argument("photo")
    p.add_argument(
        "--ruleset", help="the ruleset the hand will be scored under (red fives, what-if scores)"
    )
    p.add_argument(
        "--context", help="JSON object of score request fields for the what-if scores (as /group)"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_recognize)

    p = sub.add_parser("group", help="rebuild the hand from detections given on stdin (--json)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_group)

    p = sub.add_parser("standings", help="final standings of a game under a ruleset (--json)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_standings)

    p = sub.add_parser("game", help="replay a list of hand outcomes under a ruleset (--json)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_game)

    p = sub.add_parser("rules", help="list, show or diff rulesets")
    p.add_argument("action", nargs="?", default="list", choices=["list", "show", "diff"])
    p.add_argument("ids", nargs="*")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("serve", help="serve the web app")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--threads", type=int, default=8)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("train", help="train the tile detector (extra 'train')")
    p.add_argument("--resume", action="store_true", help="continue the latest run in ../runs")
    p.add_argument("--name", default="tiles", help="run name under ../runs")
    p.add_argument("--init", default="peer", help="peer (mahjong-detector), scratch or a .pt")
    p.add_argument("--synth", action="append", default=[], help="synthetic set under ../data")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--hours", type=float, help="train for this long (fits epochs to it)")
    p.add_argument("--imgsz", type=int, default=512)
    p.add_argument(
        "--real-repeat", type=int, default=1, help="list each real photo this many times an epoch"
    )
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--export", metavar="PT", help="export a checkpoint to models/agari-tiles.onnx")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser(
        "train-classifier", help="train the crop classifier, the second stage (extra 'train')"
    )
    p.add_argument("--name", default="cls", help="weights go to ../runs/cls/NAME.pt")
    p.add_argument("--synth", action="append", default=[], help="synthetic set under ../data")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--epoch-size", type=int, default=40_000, help="crops an epoch")
    p.add_argument("--hours", type=float, help="stop after the epoch that passes this")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (one cycle)")
    p.add_argument("--init", metavar="PT", help="start from these weights")
    p.add_argument(
        "--clean-with",
        metavar="ONNX",
        help="add crops of the detector's own boxes, real `none` ones kept where this "
        "exported classifier agrees",
    )
    p.add_argument(
        "--export", metavar="PT", help="export weights to models/agari-tile-classifier.onnx"
    )
    p.set_defaults(func=cmd_train_classifier)

    p = sub.add_parser("generate", help="render synthetic labelled photos")
    _add_generate_arguments(p)

    p = sub.add_parser("dataset", help="synthetic photos (synth), mixed training set (build)")
    dsub = p.add_subparsers(dest="dataset_command", metavar="ACTION", required=True)
    _add_generate_arguments(dsub.add_parser("synth", help="same as 'agari generate'"))
    pb = dsub.add_parser("build", help="mix synthetic runs and the real train splits into one set")
    from datasets.build import add_arguments as add_build_arguments

    add_build_arguments(pb)
    pb.set_defaults(func=cmd_dataset_build)

    p = sub.add_parser("table", help="table ledger: create, list, show, export a game")
    ledger_cli.add_arguments(p)
    p.set_defaults(func=cmd_table)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USER_ERROR
    try:
        return int(args.func(args))
    except AgariError as exc:
        if getattr(args, "json", False):  # with --json, every error is a JSON line (CONTRACT.md)
            print(json.dumps(_error_line(exc), ensure_ascii=False))
        else:
            print(f"agari: error [{exc.code}]: {exc.message}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `agari rules diff a b | head`: the reader left; stop quietly, as Unix tools do.
        # Point stdout at /dev/null so the interpreter's final flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
