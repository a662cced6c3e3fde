"""The streamer overlay: a result page publishes a scored hand, OBS shows it live.

``POST /api/v1/overlays`` creates an overlay and answers its id and a secret token (shown
once, kept only as a hash). ``POST /api/v1/overlays/<id>/publish`` with
``Authorization: Bearer <token>`` replaces what the overlay shows; ``/overlay/<id>`` is the
page for OBS and ``/overlay/<id>/events`` its Server-Sent Events stream, both open to anyone
who knows the id.

Waitress runs each request in a worker thread and a stream holds its thread, so
:class:`OverlayHub` is a small thread-safe latest-value store with a condition variable,
streams are limited in number and in life (the browser's ``EventSource`` reconnects by
itself and gets the latest card at once), and a heartbeat notices closed connections.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)

from scoring.errors import AgariError, RequestError
from webapp.api import json_body
from webapp.limits import RecentEvents

bp = Blueprint("overlay", __name__)

PUBLISH_FIELDS = frozenset({"hand", "score", "title", "lang"})


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


@dataclass
class _Overlay:
    token_hash: bytes
    version: int = 0
    payload: str | None = None
    used: float = 0.0  # time.monotonic() of its creation, last card or last viewer


class OverlayHub:
    """Overlays and their latest card, shared by every worker thread of one process.

    Anyone may create an overlay and watch one, so neither may crowd out a streamer's: a
    full store forgets the overlay used longest ago, never one used within ``keep_seconds``
    (creating then answers ``too_many_overlays``); one client (address) may create
    ``creates_per_client`` overlays in ``keep_seconds`` and hold ``streams_per_client``
    streams, one overlay ``streams_per_overlay`` (OBS and a preview), all together
    ``max_streams``.
    """

    def __init__(
        self,
        *,
        max_overlays: int = 1000,
        max_streams: int = 4,
        streams_per_client: int = 2,
        streams_per_overlay: int = 2,
        keep_seconds: float = 6 * 3600.0,
        creates_per_client: int = 60,
    ) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._overlays: OrderedDict[str, _Overlay] = OrderedDict()  # least recently used first
        self._max_overlays = max_overlays
        self._max_streams = max_streams
        self._per_client = streams_per_client
        self._per_overlay = streams_per_overlay
        self._keep = keep_seconds
        self._streams = 0
        self._client_streams: dict[str, int] = {}
        self._overlay_streams: dict[str, int] = {}
        self._creations = RecentEvents(most=creates_per_client, window=keep_seconds)

    def _touch(self, overlay_id: str, overlay: _Overlay) -> None:
        overlay.used = time.monotonic()
        self._overlays.move_to_end(overlay_id)

    def create(self, client: str = "") -> tuple[str, str]:
        """A new overlay's ``(id, token)``. A full store forgets the overlay used longest
        ago, unless even that one was used within ``keep_seconds``: then, as when ``client``
        created too many lately, :class:`AgariError` ``too_many_overlays``."""
        overlay_id = secrets.token_urlsafe(9)
        token = secrets.token_urlsafe(24)
        now = time.monotonic()
        with self._lock:
            if self._creations.full(client):
                raise AgariError(
                    "too many overlays were created from here lately; use one you have",
                    code="too_many_overlays",
                )
            if len(self._overlays) >= self._max_overlays:
                oldest_id, oldest = next(iter(self._overlays.items()))
                if now - oldest.used < self._keep:
                    raise AgariError(
                        "every overlay is in use; retry later", code="too_many_overlays"
                    )
                del self._overlays[oldest_id]
            self._overlays[overlay_id] = _Overlay(_digest(token), used=now)
            self._creations.add(client)  # counted once created, not when refused
        return overlay_id, token

    def _get(self, overlay_id: str) -> _Overlay:
        overlay = self._overlays.get(overlay_id)
        if overlay is None:
            raise AgariError(f"no overlay {overlay_id!r}", code="unknown_overlay")
        return overlay

    def exists(self, overlay_id: str) -> bool:
        with self._lock:
            return overlay_id in self._overlays

    def publish(self, overlay_id: str, token: str, payload: str) -> int:
        """Replace the overlay's card (JSON text); wakes every stream. Returns the version."""
        with self._lock:
            overlay = self._get(overlay_id)
            if not hmac.compare_digest(overlay.token_hash, _digest(token)):
                raise AgariError("wrong or missing overlay token", code="bad_token")
            overlay.version += 1
            overlay.payload = payload
            self._touch(overlay_id, overlay)
            self._changed.notify_all()
            return overlay.version

    def wait(self, overlay_id: str, seen: int, timeout: float) -> tuple[int, str | None]:
        """The latest ``(version, payload)`` once it is newer than ``seen``, or after
        ``timeout`` seconds whatever it is."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                overlay = self._get(overlay_id)
                left = deadline - time.monotonic()
                if overlay.version != seen or left <= 0:
                    return overlay.version, overlay.payload
                self._changed.wait(left)

    def acquire_stream(self, overlay_id: str = "", client: str = "") -> None:
        """Count one more open stream of ``overlay_id`` for ``client``, or refuse when a
        limit is reached (all streams, this client's, this overlay's)."""
        with self._lock:
            full = (
                self._streams >= self._max_streams
                or self._client_streams.get(client, 0) >= self._per_client
                or self._overlay_streams.get(overlay_id, 0) >= self._per_overlay
            )
            if full:
                raise AgariError(
                    "too many overlay streams are open; retry in a few seconds",
                    code="too_many_streams",
                )
            self._streams += 1
            self._client_streams[client] = self._client_streams.get(client, 0) + 1
            self._overlay_streams[overlay_id] = self._overlay_streams.get(overlay_id, 0) + 1
            overlay = self._overlays.get(overlay_id)
            if overlay is not None:
                self._touch(overlay_id, overlay)

    def release_stream(self, overlay_id: str = "", client: str = "") -> None:
        with self._lock:
            self._streams -= 1
            pairs = ((self._client_streams, client), (self._overlay_streams, overlay_id))
            for counts, key in pairs:
                counts[key] = counts.get(key, 1) - 1
                if counts[key] <= 0:
                    del counts[key]

    @property
    def open_streams(self) -> int:
        with self._lock:
            return self._streams


def hub() -> OverlayHub:
    return current_app.extensions["agari.overlays"]  # type: ignore[no-any-return]


def _bearer_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _client() -> str:
    """Who is asking, for the per-client limits: the peer's address (behind a proxy, set
    up werkzeug's ProxyFix so that this is the client's, not the proxy's)."""
    return request.remote_addr or ""


