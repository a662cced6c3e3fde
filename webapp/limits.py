"""Per-client limits of what anyone may do without a token (create a table, an overlay):
how many times each client did it within a window of time."""

from __future__ import annotations

import threading
import time


class RecentEvents:
    """Each key's events (a client's address: its creations) in the last ``window`` seconds,
    against ``most`` of them.

    >>> limit = RecentEvents(most=2, window=3600)
    >>> limit.take("a"), limit.take("a"), limit.take("a"), limit.take("b")
    (True, True, False, True)
    """

    def __init__(self, *, most: int, window: float) -> None:
        self._most = most
        self._window = window
        self._lock = threading.Lock()
        self._seen: dict[str, list[float]] = {}

    def _recent(self, key: str, now: float) -> list[float]:
        recent = [t for t in self._seen.get(key, []) if now - t < self._window]
        self._seen[key] = recent
        return recent

    def full(self, key: str) -> bool:
        """Whether ``key`` had ``most`` events within the window (nothing is counted)."""
        with self._lock:
            return len(self._recent(key, time.monotonic())) >= self._most

    def add(self, key: str) -> None:
        """Count one event of ``key`` now."""
        with self._lock:
            self._recent(key, time.monotonic()).append(time.monotonic())

    def take(self, key: str) -> bool:
        """Count one event of ``key`` if it has room for one; whether it had."""
        now = time.monotonic()
        with self._lock:
            recent = self._recent(key, now)
            if len(recent) >= self._most:
                return False
            recent.append(now)
            return True
