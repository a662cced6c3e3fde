"""The pages in a real headless Chromium (Debian's ``chromium``) driven by Playwright.

The app runs under waitress, the production server, against the real scoring and vision
functions. Screenshots are saved under ``artifacts/webapp/`` (git-ignored) for a person to
look at: a phone-sized and a desktop-sized result page, and the overlay.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import scoring.api
from scoring.errors import AgariError
from scoring.ruleset import list_rulesets
from tests.webapp.browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    WAIT_MS,
    install_chromium,
    open_app,
    screenshot,
    wait_points,
)
from tests.webapp.conftest import LiveServer
from webapp import create_app

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "webapp" / "examples" / "example-hand.jpg"
EXAMPLE_TRUTH = REPO / "webapp" / "examples" / "example-hand.json"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 900}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    install_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    # Short overlay streams: the test ends even if a page keeps one open.
    app = create_app({"OVERLAY_STREAM_SECONDS": 15.0, "OVERLAY_HEARTBEAT_SECONDS": 1.0})
    with LiveServer(app) as live:
        yield live


def _points(req: dict[str, Any]) -> int | None:
    """What the real scoring function says (None for an error)."""
    try:
        return int(scoring.api.score(json.loads(json.dumps(req)))["points"])
    except AgariError:
        return None


def _tap_tiles(page: Any, tiles: list[str]) -> None:
    for tile in tiles:
        page.click(f"#palette-tiles [data-tile='{tile}']")


#: The example photo's hand (also the truth of webapp/examples/example-hand.json).
HAND_REQUEST: dict[str, Any] = {
    "ruleset": "tenhou",
    "closed": "6m234p406s",
    "win_tile": "6m",
    "win": "ron",
    "melds": [
        {"kind": "chi", "tiles": "345s", "from": "left"},
        {"kind": "chi", "tiles": "340p", "from": "left"},
    ],
    "round_wind": "E",
    "seat_wind": "S",
    "discarder": "N",
    "dora_indicators": ["2s"],
    "ura_indicators": [],
    "flags": [],
    "honba": 0,
    "riichi_sticks": 0,
}


def _other_ruleset(req: dict[str, Any], base: int) -> tuple[str, int]:
    """A shipped ruleset under which this hand scores a different number of points."""
    for rid in list_rulesets():
        points = _points(req | {"ruleset": rid})
        if points is not None and points != base:
            return rid, points
    pytest.fail(f"no shipped ruleset scores {req} differently from {base}")


def test_tap_a_hand_correct_a_tile_change_rules_and_watch_the_overlay(
    browser: Any, server: LiveServer
) -> None:
    page, errors = open_app(
        browser,
        f"{server.url}/hand",
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
    )

    # Enter the hand by tapping: two chi from the left, the concealed part, the winning
    # tile (chosen automatically once the concealed part is full), a dora indicator.
    for meld in HAND_REQUEST["melds"]:
        page.click("#add-meld")
        page.select_option("#melds .meld:last-child .meld-kind", "chi")
        _tap_tiles(page, [t + meld["tiles"][-1] for t in meld["tiles"][:-1]])
    page.click("#zone-closed .tile.add")
    _tap_tiles(page, ["6m", "2p", "3p", "4p", "4s", "0s", "6s", "6m"])
    page.click("#zone-dora .tile.add")
    _tap_tiles(page, ["2s"])
    page.click("#palette-done")
    tenhou = _points(HAND_REQUEST)
    assert tenhou is not None
    wait_points(page, tenhou)
    assert page.locator("#score-body [data-yaku='aka_dora']").count() == 1
    screenshot(page, "webapp", "phone-result-tenhou")

    # Another ruleset: the page asks the server again and shows that ruleset's score.
    rid, other = _other_ruleset(HAND_REQUEST, tenhou)
    page.select_option("#ruleset", rid)
    wait_points(page, other)

    # Correct a tile from the palette: the red five of sou becomes a plain five.
    page.click("#zone-closed [data-tile='0s']")
    page.wait_for_selector("#palette:not([hidden])")
    page.click("#palette-tiles [data-tile='5s']")
    corrected = HAND_REQUEST | {"ruleset": rid, "closed": "6m234p456s"}
    after = _points(corrected)
    assert after is not None and after != other
    wait_points(page, after)
    assert page.locator("#zone-closed [data-tile='0s']").count() == 0
    assert page.locator("#score-body [data-yaku='aka_dora']").count() == 1  # 0p in a chi
    screenshot(page, "webapp", "phone-result-corrected")

    # Regroup: the 2p becomes the winning tile and the old winning 6m goes back into the
    # concealed part; then a concealed tile goes into a new meld and back.
    page.click("#zone-closed [data-tile='2p']")
    page.click("#palette-make-win")
    assert page.locator("#zone-win [data-tile='2p']").count() == 1
    assert page.locator("#zone-closed [data-tile='6m']").count() == 2
    current = corrected | {"closed": "66m34p456s", "win_tile": "2p"}
    regrouped = _points(current)
    assert regrouped is not None
    wait_points(page, regrouped)
    page.click("#zone-closed [data-tile='4s']")
    page.click("#palette-to-meld")
    assert page.locator("#melds .meld").count() == 3
    page.click("#melds .meld:last-child [data-tile='4s']")
    page.click("#palette-to-closed")
    assert page.locator("#melds .meld").count() == 2
    assert page.locator("#zone-closed [data-tile='4s']").count() == 1
    wait_points(page, regrouped)

    # The overlay: created from the result page, opened like OBS would (no token).
    page.click("#overlay-create")
    link = page.locator("#overlay-link")
    link.wait_for(state="visible")
    overlay_url = link.get_attribute("href")
    assert overlay_url and "/overlay/" in overlay_url
    viewer = browser.new_context(viewport={"width": 1280, "height": 720})
    obs = viewer.new_page()
    obs.goto(overlay_url)
    obs.wait_for_function(
        "p => document.querySelector('#card-points').textContent === String(p)",
        arg=regrouped,
        timeout=WAIT_MS,
    )
    screenshot(obs, "webapp", "overlay-first")

    # A change on the result page reaches the overlay by itself.
    page.check("input[name='win'][value='tsumo']")
    tsumo_req = {k: v for k, v in current.items() if k != "discarder"} | {"win": "tsumo"}
    tsumo = _points(tsumo_req)
    assert tsumo is not None
    wait_points(page, tsumo)
    obs.wait_for_function(
        "p => document.querySelector('#card-points').textContent === String(p)",
        arg=tsumo,
        timeout=WAIT_MS,
    )
    assert int(obs.locator("#overlay").get_attribute("data-version") or 0) >= 2
    screenshot(obs, "webapp", "overlay-updated")
    viewer.close()
    page.context.close()
    assert errors == []


def test_upload_the_example_photo_and_correct_a_tile(browser: Any, server: LiveServer) -> None:
    if not any((REPO / "models").glob("*.onnx")):
        pytest.skip("no shipped detector model in models/ yet (issue 7)")
    page, errors = open_app(browser, server.url + "/", viewport=DESKTOP, locale="ja-JP")
    assert "写真" in page.inner_text("h1")  # the browser's language: Japanese

    # Keep the form's context field as the page sends it (Playwright shows no multipart body).
    page.evaluate(
        """() => { const send = window.fetch; window.fetch = (url, opts) => {
             if (opts && opts.body instanceof FormData)
               window.__sentContext = opts.body.get("context");
             return send(url, opts); }; }"""
    )
    with page.expect_response("**/api/v1/recognize", timeout=60_000) as answer:
        page.set_input_files("#upload-input", str(EXAMPLE))
    recognized = answer.value.json()
    # The upload carries the situation already picked (its ruleset reads red fives).
    sent = page.evaluate("() => window.__sentContext")
    picked = page.eval_on_selector("#ruleset", "el => el.value")
    assert picked and json.loads(sent)["ruleset"] == picked
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)
    assert len(recognized["detections"]) > 0
    boxes = page.locator("#boxes .box")
    assert boxes.count() > 0
    page.wait_for_function(
        "() => document.querySelector('#app').dataset.scoreSeq !== undefined", timeout=WAIT_MS
    )
    screenshot(page, "webapp", "desktop-photo-result")

    # Correct one concealed tile towards the truth (or, if all are right, change one and
    # change it back): each tap asks for a new score.
    truth = json.loads(EXAMPLE_TRUTH.read_text(encoding="utf-8"))["hand"]
    shown = page.locator("#zone-closed .tile:not(.add)")
    assert shown.count() > 0
    first = shown.nth(0).get_attribute("data-tile")
    target = "6m" if first != "6m" else "7m"
    seq = int(page.locator("#app").get_attribute("data-score-seq") or 0)
    shown.nth(0).click()
    if recognized.get("hand") and recognized.get("layout"):
        # The palette shows what the camera saw of the tile being corrected.
        page.wait_for_selector("#palette-crop:not([hidden])", timeout=WAIT_MS)
    screenshot(page, "webapp", "desktop-photo-palette")
    page.click(f"#palette-tiles [data-tile='{target}']")
    page.wait_for_function(
        "s => Number(document.querySelector('#app').dataset.scoreSeq) > s",
        arg=seq,
        timeout=WAIT_MS,
    )
    assert page.locator(f"#zone-closed [data-tile='{target}']").count() >= 1
    assert truth["win_tile"]  # the truth file is the generator's, for a person to compare
    screenshot(page, "webapp", "desktop-photo-corrected")
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    mobile = phone.new_page()
    mobile.goto(server.url + "/")
    mobile.set_input_files("#upload-input", str(EXAMPLE))
    mobile.wait_for_selector("#result:not([hidden])", timeout=60_000)
    screenshot(mobile, "webapp", "phone-photo-result")
    mobile.click("#photo-zoom")  # the photo at 2.5x, scrolled sideways, boxes still on it
    assert "zoomed" in (mobile.locator("#photo-wrap").get_attribute("class") or "")
    screenshot(mobile, "webapp", "phone-photo-zoomed")
    phone.close()
    page.context.close()
    assert errors == []


def test_home_page_and_language_switch(browser: Any, server: LiveServer) -> None:
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    page = phone.new_page()
    page.goto(server.url + "/")
    assert page.locator("#camera-input").get_attribute("capture") == "environment"
    screenshot(page, "webapp", "phone-home")
    page.click(".langs a[lang='ko']")
    page.wait_for_selector("html[lang='ko']")
    assert "사진" in page.inner_text("h1")
    page.goto(server.url + "/hand")  # the choice is remembered
    assert page.locator("html").get_attribute("lang") == "ko"
    # The script names yaku in the page's language too: pinfu and tanyao in Korean.
    page.click(".notation summary")
    page.fill("#notation", "234m456p234s55m67p 8p")
    page.click("#notation-form button")
    page.wait_for_selector("#score-body [data-yaku='pinfu']", timeout=WAIT_MS)
    names = page.inner_text("#score-body .yaku")
    assert "핑후" in names and "탕야오" in names

    # Other readings of the same tiles are listed, as many as the engine gives.
    req = {
        "ruleset": "tenhou",
        "closed": "111222333m456p5s",
        "win_tile": "5s",
        "win": "ron",
        "seat_wind": "S",
        "round_wind": "E",
        "discarder": "N",
        "flags": ["riichi"],
    }
    expected = scoring.api.score(dict(req))
    page.fill("#notation", "111222333m456p5s 5s")
    page.check("input[name='flags'][value='riichi']")
    page.click("#notation-form button")
    wait_points(page, expected["points"])
    assert page.locator("#score-body .alts .alt").count() == len(expected["alternatives"])
    phone.close()


def test_tile_notation_helpers_round_trip_in_the_browser(browser: Any, server: LiveServer) -> None:
    """tiles.js parses and prints MPSZ like scoring.notation does (every tile, red fives)."""
    page = browser.new_page()
    page.goto(server.url + "/hand")
    result = page.evaluate(
        """() => {
          const T = window.AgariTiles;
          const all = T.all();
          const bad = [];
          for (const s of ["5", "9z", "1x", "m", "12q"]) {
            try { T.parse(s); bad.push(s + " parsed"); } catch (e) { /* refused */ }
          }
          return {count: all.length, packed: T.pack(all), again: T.pack(T.parse(T.pack(all))),
                  example: T.parse("234m406p11z"), bad: bad};
        }"""
    )
    page.close()
    assert result["count"] == 37
    assert result["packed"] == "1234506789m1234506789p1234506789s1234567z"
    assert result["again"] == result["packed"]
    assert result["example"] == ["2m", "3m", "4m", "4p", "0p", "6p", "1z", "1z"]
    assert result["bad"] == []


def test_phone_palette_fits_and_a_language_switch_keeps_the_hand(
    browser: Any, server: LiveServer
) -> None:
    """On a phone the tile palette is a sheet inside the screen with its buttons reachable;
    removing the winning tile clears the sticky score bar; switching language keeps the
    photo, the corrected hand and the situation (it threw them away)."""
    if not any((REPO / "models").glob("*.onnx")):
        pytest.skip("no shipped detector model in models/ yet (issue 7)")
    page, errors = open_app(
        browser, server.url + "/?lang=en", viewport=PHONE, is_mobile=True, has_touch=True
    )
    page.set_input_files("#upload-input", str(EXAMPLE))
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)
    page.wait_for_selector("#points", timeout=WAIT_MS)
    page.fill("#honba", "2")
    page.wait_for_function("() => document.querySelector('#score-mini').textContent.includes('·')")
    # Tiles have spoken names, and a screen reader hears the short score line.
    labels = page.eval_on_selector_all(
        "#zone-closed .tile:not(.add)", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert "6 man" in labels and "red 5 sou" in labels, labels
    assert page.inner_text("#score-status") == page.inner_text("#score-mini")

    page.locator("#zone-closed .tile:not(.add)").nth(0).click()
    page.wait_for_timeout(400)  # the tile scrolls into view above the sheet
    page.screenshot(path=str(screenshot(page, "webapp", "phone-palette")))  # the viewport alone
    sheet = page.locator("#palette").bounding_box()
    done = page.locator("#palette-done").bounding_box()
    assert sheet and done
    assert sheet["y"] >= 0 and sheet["y"] + sheet["height"] <= PHONE["height"] + 1
    assert done["y"] + done["height"] <= PHONE["height"] + 1, "Done is off the screen"
    seq = int(page.locator("#app").get_attribute("data-score-seq") or 0)
    page.click("#palette-tiles [data-tile='7m']")
    corrected = page.eval_on_selector_all(
        "#zone-closed .tile:not(.add)", "els => els.map(e => e.dataset.tile)"
    )
    assert "7m" in corrected
    page.wait_for_function(
        "s => Number(document.querySelector('#app').dataset.scoreSeq) > s", arg=seq
    )
    # 7m for 6m breaks the example's win: the error is what the panel shows.
    shown = page.get_attribute("#score-body .score-error", "data-code")
    assert shown == "not_a_win"

    page.click(".langs a[lang='fr']")
    page.wait_for_selector("html[lang='fr']")
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
    assert (
        page.eval_on_selector_all(
            "#zone-closed .tile:not(.add)", "els => els.map(e => e.dataset.tile)"
        )
        == corrected
    )
    assert page.input_value("#honba") == "2"
    assert page.is_visible("#photo")
    page.wait_for_selector("#score-body .score-error[data-code='not_a_win']", timeout=WAIT_MS)

    # Back to a win, then no winning tile: the sticky bar says so, not the last score.
    page.locator("#zone-closed [data-tile='7m']").first.click()
    page.click("#palette-tiles [data-tile='6m']")
    page.wait_for_selector("#points", timeout=WAIT_MS)
    points = page.get_attribute("#points", "data-points") or ""
    assert points and points in page.inner_text("#score-mini")
    page.click("#zone-win .tile")
    page.click("#palette-remove")
    page.wait_for_function(
        "p => !document.querySelector('#score-mini').textContent.includes(p)", arg=points
    )
    assert page.inner_text("#score-mini") == page.inner_text("#score-body p.muted")
    screenshot(page, "webapp", "phone-after-language-switch")
    page.context.close()
    assert errors == []


def test_an_alternative_with_other_indicators_shows_them_and_a_tap_takes_it(
    browser: Any, server: LiveServer
) -> None:
    """A reading that differs from the photo's only in its indicators (the grouping offers
    the other likely dora) shows those indicators, or it would look the same; a tap on it
    puts them in the hand's dora zone."""
    if not any((REPO / "models").glob("*.onnx")):
        pytest.skip("no shipped detector model in models/ yet (issue 7)")
    page, errors = open_app(browser, server.url + "/", viewport=DESKTOP, locale="en-GB")

    # The photo's own reading, plus such an alternative (its dora 9m and 1p), as the page
    # receives it (a wrapped fetch: Playwright's route.fetch drops multipart bodies).
    page.evaluate(
        """() => { const send = window.fetch; window.fetch = async (url, opts) => {
             const answer = await send(url, opts);
             if (!String(url).includes("/api/v1/recognize")) return answer;
             const rec = await answer.clone().json();
             if (!rec.hand) return answer;
             rec.alternatives = [{hand_tiles: rec.hand_tiles, penalty: 0,
               hand: {...rec.hand, dora_indicators: ["9m", "1p"]}, changes: ["dora_indicators"]}];
             return new Response(JSON.stringify(rec),
               {status: answer.status, headers: {"Content-Type": "application/json"}}); }; }"""
    )
    page.set_input_files("#upload-input", str(EXAMPLE))
    page.wait_for_selector("#groupings-box:not([hidden])", timeout=60_000)
    shown = page.locator("#groupings .alt-indicators")
    assert shown.count() == 1
    assert shown.locator("svg").count() == 2  # the two offered dora indicators
    page.click("#groupings button.grouping")
    page.wait_for_function(
        "() => document.querySelectorAll('#zone-dora .tile:not(.add)').length === 2",
        timeout=WAIT_MS,
    )
    assert page.locator("#zone-dora [data-tile='9m']").count() == 1
    page.context.close()
    assert errors == []
