"""A circuit breaker for servers that stop answering (the LLM server, the scholarly services).

A run over thousands of references must not wait out timeouts and retries for every one of them once a
server is clearly down: after a few consecutive failures, calls fail at once for a while.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class CircuitBreaker:
    """Fail fast while a server keeps failing.

    After `threshold` consecutive unavailable failures the breaker opens: calls fail at once for
    `cooldown_s`. Then calls go through again; one more failure reopens it, an answer closes it.
    """

    def __init__(
        self, threshold: int = 3, cooldown_s: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.threshold = threshold
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._failures = 0
        self._opened_at: float | None = None
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        with self._lock:
            return self._remaining() > 0

    def _remaining(self) -> float:
        if self._opened_at is None:
            return 0.0
        return self._opened_at + self.cooldown_s - self._clock()

    def refusal(self) -> str | None:
        """Why no call may be made now, or None when calls go through."""
        with self._lock:
            remaining = self._remaining()
            failures = self._failures
        if remaining <= 0:
            return None
        return (
            f"circuit breaker open after {failures} consecutive failures: not calling the server "
            f"for {remaining:.0f}s more"
        )

    def record_answer(self) -> None:
        with self._lock:
            self._failures = 0
            self._opened_at = None

    def record_failure(self) -> None:
        with self._lock:
            self._failures += 1
            if self._failures >= self.threshold:
                self._opened_at = self._clock()
