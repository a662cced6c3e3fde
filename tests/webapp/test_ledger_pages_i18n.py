"""The table ledger's pages speak the page's language and fit a phone.

Every user-visible word of ``templates/ledger/*.html`` goes through ``t()`` (a label in the
``ui`` section of ``webapp/i18n/<lang>.json``), and so do the status lines of the ledger's
scripts; each label they use is written in every language, not only in English. A browser
check at phone width (390 px) makes sure that no ledger page scrolls sideways and that
"Dealt in by" never defaults to the winner.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.webapp import ledger_fixtures as fx
from webapp.i18n import I18N_DIR, LANGUAGES

WEBAPP = I18N_DIR.parent
TEMPLATES = sorted((WEBAPP / "templates" / "ledger").glob("*.html"))
SCRIPTS = sorted((WEBAPP / "static" / "ledger").glob("*.js"))
PLAYERS = {"E": "Ayumi", "S": "Bao", "W": "Chloé", "N": "Dmitri"}

#: Text a template may show as it is: names, marks, and the overlay's Japanese scoreboard
#: terms (the stream overlay is Japanese-styled in every language).
ALLOWED_LITERALS = {"Agari", "#", "·", "←", "-", "*", ":", "本場", "供託", "終局", "局"}


def _own(lang: str) -> dict[str, Any]:
    return json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture
def ledger_app(tmp_path: Path) -> Iterator[Flask]:
    yield from fx.ledger_app(f"sqlite:///{tmp_path / 'l.db'}")


@pytest.fixture
def ledger_client(ledger_app: Flask) -> FlaskClient:
    return ledger_app.test_client()


def _new_table(client: FlaskClient, hands: list[dict[str, Any]]) -> str:
    resp = client.post("/api/v1/tables", json={"ruleset": "m-league", "players": PLAYERS})
    assert resp.status_code == 201
    body = resp.get_json()
    for hand in hands:
        r = client.post(
            f"/api/v1/tables/{body['id']}/entries",
            json=hand,
            headers={"Authorization": f"Bearer {body['token']}"},
        )
        assert r.status_code == 201, r.get_json()
    return str(body["id"])


def _visible_text(html: str) -> str:
    """What a reader sees of a page: no script, style, tags or JSON blobs."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html)


# --- templates: nothing English left outside t() ---------------------------------------------


def _template_literals(source: str) -> tuple[list[str], list[str]]:
    """The text and the user-visible attribute values a template writes literally, that is
    outside ``{{ }}``, ``{% %}`` and ``{# #}``."""
    source = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    source = re.sub(r"<(script|style)\b.*?</\1>", " ", source, flags=re.S)
    attrs = re.findall(r'\b(?:placeholder|title|aria-label|alt)="([^"]*)"', source)
    attrs = [a for a in attrs if "{" not in a]  # values built by Jinja are checked below
    # Words in a Jinja string ({{ "No such table" if ... }}) are shown as they are too.
    for expr in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", source, flags=re.S):
        for a, b in re.findall(r'"([^"]*)"|\'([^\']*)\'', expr):
            if re.search(r"[^\W\d_]{2,}\s+[^\W\d_]", a or b):
                attrs.append(a or b)
    source = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", source, flags=re.S)
    source = re.sub(r"<[^>]+>", " ", source, flags=re.S)
    texts = [w for w in re.split(r"\s+", source) if w]
    return texts, attrs


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_ledger_templates_write_no_literal_text(path: Path) -> None:
    texts, attrs = _template_literals(path.read_text(encoding="utf-8"))
    literal = [w for w in texts if w not in ALLOWED_LITERALS and re.search(r"[^\W\d_]", w)]
    assert not literal, f"{path.name}: text outside t(): {literal}"
    words = [a for a in attrs if re.search(r"[^\W\d_]", a)]
    assert not words, f"{path.name}: attribute or Jinja string outside t(): {words}"


def test_the_checker_catches_english_outside_t() -> None:
    texts, attrs = _template_literals(
        "<h1>{{ t('ledger_tables_title') }}</h1><p>No table yet.</p>"
        '<input placeholder="Final, table 3"><h2>{{ "No such table" if x else t("y") }}</h2>'
    )
    assert [w for w in texts if w not in ALLOWED_LITERALS] == ["No", "table", "yet."]
    assert attrs == ["Final, table 3", "No such table"]


