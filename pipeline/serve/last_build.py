"""The outcome of the last build, shared between the thread that rebuilds and the server's threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class LastBuild:
    """Build number `build` counts the builds that succeeded; pages loaded from an older one reload.

    `problems` are the lines of the last build when it failed (then the site on disk is the last good one)."""

    build: int = 0
    ok: bool = True
    title: str = ""
    problems: list[str] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)
    stopping: bool = False

    def succeeded(self) -> None:
        with self.changed:
            self.build, self.ok, self.title, self.problems = self.build + 1, True, "", []
            self.changed.notify_all()

    def failed(self, title: str, problems: list[str]) -> None:
        with self.changed:
            self.ok, self.title, self.problems = False, title, problems
            self.changed.notify_all()

    def stop(self) -> None:
        with self.changed:
            self.stopping = True
            self.changed.notify_all()

    def as_json(self) -> dict:
        with self.changed:
            return {"build": self.build, "ok": self.ok, "title": self.title, "problems": list(self.problems)}

    def poke(self) -> None:
        """Wake every waiting stream, so one that was dropped (pipeline/serve/connections.py) ends now."""
        with self.changed:
            self.changed.notify_all()

    def wait(self, seen: tuple[int, bool, int], timeout: float, ended: Callable[[], bool] = lambda: False) -> tuple[int, bool, int]:
        """Block until the state differs from `seen` (build, ok, number of problems), `ended()` or `timeout` passes."""
        with self.changed:
            self.changed.wait_for(lambda: self.stopping or self.key() != seen or ended(), timeout)
            return self.key()

    def key(self) -> tuple[int, bool, int]:
        return (self.build, self.ok, len(self.problems))
