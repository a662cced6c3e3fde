"""The Flask app factory: ``create_app(test_config=None)``.

Configuration is layered like the Flask tutorial's: defaults here, then ``AGARI_*``
environment variables (``AGARI_MAX_IMAGE_PIXELS=20000000``), then the test overrides.
Features are blueprints listed in :data:`BLUEPRINTS`; another package adds its own by
appending one ``(module, attribute)`` pair, nothing else changes.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

from flask import Flask, Response, request

from webapp import errors, i18n
from webapp.images import MAX_IMAGE_PIXELS
from webapp.overlay import OverlayHub

#: Every blueprint of the app, imported lazily by name so that a feature's heavy imports
#: stay out of ``agari --help``. The table ledger (issue 10) adds its own line here.
BLUEPRINTS: list[tuple[str, str]] = [
    ("webapp.pages", "bp"),
    ("webapp.api", "bp"),
    ("webapp.overlay", "bp"),
    ("webapp.ledger.views", "bp"),
]

DEFAULTS: dict[str, Any] = {
    # Phone photos are a few MB; 25 MB leaves room for 12 MP PNGs and refuses abuse.
    "MAX_CONTENT_LENGTH": 25 * 1024 * 1024,
    "MAX_IMAGE_PIXELS": MAX_IMAGE_PIXELS,  # agari recognize's cap too (webapp.images)
    # Photos read at once (each up to ~120 MB decoded), and how long another waits its turn.
    "RECOGNIZE_CONCURRENCY": 2,
    # New ledger tables an hour from one address (anyone may create one).
    "LEDGER_CREATES_PER_HOUR": 60,
    "RECOGNIZE_WAIT_SECONDS": 30.0,
    # Overlay streams hold a server thread each (waitress is threaded), so both their
    # number and their life are bounded; browsers' EventSource reconnects by itself.
    "OVERLAY_MAX_STREAMS": 4,
    "OVERLAY_STREAM_SECONDS": 55.0,
    # A closed connection is noticed at the next heartbeat: its slot is held that long.
    "OVERLAY_HEARTBEAT_SECONDS": 5.0,
    "OVERLAY_STREAMS_PER_CLIENT": 2,
    "OVERLAY_STREAMS_PER_OVERLAY": 2,
    "OVERLAY_MAX_COUNT": 1000,
    "OVERLAY_MAX_PAYLOAD": 64 * 1024,
    "DEFAULT_RULESET": "tenhou",
    # Debug mode (the Werkzeug debugger runs code) is never on outside development.
    "DEBUG": False,
}

# A strict policy: every script and style is a file of ours, nothing is fetched elsewhere.
_CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"
)


def _security_headers(resp: Response) -> Response:
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "no-referrer")
    resp.headers.setdefault("Content-Security-Policy", _CSP)
    # The overlay is meant to be embedded (OBS, a streaming page); nothing else is.
    if not request.path.startswith("/overlay/"):
        resp.headers.setdefault("X-Frame-Options", "DENY")
    return resp


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``AGARI_*`` environment variables, then test overrides."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("AGARI")
    if test_config:
        app.config.update(test_config)

    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.extensions["agari.overlays"] = OverlayHub(
        max_overlays=int(app.config["OVERLAY_MAX_COUNT"]),
        max_streams=int(app.config["OVERLAY_MAX_STREAMS"]),
        streams_per_client=int(app.config["OVERLAY_STREAMS_PER_CLIENT"]),
        streams_per_overlay=int(app.config["OVERLAY_STREAMS_PER_OVERLAY"]),
    )
    app.extensions["agari.recognize_slots"] = threading.BoundedSemaphore(
        int(app.config["RECOGNIZE_CONCURRENCY"])
    )
    i18n.init_app(app)
    errors.init_app(app)
    for module_name, attr in BLUEPRINTS:
        app.register_blueprint(getattr(importlib.import_module(module_name), attr))
    app.after_request(_security_headers)
    return app