@bp.post("/api/v1/overlays")
def create() -> Any:
    overlay_id, token = hub().create(_client())
    url = url_for("overlay.page", overlay_id=overlay_id, _external=True)
    return jsonify({"id": overlay_id, "token": token, "url": url}), 201


@bp.post("/api/v1/overlays/<overlay_id>/publish")
def publish(overlay_id: str) -> Any:
    body = json_body(max_bytes=int(current_app.config["OVERLAY_MAX_PAYLOAD"]))  # a card
    unknown = set(body) - PUBLISH_FIELDS
    if unknown:
        raise RequestError(f"unknown fields {sorted(unknown)}", code="unknown_field")
    if not all(isinstance(body.get(k, {}), dict) for k in ("hand", "score")):
        raise RequestError("'hand' and 'score' must be objects", code="bad_request")
    if not all(isinstance(body.get(k, ""), str) for k in ("title", "lang")):
        raise RequestError("'title' and 'lang' must be strings", code="bad_request")
    payload = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    version = hub().publish(overlay_id, _bearer_token(), payload)
    return jsonify({"version": version})


@bp.get("/overlay/<overlay_id>")
def page(overlay_id: str) -> Any:
    if not hub().exists(overlay_id):
        abort(404)
    return render_template("overlay.html", overlay_id=overlay_id)


@bp.get("/overlay/<overlay_id>/events")
def events(overlay_id: str) -> Response:
    cfg = current_app.config
    the_hub = hub()
    if not the_hub.exists(overlay_id):  # as JSON, before any stream starts
        raise AgariError(f"no overlay {overlay_id!r}", code="unknown_overlay")
    client = _client()
    the_hub.acquire_stream(overlay_id, client)
    stream = _EventStream(
        the_hub,
        overlay_id,
        client,
        lifetime=float(cfg["OVERLAY_STREAM_SECONDS"]),
        heartbeat=float(cfg["OVERLAY_HEARTBEAT_SECONDS"]),
    )
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(stream, mimetype="text/event-stream", headers=headers)


class _EventStream:
    """The SSE body. The server calls ``close()`` when the stream ends or the client goes,
    even if iteration never started, which is where the stream's slot is given back."""

    def __init__(
        self,
        the_hub: OverlayHub,
        overlay_id: str,
        client: str,
        *,
        lifetime: float,
        heartbeat: float,
    ) -> None:
        self._hub = the_hub
        self._overlay_id = overlay_id
        self._client = client
        self._events = _events(the_hub, overlay_id, lifetime=lifetime, heartbeat=heartbeat)
        self._released = False
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[str]:
        return self._events

    def close(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
        self._events.close()
        self._hub.release_stream(self._overlay_id, self._client)


def _events(
    the_hub: OverlayHub, overlay_id: str, *, lifetime: float, heartbeat: float
) -> Iterator[str]:
    seen = -1
    end = time.monotonic() + lifetime
    yield "retry: 1500\n\n"
    while (left := end - time.monotonic()) > 0:
        try:
            version, payload = the_hub.wait(overlay_id, seen, min(heartbeat, left))
        except AgariError:
            yield "event: gone\ndata: {}\n\n"
            return
        if version != seen and payload is not None:
            yield f"id: {version}\nevent: card\ndata: {payload}\n\n"
        else:
            yield ": keep-alive\n\n"
        seen = version
