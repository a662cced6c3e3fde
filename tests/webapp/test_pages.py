"""Pages: language choice, ruleset picker, security headers, bundled examples."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from scoring.ruleset import list_rulesets
from webapp.i18n import I18N_DIR, LANGUAGES
from webapp.pages import EXAMPLES_DIR


def test_home_offers_camera_upload_example_and_tiles(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'capture="environment"' in html
    assert 'accept="image/*"' in html
    assert 'href="/hand"' in html


def test_every_shipped_ruleset_is_in_the_picker(client: FlaskClient) -> None:
    html = client.get("/hand").get_data(as_text=True)
    for rid in list_rulesets():
        assert f'<option value="{rid}"' in html


@pytest.mark.parametrize(
    ("accept", "lang", "word"),
    [
        pytest.param("ja-JP,ja;q=0.9,en;q=0.5", "ja", "写真", id="ja"),
        pytest.param("ko-KR,ko;q=0.9", "ko", "사진", id="ko"),
        pytest.param("ru,en;q=0.4", "ru", "Сделать фото", id="ru"),
        pytest.param("fr-CH, fr;q=0.9", "fr", "Prendre une photo", id="fr"),
        pytest.param("zh-CN,zh;q=0.9", "zh", "拍照", id="zh"),
        pytest.param("de-DE", "en", "Take a photo", id="fallback_en"),
    ],
)
def test_language_follows_the_browser(
    client: FlaskClient, accept: str, lang: str, word: str
) -> None:
    html = client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert word in html


def test_language_switch_is_remembered(client: FlaskClient) -> None:
    resp = client.get("/?lang=ja", headers={"Accept-Language": "en"})
    assert "lang=ja" in resp.headers["Set-Cookie"]
    again = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="ja">' in again


def test_translations_only_use_known_keys() -> None:
    english = json.loads((I18N_DIR / "en.json").read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        table = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))
        for section, entries in table.items():
            # English shows the server's own message for an error code it does not name.
            if section.startswith("_") or section == "errors":
                continue
            unknown = set(entries) - set(english[section])
            assert not unknown, f"{lang}.json [{section}] has keys English lacks: {unknown}"
        # Every language names every contract yaku.
        assert set(table["yaku"]) >= set(english["yaku"]), lang


def test_every_error_the_page_names_is_named_in_every_language() -> None:
    """An error code some language names but another does not would show that other
    language's reader the server's English sentence (which the page shows below the
    language's own, as the detail)."""
    own = {
        lang: json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))["errors"]
        for lang in LANGUAGES
    }
    named = set().union(*own.values())
    assert {"not_an_image", "fifth_copy", "too_many_tiles", "empty_image"} <= named
    # The page's flag boxes can contradict each other or the hand: each such refusal
    # (scoring/context.py) is among the named.
    import re
    from pathlib import Path

    import scoring.context

    source = Path(scoring.context.__file__).read_text(encoding="utf-8")
    flag_codes = set(re.findall(r'\bbad\(\s*(?:f"\{flag\})?"?([a-z_]+)"', source))
    flag_codes = {c for c in flag_codes if not c.startswith("_")} | {
        f"{flag}_with_melds" for flag in ("tenhou", "chiihou", "renhou")
    }
    assert {"riichi_open_hand", "chiihou_not_nondealer_tsumo"} <= flag_codes
    assert not flag_codes - named, f"flag errors without a text: {flag_codes - named}"
    for lang, errors in own.items():
        assert not named - set(errors), f"{lang}: errors without a text: {named - set(errors)}"


def test_image_errors_name_every_accepted_format() -> None:
    """The upload takes HEIC (iPhone photos) beside JPEG, PNG and WebP: the messages that
    list the formats list it too, in every language."""
    from webapp.images import ACCEPTED_FORMATS

    assert "HEIF" in ACCEPTED_FORMATS
    for lang in LANGUAGES:
        errors = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))["errors"]
        for code in ("not_an_image", "unsupported_image"):
            if code in errors:
                for name in ("JPEG", "PNG", "WebP", "HEIC"):
                    assert name in errors[code], (lang, code, name)


