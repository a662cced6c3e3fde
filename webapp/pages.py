"""The pages: home (photo, example, or tiles by hand) and the result editor.

Both are one page whose script switches between the two views, so a photo never leaves the
browser except to ``/api/v1/recognize`` and the server keeps no upload. ``/hand`` opens the
editor directly, for a hand entered by tapping tiles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, render_template, send_from_directory

from webapp.api import ruleset_choices

bp = Blueprint("pages", __name__)

EXAMPLES_DIR = Path(__file__).with_name("examples")


def examples() -> list[str]:
    """The bundled example photos, by file name."""
    return sorted(
        p.name for p in EXAMPLES_DIR.glob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")
    )


def _render(view: str) -> str:
    return render_template(
        "index.html",
        view=view,
        rulesets=ruleset_choices(),
        default_ruleset=current_app.config["DEFAULT_RULESET"],
        examples=examples(),
    )


@bp.get("/")
def home() -> str:
    return _render("home")


@bp.get("/hand")
def hand() -> str:
    return _render("result")


@bp.get("/examples/<path:name>")
def example(name: str) -> Any:
    # The example photos only: the folder also holds the script that made them and their
    # truth, and whatever is put there later is not meant to be served.
    if name not in examples():
        abort(404)
    return send_from_directory(EXAMPLES_DIR, name, max_age=3600)