def test_every_ledger_label_is_written_in_every_language() -> None:
    """Labels named in the ledger's templates and scripts exist in en.json and in each
    language's own file (a fallback to English would leave that page partly English)."""
    used: set[str] = set()
    for path in TEMPLATES:
        used |= set(re.findall(r"\bt\('([a-z0-9_]+)'\)", path.read_text(encoding="utf-8")))
    for path in SCRIPTS:
        used |= set(re.findall(r'\bt\("([a-z0-9_]+)"[,)]', path.read_text(encoding="utf-8")))
    # Labels a template builds from a prefix: the seats' winds and the abortive draws.
    used |= {f"wind_{s}" for s in "ESWN"}
    used |= {
        f"ledger_abort_{k}"
        for k in ("nine_terminals", "four_winds", "four_kans", "four_riichi", "triple_ron")
    }
    assert len(used) > 60
    for lang in LANGUAGES:
        own = _own(lang)["ui"]
        missing = sorted(used - set(own))
        assert not missing, f"{lang}.json lacks ledger labels: {missing}"
        blank = sorted(k for k in used if not str(own[k]).strip())
        assert not blank, f"{lang}.json has empty ledger labels: {blank}"


def test_placeholders_survive_translation() -> None:
    """A label with {seq}, {winners}... keeps the same placeholders in every language."""
    english = _own("en")["ui"]
    for lang in LANGUAGES:
        own = _own(lang)["ui"]
        for key, text in english.items():
            if key.startswith("ledger_") and key in own:
                want = set(re.findall(r"\{[a-z]+\}", text))
                got = set(re.findall(r"\{[a-z]+\}", own[key]))
                assert got == want, f"{lang}.json {key}: {got} != {want}"


def test_ledger_scripts_show_no_english_sentence() -> None:
    """The scripts' status lines are labels: no English sentence in a string literal."""
    for path in SCRIPTS:
        source = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        for literal in re.findall(r'"([^"\n]*)"|`([^`\n]*)`', source):
            text = "".join(literal)
            if text == "use strict":
                continue
            sentence = re.search(r"[A-Za-z]{2,}(?: [A-Za-z,.'?]+)+", text)
            assert not sentence, f"{path.name}: English text in a script: {text!r}"


# --- rendered pages ----------------------------------------------------------------------------

JA_TABLES = {
    "Create the table": "卓を作成",
    "Recent tables": "最近の卓",
    "Players by starting seat": "開始時の席順",
    "New table": "新しい卓",
}


def test_tables_page_in_japanese(ledger_client: FlaskClient) -> None:
    _new_table(ledger_client, [])
    html = ledger_client.get("/tables?lang=ja").get_data(as_text=True)
    text = _visible_text(html)
    for english, japanese in JA_TABLES.items():
        assert english not in text
        assert japanese in text
    assert '<html lang="ja">' in html
    assert "東" in text and "East" not in text


def test_tables_page_in_english_is_unchanged(ledger_client: FlaskClient) -> None:
    text = _visible_text(ledger_client.get("/tables?lang=en").get_data(as_text=True))
    for english in JA_TABLES:
        assert english in text


def test_table_page_in_japanese(ledger_client: FlaskClient) -> None:
    table_id = _new_table(
        ledger_client,
        [
            {"result": "win", "winner": "E", "from": "S", "points": 12000, "riichi": ["E"]},
            {"result": "draw", "tenpai": ["S", "W"]},
        ],
    )
    text = _visible_text(ledger_client.get(f"/tables/{table_id}?lang=ja").get_data(as_text=True))
    for english in (
        "Record a hand",
        "Dealt in by",
        "Undo hand",
        "Outcome",
        "Table token",
        "(dealer)",
        "No hand recorded",
        "ron:",
        "East 1",
    ):
        assert english not in text, english
    for japanese in ("局の結果を記録", "放銃者", "2件目の記録を取り消す", "卓のトークン", "(親)"):
        assert japanese in text, japanese
    assert "ロン:Ayumi(Baoから) · 立直 Ayumi" in text
    assert "東1局-1" in text and "流局 聴牌:Bao, Chloé" in text