def test_security_headers(client: FlaskClient) -> None:
    resp = client.get("/")
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["Referrer-Policy"] == "no-referrer"


def test_debug_is_off_by_default() -> None:
    from webapp import create_app

    assert create_app().debug is False


def test_example_photo_is_served_and_small(client: FlaskClient) -> None:
    photos = [p for p in EXAMPLES_DIR.iterdir() if p.suffix in (".jpg", ".png")]
    assert photos, "webapp/examples/ holds the example photo"
    for photo in photos:
        assert photo.stat().st_size < 500_000
        resp = client.get(f"/examples/{photo.name}")
        assert resp.status_code == 200
        assert resp.mimetype.startswith("image/")
        assert resp.get_data() == photo.read_bytes()
        resp.close()


@pytest.mark.parametrize("path", ["/examples/../app.py", "/examples/%2e%2e/app.py"])
def test_examples_cannot_leave_their_folder(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_every_label_the_pages_use_is_translated_to_english() -> None:
    """Labels named literally in templates and scripts all exist in en.json."""
    import re

    from webapp.i18n import table

    webapp = I18N_DIR.parent
    used: set[str] = set()
    for path in (webapp / "templates").glob("*.html"):
        used |= set(re.findall(r"\bt\('([a-z0-9_]+)'\)", path.read_text(encoding="utf-8")))
    for path in (webapp / "static").glob("*.js"):
        used |= set(re.findall(r'\bt\("([a-z0-9_]+)"[,)]', path.read_text(encoding="utf-8")))
    assert len(used) > 50
    missing = used - set(table("en")["ui"])
    assert not missing, f"labels without an English text: {sorted(missing)}"


def test_every_grouping_warning_has_a_short_label_in_every_language() -> None:
    """The page puts a short phrase next to each warned tile; a code with no label falls
    back to the API's English sentence, so each code the grouping emits needs one in each
    language's own file (``table`` would fill the gaps from English)."""
    import re
    from pathlib import Path

    from vision import grouping

    package = Path(grouping.__file__).parent
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(package.glob("*.py")))
    codes = set(re.findall(r'GroupingWarning\(\s*"([a-z_]+)"', source))
    assert len(codes) > 20
    # ... and those recognize adds after the grouping (recovery, a photo without colour).
    photo_path = "".join(p.read_text(encoding="utf-8") for p in sorted(package.parent.glob("*.py")))
    added = set(re.findall(r'"code": "([a-z_]+)"', photo_path))
    assert {"no_colour", "recovered_tile", "split_tile", "read_for_win"} <= added
    codes |= added
    _assert_labelled_everywhere(codes)


def test_every_score_warning_has_a_label_in_every_language() -> None:
    """The score's warnings are shown as the language's label, then the engine's English
    sentence: each code the scoring engine emits needs a label in each language's own file."""
    import re
    from pathlib import Path

    import scoring

    package = Path(scoring.__file__).parent
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(package.rglob("*.py")))
    codes = set(re.findall(r'warnings\.append\(\s*\(\s*"([a-z_]+)"', source)) | {"assumed"}
    assert {"ura_ignored", "kan_dora_missing", "pao_ignored"} <= codes
    _assert_labelled_everywhere(codes)


def _assert_labelled_everywhere(codes: set[str]) -> None:
    """Each warning code has a label in each language's own file (``table`` would fill the
    gaps from English)."""
    for lang in LANGUAGES:
        own = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))
        missing = codes - set(own.get("warnings", {}))
        assert not missing, f"{lang}: warning codes without a label: {sorted(missing)}"


@pytest.mark.parametrize("name", ["make_example.py", "example-hand.json"])
def test_only_the_example_photos_are_served(client: FlaskClient, name: str) -> None:
    # The folder also holds the script that made them and their truth: not for serving.
    assert (EXAMPLES_DIR / name).exists()
    assert client.get(f"/examples/{name}").status_code == 404
