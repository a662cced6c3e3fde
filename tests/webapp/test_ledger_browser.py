"""The ledger's pages in a real headless Chromium (Debian's ``chromium``, Playwright).

A referee creates a table, records hands with the table page's form, undoes one, and
records a win from the result page's "Table ledger" panel; an OBS-like viewer watches the
table's overlay follow every change by itself. Screenshots go to ``artifacts/ledger/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.webapp.browser_support import WAIT_MS, in_own_thread, screenshot
from tests.webapp.conftest import LiveServer
from webapp import create_app

pytestmark = pytest.mark.browser

PLAYERS = {"E": "Ayumi", "S": "Bao", "W": "Chloé", "N": "Dmitri"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    app = create_app({"LEDGER_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite3'}"})
    with LiveServer(app) as live:
        yield live
    app.extensions["agari.ledger"].dispose()


def _scores(page: Any) -> list[int]:
    return [int(x) for x in page.locator(".ledger-scores tbody td.num").all_inner_texts()[:4]]


def _wait_overlay(obs: Any, seat: str, score: int) -> None:
    obs.wait_for_function(
        "([seat, score]) => document.querySelector(`.ov-row[data-seat='${seat}'] .ov-score`)"
        ".textContent === String(score)",
        arg=[seat, score],
        timeout=WAIT_MS,
    )


def test_referee_records_undoes_and_the_overlay_follows(server: LiveServer) -> None:
    in_own_thread(_referee_scenario, server)


def _referee_scenario(chromium: Any, server: LiveServer) -> None:
    referee = chromium.new_context(viewport={"width": 1200, "height": 1000}, locale="en-GB")
    page = referee.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())

    # Create the table; the token is shown once and kept by this browser.
    page.goto(f"{server.url}/tables")
    page.fill("input[name='title']", "Final")
    page.select_option("select[name='ruleset']", "m-league")
    for seat, name in PLAYERS.items():
        page.fill(f"input[name='player_{seat}']", name)
    page.click("form.ledger-create button[type='submit']")
    token = page.locator("#ledger-new-token").inner_text().strip()
    assert len(token) >= 43
    page.click("a.button")
    page.wait_for_selector("#ledger-table")
    table_url = page.url
    assert token not in table_url
    assert page.input_value("#ledger-token") == token  # from localStorage

    viewer = chromium.new_context(viewport={"width": 800, "height": 400})
    obs = viewer.new_page()
    obs.goto(f"{table_url}/overlay")
    _wait_overlay(obs, "E", 25000)

    # Hand 1: Ayumi (dealer) riichi, ron off Bao for 12000.
    page.select_option("select[name='result']", "ron")
    page.check("input[name='winner'][value='E']")
    page.fill("input[name='points_E']", "12000")
    page.select_option("select[name='from']", "S")
    page.check("input[name='riichi'][value='E']")
    page.click("#ledger-entry button[type='submit']")
    page.wait_for_function(
        "() => document.querySelectorAll('.ledger-history tbody tr').length === 1"
    )
    assert _scores(page) == [37000, 13000, 25000, 25000]
    _wait_overlay(obs, "E", 37000)

    # Hand 2: a draw, Bao and Chloé tenpai, Chloé riichi.
    page.select_option("select[name='result']", "draw")
    page.check("input[name='tenpai'][value='S']")
    page.check("input[name='tenpai'][value='W']")
    page.check("input[name='riichi'][value='W']")
    page.click("#ledger-entry button[type='submit']")
    page.wait_for_function(
        "() => document.querySelectorAll('.ledger-history tbody tr').length === 2"
    )
    assert _scores(page) == [35500, 14500, 25500, 23500]
    _wait_overlay(obs, "W", 25500)
    screenshot(page, "ledger", "table-two-hands")
    screenshot(obs, "ledger", "overlay-two-hands")

    # Undo hand 2: back to the scores after hand 1, on the page and on the overlay.
    page.click(".ledger-undo")
    page.wait_for_function(
        "() => document.querySelectorAll('.ledger-history tbody tr').length === 1"
    )
    assert _scores(page) == [37000, 13000, 25000, 25000]
    _wait_overlay(obs, "W", 25000)

    # The result page: a hand typed in notation, Bao (seat wind South) ron off Chloé (West);
    # pinfu tanyao iipeikou 3 han 30 fu = 3900, plus the table's honba (1) under m-league.
    table_id = table_url.rstrip("/").rsplit("/", 1)[1]
    result = referee.new_page()
    result.on("pageerror", lambda exc: errors.append(str(exc)))
    result.goto(f"{server.url}/hand")
    result.wait_for_selector("#app[data-ready='1']")
    result.click("details.notation summary")
    result.fill("#notation", "223344m567p66s78s 6s")
    result.click("#notation-form button[type='submit']")
    result.select_option("#seat-wind", "S")
    result.select_option("#discarder", "W")
    result.wait_for_selector("#ledger-record-win:not([disabled])", timeout=WAIT_MS)
    result.fill("#ledger-table-id", table_id)
    assert result.input_value("#ledger-table-token") == token  # kept by this browser
    result.click("#ledger-record-win")
    result.wait_for_function(
        "() => document.querySelector('#ledger-record-status').textContent !== ''",
        timeout=WAIT_MS,
    )
    assert "recorded as hand 2 (E1-1)" in result.inner_text("#ledger-record-status")
    _wait_overlay(obs, "S", 13000 + 4200)
    _wait_overlay(obs, "W", 25000 - 4200)
    screenshot(result, "ledger", "result-page-recorded")
    screenshot(obs, "ledger", "overlay-after-result-page")

    # Back on the table page: a non-dealer tsumo typed as "700-1300" (East 2, S deals).
    page.reload()
    page.select_option("select[name='result']", "tsumo")
    page.check("input[name='winner'][value='N']")
    page.fill("input[name='points_N']", "700-1300")
    page.click("#ledger-entry button[type='submit']")
    page.wait_for_function(
        "() => document.querySelectorAll('.ledger-history tbody tr').length === 3"
    )
    assert _scores(page) == [36300, 15900, 20100, 27700]
    # M.League has no abortive draw: the replay's refusal is shown and nothing is stored.
    page.select_option("select[name='result']", "abortive")
    page.select_option("select[name='kind']", "four_winds")
    page.click("#ledger-entry button[type='submit']")
    page.wait_for_function(
        "() => document.querySelector('#ledger-message').textContent.includes('illegal_hand')"
    )
    # A chombo: recorded, no payment under M.League (20 off the final result).
    page.select_option("select[name='result']", "chombo")
    page.select_option("select[name='seat']", "W")
    page.click("#ledger-entry button[type='submit']")
    page.wait_for_function(
        "() => document.querySelectorAll('.ledger-history tbody tr').length === 4"
    )
    assert _scores(page) == [36300, 15900, 20100, 27700]
    _wait_overlay(obs, "N", 27700)
    screenshot(page, "ledger", "table-four-hands")

    # Without the token nothing changes: a second browser without it is refused.
    stranger = chromium.new_context().new_page()
    stranger.goto(table_url)
    stranger.select_option("select[name='result']", "draw")
    stranger.click("#ledger-entry button[type='submit']")
    stranger.wait_for_function(
        "() => document.querySelector('#ledger-message').textContent.includes('token_required')"
    )
    assert len(page.context.pages) >= 1
    page.reload()
    assert page.locator(".ledger-history tbody tr").count() == 4
    viewer.close()
    referee.close()
    assert errors == []