def test_table_page_in_french_and_undo_button(ledger_client: FlaskClient) -> None:
    table_id = _new_table(ledger_client, [{"result": "chombo", "seat": "W"}])
    html = ledger_client.get(f"/tables/{table_id}?lang=fr").get_data(as_text=True)
    assert "Annuler la main 1" in html and "chombo : Chloé" in html
    assert re.search(r'<button[^>]*class="btn ledger-undo"[^>]*data-seq="1"', html)
    assert re.search(r'<button type="submit" class="btn primary">Enregistrer</button>', html)


def test_error_page_in_japanese(ledger_client: FlaskClient) -> None:
    resp = ledger_client.get("/tables/nope?lang=ja")
    assert resp.status_code == 404
    text = _visible_text(resp.get_data(as_text=True))
    assert "その卓はありません" in text and "No such table" not in text
    assert "(table_not_found)" in text  # the server's own words stay as the detail


def test_created_page_in_russian(ledger_client: FlaskClient) -> None:
    form = {"ruleset": "m-league", "title": "", **{f"player_{s}": n for s, n in PLAYERS.items()}}
    resp = ledger_client.post("/tables?lang=ru", data=form)
    assert resp.status_code == 201
    text = _visible_text(resp.get_data(as_text=True))
    assert "Стол создан" in text and "Table created" not in text
    assert "Открыть стол" in text


def test_overlay_page_has_the_icon(ledger_client: FlaskClient) -> None:
    table_id = _new_table(ledger_client, [])
    html = ledger_client.get(f"/tables/{table_id}/overlay").get_data(as_text=True)
    assert 'rel="icon"' in html and "favicon.svg" in html


# --- in a browser at phone width ---------------------------------------------------------------


@pytest.mark.browser
def test_phone_width_pages_do_not_scroll_sideways(ledger_app: Flask) -> None:
    from tests.webapp.browser_support import in_own_thread
    from tests.webapp.conftest import LiveServer

    with LiveServer(ledger_app) as live:
        in_own_thread(_phone_scenario, live.url)


def _phone_scenario(chromium: Any, url: str) -> None:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    wide = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

    page.goto(f"{url}/tables?lang=fr")
    assert page.evaluate(wide) <= 0
    # Each seat's label sits above its own field.
    for seat in "ESWN":
        field = page.locator(f"input[name='player_{seat}']").bounding_box()
        label = page.locator(f"label:has(input[name='player_{seat}'])").bounding_box()
        assert field and label and label["y"] < field["y"] and field["x"] >= label["x"]
    button = page.locator("form.ledger-create button[type='submit']").bounding_box()
    assert button and button["height"] >= 44
    page.fill("input[name='title']", "A long title " * 6)
    for seat, name in {"E": "Akagi Shigeru", "S": "Washizu", "W": "Saki", "N": "Nodoka"}.items():
        page.fill(f"input[name='player_{seat}']", name)
    page.click("form.ledger-create button[type='submit']")
    page.wait_for_selector("#ledger-new-token")
    assert page.evaluate(wide) <= 0
    page.click("a.button")
    page.wait_for_selector("#ledger-table")

    # "Dealt in by" is never the winner.
    assert page.input_value("select[name='from']") == "E"
    page.check("input[name='winner'][value='E']")
    assert page.input_value("select[name='from']") == "S"
    page.select_option("select[name='from']", "W")
    page.check("input[name='winner'][value='W']")
    assert page.input_value("select[name='from']") == "S"
    page.uncheck("input[name='winner'][value='W']")
    page.fill("input[name='points_E']", "12000")
    page.click("#ledger-entry button[type='submit']")
    page.wait_for_function("() => document.querySelectorAll('.ledger-history tbody tr').length")
    assert page.evaluate(wide) <= 0
    undo = page.locator(".ledger-undo").bounding_box()
    assert undo and undo["height"] >= 44 and undo["x"] + undo["width"] <= 390
    assert "Annuler la main 1" in page.inner_text(".ledger-undo")
    ctx.close()
    assert errors == []


def test_the_broadcast_overlay_names_the_round_in_kanji(ledger_client: FlaskClient) -> None:
    """The overlay card speaks the table's Japanese (本場, 供託, 終局): 東1局, not "East 1"."""
    table_id = _new_table(ledger_client, [])
    html = ledger_client.get(f"/tables/{table_id}/overlay").get_data(as_text=True)
    assert '<span id="ov-round">東1局</span>' in html
    assert "East 1" not in html
