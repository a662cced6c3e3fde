"""The Flask app factory: ``create_app(test_config=None)``."""

from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``AGARI_*`` environment variables, then test overrides."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        # Phone photos are a few MB; 25 MB leaves room for 12 MP PNGs and refuses abuse.
        MAX_CONTENT_LENGTH=25 * 1024 * 1024,
    )
    app.config.from_prefixed_env("AGARI")
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def home() -> str:
        return "<!doctype html><title>Agari</title><h1>Agari</h1><p>Photo to score.</p>"

    return app
