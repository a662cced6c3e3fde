"""Fixtures of the web app tests: the app, its test client, a live waitress server, images."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from tests.helpers import CONTRACT_SCORE_EXAMPLE
from webapp import create_app

#: A winning hand the scoring engine knows (CONTRACT.md's example): 3 han 30 fu, 3900.
SCORE_REQUEST: dict[str, Any] = CONTRACT_SCORE_EXAMPLE


@pytest.fixture
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def image_bytes(fmt: str = "JPEG", size: tuple[int, int] = (640, 480), **save: Any) -> bytes:
    """A small real photo-like image (a gradient, so JPEG has data to compress)."""
    img = Image.linear_gradient("L").resize(size).convert("RGB")
    buf = io.BytesIO()
    img.save(buf, fmt, **save)
    return buf.getvalue()


class LiveServer:
    """The app under waitress (the production server) on a free loopback port."""

    def __init__(self, app: Flask, threads: int = 8) -> None:
        from waitress.server import create_server

        self.server = create_server(app, host="127.0.0.1", port=0, threads=threads)
        self.port = int(self.server.effective_port)  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{self.port}"
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        try:
            self.server.run()
        except OSError:
            # close() runs on the test's thread and closes the listening socket while the
            # loop may be inside select() on it (an SSE stream keeps the loop running): the
            # EBADF that select() then raises is the shutdown, not a failure.
            if not self.closing.is_set():
                raise

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        self.server.close()
        self.server.task_dispatcher.shutdown(timeout=5)  # type: ignore[union-attr]
        self.thread.join(timeout=5)
        # Connections a browser kept alive are still open here: closed now, not by the
        # garbage collector during a later test (a ResourceWarning that failed that test).
        for channel in list(getattr(self.server, "_map", {}).values()):
            channel.close()


@pytest.fixture
def live_server() -> Iterator[LiveServer]:
    app = create_app({"OVERLAY_STREAM_SECONDS": 20.0, "OVERLAY_HEARTBEAT_SECONDS": 1.0})
    with LiveServer(app) as server:
        yield server
