"""Languages of the pages: labels and yaku names in ``webapp/i18n/<lang>.json``.

The language is, in order: ``?lang=xx`` (remembered in a cookie), the ``lang`` cookie, the
browser's ``Accept-Language``, English. A missing key falls back to English, so a partly
translated language still shows every label. The same tables are handed to the page's
script, which names yaku and fu items in the chosen language.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, request

I18N_DIR = Path(__file__).with_name("i18n")
#: Shown in the language switcher in this order, each in its own language.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ja": "日本語",
    "zh": "中文",
    "ko": "한국어",
    "ru": "Русский",
    "fr": "Français",
}
DEFAULT = "en"
COOKIE = "lang"


@cache
def table(lang: str) -> dict[str, Any]:
    """The language's table merged over English (sections ``ui``, ``yaku``, ``fu``...)."""
    base = json.loads((I18N_DIR / f"{DEFAULT}.json").read_text(encoding="utf-8"))
    if lang == DEFAULT:
        return base
    own = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    merged: dict[str, Any] = {}
    for section, entries in base.items():
        merged[section] = (
            {**entries, **own.get(section, {})} if isinstance(entries, dict) else entries
        )
    return merged


def pick_language() -> str:
    asked = request.args.get("lang") or request.cookies.get(COOKIE)
    if asked in LANGUAGES:
        return asked
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT) or DEFAULT


def _before() -> None:
    g.lang = pick_language()


def _remember(resp: Response) -> Response:
    asked = request.args.get("lang")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        resp.set_cookie(COOKIE, asked, max_age=365 * 86400, samesite="Lax")
    return resp


def translate(key: str) -> str:
    """The label ``key`` in the request's language (the key itself if nobody wrote it)."""
    return str(table(g.get("lang", DEFAULT))["ui"].get(key, key))


def init_app(app: Flask) -> None:
    app.before_request(_before)
    app.after_request(_remember)
    app.jinja_env.globals.update(
        t=translate,
        languages=LANGUAGES,
        i18n_table=lambda: table(g.get("lang", DEFAULT)),
    )
