"""Progress for long commands: a live line on a terminal, plain lines otherwise."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, title: str, total: int, stream=None):
        self.title, self.total, self.done = title, total, 0
        self.stream = stream or sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.perf_counter()

    def step(self, message: str) -> None:
        self.done += 1
        if self.live:
            width = 24
            filled = int(width * self.done / max(self.total, 1))
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r\x1b[K{self.title} [{bar}] {self.done}/{self.total} {message}")
        else:
            self.stream.write(f"{self.title}: {message}\n")
        self.stream.flush()

    def finish(self, message: str) -> None:
        elapsed = time.perf_counter() - self.started
        if self.live:
            self.stream.write("\r\x1b[K")
        self.stream.write(f"{self.title}: {message} in {elapsed:.2f} s\n")
        self.stream.flush()
