"""The JSON API under ``/api/v1``: the CONTRACT.md commands over HTTP.

Every view parses, calls ``scoring.api`` or ``vision.api``, and returns what it got; the
request and response bodies are exactly those of ``agari <command> --json``. Errors are
raised as :class:`AgariError` and answered by :mod:`webapp.errors`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request

import scoring.api
import vision.api
from scoring.errors import AgariError, RequestError, parse_json
from scoring.ruleset import list_rulesets, load_ruleset
from webapp.images import check_image
from webapp.openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api/v1")

#: A JSON request's most: a score request is about 1 KB, a group request of a whole table's
#: boxes (hundreds of tiles, each with candidates) under 100 KB.
MAX_JSON_BYTES = 512 * 1024


def refuse_body_over(max_bytes: int) -> None:
    """``too_large`` (413) for a body declared over ``max_bytes``, before any of it is read:
    the app's own cap (25 MB) is for photos, and a JSON request of megabytes only costs
    parsing time (a list of millions of indicators)."""
    if (request.content_length or 0) > max_bytes:
        raise RequestError(f"the body is over {max_bytes} bytes", code="too_large")


def json_body(max_bytes: int = MAX_JSON_BYTES) -> dict[str, Any]:
    """The request body (at most ``max_bytes``) as a JSON object, whatever the declared
    content type."""
    refuse_body_over(max_bytes)
    body = parse_json(request.get_data(cache=True), what="the body")
    if not isinstance(body, dict):
        raise RequestError(
            f"the body must be a JSON object, not {type(body).__name__}", code="bad_request"
        )
    return body


@bp.post("/score")
def score() -> Any:
    return jsonify(scoring.api.score(json_body()))


@bp.post("/settle")
def settle() -> Any:
    return jsonify(scoring.api.settle(json_body()))


@bp.post("/standings")
def standings() -> Any:
    return jsonify(scoring.api.standings(json_body()))


@bp.post("/group")
def group() -> Any:
    return jsonify(vision.api.group(json_body()))


@bp.post("/recognize")
def recognize() -> Any:
    extra = (set(request.files) | set(request.form)) - {"photo", "context"}
    if extra:
        raise RequestError(
            f"unknown form fields {sorted(extra)}; send 'photo' and optionally 'context'",
            code="unknown_field",
        )
    upload = request.files.get("photo")
    if upload is None:
        raise RequestError(
            "send the photo as multipart/form-data in the field 'photo'", code="missing_photo"
        )
    context = vision.api.context_from_json(request.form.get("context"), what="the context field")
    # A photo decoded costs up to ~120 MB and a second or more of CPU: only so many at once
    # (six tiny 40 MP PNGs at a time held 3 GB); the others wait a while, then hear 503.
    slots = current_app.extensions["agari.recognize_slots"]
    if not slots.acquire(timeout=float(current_app.config["RECOGNIZE_WAIT_SECONDS"])):
        exc = AgariError("the server is reading other photos; retry in a moment", code="busy")
        exc.http_status = 503
        raise exc
    try:
        checked = check_image(upload.read(), max_pixels=int(current_app.config["MAX_IMAGE_PIXELS"]))
        return jsonify(vision.api.recognize(checked.data, context=context))
    finally:
        slots.release()


def ruleset_choices() -> list[dict[str, str]]:
    """Every shipped ruleset's id and name; one that fails to load is listed by id only,
    so that a broken file shows up as an error when picked instead of hiding the others."""
    items = []
    for rid in list_rulesets():
        try:
            name = load_ruleset(rid).name
        except AgariError:
            name = rid
        items.append({"id": rid, "name": name})
    return items


@bp.get("/rulesets")
def rulesets() -> Any:
    return jsonify({"rulesets": ruleset_choices()})


@bp.get("/openapi.json")
def openapi() -> Any:
    return jsonify(openapi_document())


@bp.get("/docs")
def docs() -> str:
    return render_template("docs.html", doc=openapi_document())
