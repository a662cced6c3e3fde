from __future__ import annotations

import io
import json
from pathlib import Path

import pillow_heif
import pytest
from PIL import Image

import vision.api
from webapp.cli import build_parser, main, run_json_lines

CONTRACT_COMMANDS = ["score", "settle", "recognize", "group", "standings"]


def test_help_lists_contract_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in CONTRACT_COMMANDS:
        assert name in out


def test_bad_json_line_does_not_stop_others() -> None:
    out = io.StringIO()
    status = run_json_lines(lambda req: {"echo": req}, ["{bad", '{"a": 1}', "[1]"], out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 2
    assert lines[0]["error"]["code"] == "bad_json"
    assert lines[1] == {"echo": {"a": 1}}
    assert lines[2]["error"]["code"] == "bad_request"


def test_json_nested_too_deeply_is_bad_json() -> None:
    out = io.StringIO()
    status = run_json_lines(lambda req: {"echo": req}, ["[" * 100_000, '{"a": 1}'], out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 2
    assert lines[0]["error"]["code"] == "bad_json"
    assert lines[1] == {"echo": {"a": 1}}


def test_a_bug_on_one_line_does_not_stop_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    def handler(req: dict[str, object]) -> dict[str, object]:
        if req.get("boom"):
            raise IndexError("a bug of ours")
        return {"echo": req}

    out = io.StringIO()
    status = run_json_lines(handler, ['{"boom": true}', '{"a": 1}'], out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 2
    assert lines[0]["error"]["code"] == "internal_error"
    assert lines[1] == {"echo": {"a": 1}}
    assert "IndexError" in capsys.readouterr().err  # the traceback, for us


def test_parser_knows_serve() -> None:
    args = build_parser().parse_args(["serve", "--port", "8123"])
    assert args.port == 8123


def test_recognize_refuses_an_unknown_ruleset_before_reading_the_photo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"not even a photo")  # the ruleset is checked first
    status = main(["recognize", str(photo), "--ruleset", "no-such-rules", "--json"])
    assert status == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "unknown_ruleset"


@pytest.mark.parametrize(
    ("args", "code"),
    [(["--context", "{bad"], "bad_json"), (["--context", "[1]"], "bad_request")],
)
def test_recognize_refuses_a_bad_context(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: str
) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"not even a photo")
    status = main(["recognize", str(photo), *args, "--json"])
    assert status == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == code


@pytest.mark.parametrize("name", ["missing.jpg", "."], ids=["missing", "a folder"])
def test_recognize_json_answers_an_unreadable_path_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # A tool reading stdout gets the error object, not an empty line and a stderr message.
    status = main(["recognize", str(tmp_path / name), "--json"])
    assert status == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_path"


def test_recognize_reads_a_heic_photo_as_the_upload_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pillow_heif.register_heif_opener()  # to save the HEIC photo below
    photo = tmp_path / "photo.heic"
    Image.new("RGB", (64, 48), "white").save(photo, "HEIF")
    seen: list[bytes] = []

    def fake_recognize(data: bytes, **kwargs: object) -> dict[str, object]:
        seen.append(data)
        return {"width": 64, "height": 48, "detections": [], "hand_tiles": [], "hand": None}

    monkeypatch.setattr(vision.api, "recognize", fake_recognize)
    assert main(["recognize", str(photo), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["width"] == 64
    assert seen[0][:2] == b"\xff\xd8"  # handed on as JPEG, which the detector's decoder reads
    # Refused as the upload is: a GIF is not a photo format the API takes.
    Image.new("RGB", (64, 48)).save(tmp_path / "p.gif", "GIF")
    assert main(["recognize", str(tmp_path / "p.gif"), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "unsupported_image"


def test_recognize_caps_pixels_as_the_upload_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 45 MP photo: over the upload's 40 MP, under the vision library's own ceiling; the
    command line answers as POST /recognize does, and follows AGARI_MAX_IMAGE_PIXELS too."""
    from webapp import create_app

    photo = tmp_path / "big.png"
    Image.new("1", (7500, 6000)).save(photo, "PNG")  # a few kB, 45 MP
    monkeypatch.delenv("AGARI_MAX_IMAGE_PIXELS", raising=False)
    assert main(["recognize", str(photo), "--json"]) == 2
    cli_error = json.loads(capsys.readouterr().out)["error"]
    client = create_app({"TESTING": True}).test_client()
    resp = client.post(
        "/api/v1/recognize",
        data={"photo": (io.BytesIO(photo.read_bytes()), "big.png")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 413
    assert cli_error == resp.get_json()["error"]
    assert cli_error["code"] == "too_many_pixels"
    # A cap raised for the server is raised for the command line alike.
    monkeypatch.setenv("AGARI_MAX_IMAGE_PIXELS", "50000000")
    monkeypatch.setattr(vision.api, "recognize", lambda data, **kw: {"width": 7500, "height": 6000})
    assert main(["recognize", str(photo), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["width"] == 7500


def _run_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], text: str
) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status = main(argv)
    return status, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("command", ["game", "group", "settle", "standings"])
def test_a_pretty_printed_document_with_a_slip_gets_one_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # A trailing comma on line 5: read as JSON Lines, each of the 7 lines got an error of
    # its own ("Extra data", ...) and none named the slip.
    text = '{\n "ruleset": "tenhou",\n "hands": [\n  {"result": "draw"}\n ],\n}\n'
    status, lines = _run_stdin(monkeypatch, capsys, [command, "--json"], text)
    assert status == 2
    assert len(lines) == 1
    assert lines[0]["error"]["code"] == "bad_json"  # type: ignore[index]
    assert "(line 6, column 1)" in lines[0]["error"]["message"]  # type: ignore[index]


@pytest.mark.parametrize("command", ["game", "group", "settle", "standings"])
def test_an_empty_document_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    status, lines = _run_stdin(monkeypatch, capsys, [command, "--json"], "\n  \n")
    assert status == 2
    assert lines[0]["error"]["code"] == "bad_json"  # type: ignore[index]
    assert "empty" in lines[0]["error"]["message"]  # type: ignore[index]


def test_settle_and_standings_take_the_contracts_pretty_printed_requests(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # CONTRACT.md's standings example spans two lines; each was read as a request of its
    # own (two bad_json lines, exit 2). JSON Lines still get a line each.
    text = (
        '{"ruleset": "jpml-a", "final_scores": {"E": 41200, "S": 31000, "W": 21300, "N": 5500},\n'
        ' "riichi_sticks_left": 1, "chombo": {"W": 1}}\n'
    )
    status, lines = _run_stdin(monkeypatch, capsys, ["standings", "--json"], text)
    assert status == 0
    assert lines[0]["standings"][0]["result"] == 19.2  # type: ignore[index]
    win = {"closed": "23m456p678s22m678p", "win_tile": "4m", "win": "ron", "seat_wind": "S"}
    settle = {"ruleset": "tenhou", "discarder": "W", "wins": [win]}
    status, lines = _run_stdin(
        monkeypatch, capsys, ["settle", "--json"], json.dumps(settle, indent=2)
    )
    assert status == 0 and lines[0]["outcome"] == "win"  # type: ignore[index]
    two = json.dumps(settle) + "\n" + '{"wins": 1}\n'
    status, lines = _run_stdin(monkeypatch, capsys, ["settle", "--json"], two)
    assert status == 2 and len(lines) == 2 and "error" in lines[1]


def test_json_lines_with_a_bad_first_line_still_answer_every_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    draw = json.dumps({"ruleset": "tenhou", "hands": [{"result": "draw", "tenpai": ["E"]}]})
    status, lines = _run_stdin(monkeypatch, capsys, ["game", "--json"], "{bad\n" + draw + "\n")
    assert status == 2
    assert lines[0]["error"]["code"] == "bad_json"  # type: ignore[index]
    assert lines[1]["hands"][0]["result"] == "draw"  # type: ignore[index]


def test_score_options_without_a_hand_are_refused_not_ignored(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `... | agari score --ruleset m-league` scored under tenhou, saying "no ruleset given".
    req = {"closed": "23m456p678s22m678p", "win_tile": "4m", "win": "ron", "discarder": "W"}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(req) + "\n"))
    assert main(["score", "--ruleset", "m-league", "--honba", "3"]) == 2
    err = capsys.readouterr().err
    assert "usage" in err and "--ruleset, --honba apply to a HAND" in err


def test_score_text_errors_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    # A script keeping stdout got error text among the scores.
    assert main(["score", "23m456p678s22m678p+4m", "--seat", "X"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "bad_seat" in err
    assert main(["score", "23m456p678s22m678p+4m", "--ron", "W", "--seat", "S"]) == 0
    assert "30 fu" in capsys.readouterr().out


def test_score_help_explains_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = capsys.readouterr().out
    for word in ("ankan:1111z", "kakan:", "daiminkan:", "0 is the red five", "nagashi_mangan"):
        assert word in text


def test_settle_answers_each_json_line_as_it_comes() -> None:
    """A caller keeping the pipe open gets each answer before sending the next request (the
    whole-document reading must not wait for the end of stdin)."""
    import select
    import subprocess
    import sys as _sys

    proc = subprocess.Popen(
        [_sys.executable, "-m", "webapp.cli", "standings", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        scores = {"E": 41200, "S": 31000, "W": 21300, "N": 6500}
        proc.stdin.write(json.dumps({"ruleset": "jpml-a", "final_scores": scores}) + "\n")
        proc.stdin.flush()
        # No answer within the time: it waits for the end of stdin.
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "no answer before the end of stdin"
        answer = json.loads(proc.stdout.readline())
        assert answer["standings"][0]["seat"] == "E"
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
