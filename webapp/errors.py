"""Errors as JSON under ``/api/``: ``{"error": {"code", "message"}}`` with a 4xx status.

An :class:`AgariError` keeps its stable ``code``; its HTTP status is the class's
``http_status`` unless the code says more precisely what went wrong (an upload that is not
an image is 415, not a generic 400). Werkzeug's HTTP errors (404, 405, 413) get the same
JSON form under ``/api/``; pages keep Flask's HTML. Nothing ever answers with a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException, InternalServerError

from scoring.errors import AgariError

log = logging.getLogger(__name__)

#: Codes whose HTTP status differs from their class's default.
STATUS_BY_CODE: dict[str, int] = {
    "not_implemented": 501,
    "not_an_image": 415,
    "unsupported_image": 415,
    "too_large": 413,
    "too_many_pixels": 413,
    "unknown_overlay": 404,
    "bad_token": 403,
    "too_many_streams": 503,
}

#: Stable codes for Werkzeug's errors.
CODE_BY_STATUS: dict[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
}


def status_of(exc: AgariError) -> int:
    return STATUS_BY_CODE.get(exc.code, exc.http_status)


def error_response(code: str, message: str, status: int, **extra: Any) -> tuple[Response, int]:
    body: dict[str, Any] = {"code": code, "message": message, **extra}
    return jsonify({"error": body}), status


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.endswith("/events")


#: An error's message quotes the bad input (a tile string, a value): never more of it than this.
MAX_MESSAGE = 1000


def _agari_error(exc: AgariError) -> tuple[Response, int]:
    body = exc.to_dict()
    if len(body.get("message", "")) > MAX_MESSAGE:
        body["message"] = body["message"][:MAX_MESSAGE] + "…"
    return jsonify({"error": body}), status_of(exc)


def _http_error(exc: HTTPException) -> Any:
    if not _wants_json():
        return exc
    status = exc.code or 500
    message = exc.description or exc.name
    if status == 413:
        message = "the upload is larger than this server accepts"
    return error_response(CODE_BY_STATUS.get(status, f"http_{status}"), message, status)


def _unexpected(exc: Exception) -> Any:
    # A bug of ours: logged with its traceback for us, a plain JSON 500 for the client.
    log.exception("unhandled error on %s %s", request.method, request.path)
    if not _wants_json():
        return InternalServerError()
    return error_response("internal_error", "an unexpected error occurred", 500)


def init_app(app: Flask) -> None:
    app.register_error_handler(AgariError, _agari_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
