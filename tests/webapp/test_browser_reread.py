"""The result page reads the photo again when the situation that shaped its reading changes.

A closed kan of fives holds its suit's red five face down under rules with red fives, and
is plain under rules without: switching the ruleset after the photo was read must change
the hand (and the unsure tiles' what-if scores), not score the old reading under new rules
(``red_five_not_in_ruleset``), and must keep every tile the user corrected by hand.

The photo path is the real one (upload, ``/recognize`` with the page's context, grouping,
``/group`` again from the page) except the detector: a stand-in returns fixed boxes of a
hand with a closed kan of 5m, so the test needs no model and always sees the same tiles.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import scoring.api
import vision.recognition
from datasets.classes import BACK, CLASS_NAMES
from tests.vision.grouping_layout import lay_out, to_detections
from tests.webapp.browser_support import in_own_thread, open_app, screenshot, wait_points
from tests.webapp.conftest import LiveServer
from tests.webapp.test_browser import DESKTOP, EXAMPLE
from vision.detections import Detections
from vision.image_io import Photo
from webapp import create_app

pytestmark = pytest.mark.browser

WAIT_MS = 20_000
WIDTH, HEIGHT = 1200, 1000
CONCEALED = ["1p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]
#: The unsure tile (the first 1p) and its runner-up class.
UNSURE, RUNNER_UP = "1p", "4p"
SITUATION: dict[str, Any] = {
    "win": "ron",
    "round_wind": "E",
    "seat_wind": "S",
    "discarder": "N",
    "flags": [],
    "honba": 0,
    "riichi_sticks": 0,
    "dora_indicators": [],
    "ura_indicators": [],
}


def _fixture_detections() -> Detections:
    """The hand 123p 789s 11z 22z + 2z and a closed kan of 5m (ends face down), the 1p
    unsure between 1p and 4p, as a detector's boxes with every class's score."""
    placed = lay_out(CONCEALED, "2z", [{"kind": "ankan", "tiles": ["5m"] * 4}])
    dets = to_detections(placed, centre=(WIDTH / 2, HEIGHT / 2))
    names = [BACK if d["tile"] == "x" else d["tile"] for d in dets]
    scores = np.zeros((len(dets), len(CLASS_NAMES)), dtype=np.float32)
    conf = np.full(len(dets), 0.95, dtype=np.float32)
    for k, name in enumerate(names):
        scores[k, CLASS_NAMES.index(name)] = 0.95
    unsure = names.index(UNSURE)
    conf[unsure] = scores[unsure, CLASS_NAMES.index(UNSURE)] = 0.45
    scores[unsure, CLASS_NAMES.index(RUNNER_UP)] = 0.35
    return Detections(
        np.array([d["box"] for d in dets]),
        conf,
        np.array([CLASS_NAMES.index(n) for n in names]),
        scores,
    )


def _fake_detect_photo(image: bytes, detector: Any = None, **_: Any) -> tuple[Photo, Any, bool]:
    return (
        Photo(np.zeros((HEIGHT, WIDTH, 3), np.uint8), WIDTH, HEIGHT),
        _fixture_detections(),
        False,
    )


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.recognition, "detect_photo", _fake_detect_photo)
        with LiveServer(create_app({"DEFAULT_RULESET": "tenhou"})) as live:
            yield live


def _points(ruleset: str, closed: str, kan: dict[str, Any], **situation: Any) -> int:
    """What the real scoring function gives the hand (it must be a scoring hand)."""
    req = SITUATION | situation | {"ruleset": ruleset, "closed": closed, "win_tile": "2z"}
    if req["win"] == "tsumo":
        req.pop("discarder")
    return int(scoring.api.score(json.loads(json.dumps(req | {"melds": [kan]})))["points"])


def _ankan(tiles: str) -> dict[str, Any]:
    return {"kind": "ankan", "tiles": tiles}


def _open(browser: Any, server: LiveServer) -> tuple[Any, Any, list[str]]:
    page, errors = open_app(browser, server.url + "/", viewport=DESKTOP, locale="en-GB")
    context = page.context
    page.set_input_files("#upload-input", str(EXAMPLE))
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
    return context, page, errors


def _seq(page: Any) -> int:
    return int(page.locator("#app").get_attribute("data-score-seq") or 0)


def _scored_after(page: Any, seq: int, points: int) -> None:
    """Wait for a score computed after ``seq`` and check it is ``points`` (not an error)."""
    page.wait_for_function(
        "s => Number(document.querySelector('#app').dataset.scoreSeq) > s", arg=seq, timeout=WAIT_MS
    )
    error = page.locator("#score-body .score-error")
    assert error.count() == 0, error.get_attribute("data-code")
    assert page.locator("#points").get_attribute("data-points") == str(points)


def _change(page: Any, action: Any, points: int) -> None:
    seq = _seq(page)
    action()
    _scored_after(page, seq, points)


def _kan(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#melds .meld .tile:not(.add)", "els => els.map(e => e.dataset.tile)"
    )


def _closed(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#zone-closed .tile:not(.add)", "els => els.map(e => e.dataset.tile)"
    )


def _candidate_points(page: Any) -> dict[str, str]:
    """Each candidate of the unsure tile and the points shown for it."""
    return page.eval_on_selector_all(
        ".candidate .cand",
        "els => Object.fromEntries(els.map(e => [e.dataset.tile,"
        " e.querySelector(':scope > span').textContent.split(' ')[0]]))",
    )


# Each scenario runs with a Playwright of its own in a thread of its own: the sync API
# allows one per thread, and test_browser.py keeps its own open for the whole session.
def test_changing_the_ruleset_reads_the_hidden_red_five_again(server: LiveServer) -> None:
    in_own_thread(_ruleset_change, server)


def test_a_hand_corrected_by_hand_keeps_the_corrections(server: LiveServer) -> None:
    in_own_thread(_corrected_hand, server)


def _ruleset_change(browser: Any, server: LiveServer) -> None:
    context, page, errors = _open(browser, server)
    red, plain = _ankan("0555m"), _ankan("5555m")
    tenhou = _points("tenhou", "123p789s1122z", red)
    wait_points(page, tenhou)
    # Read under Tenhou's rules: the kan's hidden five is the red one (aka dora).
    assert _kan(page) == ["0m", "5m", "5m", "5m"]
    assert page.locator("#score-body [data-yaku='aka_dora']").count() == 1
    assert _candidate_points(page) == {UNSURE: str(tenhou), RUNNER_UP: str(tenhou)}

    # EMA has no red fives: the photo is read again, the kan is plain, the score is EMA's
    # (no red_five_not_in_ruleset), and the page says what changed.
    ema = _points("ema", "123p789s1122z", plain)
    assert ema != tenhou
    _change(page, lambda: page.select_option("#ruleset", "ema"), ema)
    assert _kan(page) == ["5m", "5m", "5m", "5m"]
    assert page.locator("#score-body [data-yaku='aka_dora']").count() == 0
    note = page.locator("#reread-note")
    assert note.is_visible() and note.get_attribute("data-kind") == "updated"
    assert "0555m → 5555m" in note.inner_text()
    screenshot(page, "webapp", "desktop-reread-updated")
    # The unsure tile's what-if scores follow the new rules too.
    assert _candidate_points(page) == {UNSURE: str(ema), RUNNER_UP: str(ema)}

    # The other situation fields change the what-if scores (not the reading): tsumo.
    tsumo = _points("ema", "123p789s1122z", plain, win="tsumo")
    assert tsumo != ema
    _change(page, lambda: page.check("input[name='win'][value='tsumo']"), tsumo)
    assert _candidate_points(page) == {UNSURE: str(tsumo), RUNNER_UP: str(tsumo)}

    # Back to Tenhou: the red five is read again.
    back = _points("tenhou", "123p789s1122z", red, win="tsumo")
    _change(page, lambda: page.select_option("#ruleset", "tenhou"), back)
    assert _kan(page) == ["0m", "5m", "5m", "5m"]
    assert _candidate_points(page) == {UNSURE: str(back), RUNNER_UP: str(back)}
    context.close()
    assert errors == []


def _corrected_hand(browser: Any, server: LiveServer) -> None:
    context, page, errors = _open(browser, server)
    red, plain = _ankan("0555m"), _ankan("5555m")
    wait_points(page, _points("tenhou", "123p789s1122z", red))
    # The user corrects the unsure 1p: it is a 4p (scores the same; hence the wait for a
    # new score, not for new points).
    corrected = "234p789s1122z"
    tenhou = _points("tenhou", corrected, red)

    def correct() -> None:
        page.click(f"#zone-closed [data-tile='{UNSURE}']")
        page.click(f"#palette-tiles [data-tile='{RUNNER_UP}']")

    _change(page, correct, tenhou)

    # EMA: the kan the user left alone follows the new reading; the 4p stays.
    _change(page, lambda: page.select_option("#ruleset", "ema"), _points("ema", corrected, plain))
    assert sorted(_closed(page)) == sorted(
        ["4p", "2p", "3p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]
    )
    assert _kan(page) == ["5m", "5m", "5m", "5m"]
    note = page.locator("#reread-note")
    assert note.get_attribute("data-kind") == "merged"
    assert "0555m → 5555m" in note.inner_text()

    # Back to Tenhou, then the user says their hidden five is a plain one.
    _change(page, lambda: page.select_option("#ruleset", "tenhou"), tenhou)
    assert _kan(page) == ["0m", "5m", "5m", "5m"]

    def plain_five() -> None:
        page.click("#melds [data-tile='0m']")
        page.click("#palette-tiles [data-tile='5m']")

    own = _points("tenhou", corrected, plain)
    assert own != tenhou
    _change(page, plain_five, own)
    # EMA reads the kan as the user does; back under Tenhou the photo would read the red
    # five, but the user's plain five stays, is scored, and the page says so.
    _change(page, lambda: page.select_option("#ruleset", "ema"), _points("ema", corrected, plain))
    _change(page, lambda: page.select_option("#ruleset", "tenhou"), own)
    assert _kan(page) == ["5m", "5m", "5m", "5m"]
    assert "4p" in _closed(page) and UNSURE not in _closed(page)
    assert note.get_attribute("data-kind") == "kept"
    assert "5m → 0m" in note.inner_text()
    screenshot(page, "webapp", "desktop-reread-kept")

    # Asked to, the page takes the photo's reading there, and there only: the 4p stays.
    _change(page, lambda: page.click("#reread-use-photo"), tenhou)
    assert _kan(page) == ["0m", "5m", "5m", "5m"]
    assert "4p" in _closed(page) and UNSURE not in _closed(page)
    assert note.is_hidden()
    context.close()
    assert errors == []
