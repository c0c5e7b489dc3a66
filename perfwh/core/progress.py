"""Progress for long commands: a live line on a terminal, plain lines otherwise (`Progress`),
or a status line on a terminal only (`live_status`, `status`)."""
from __future__ import annotations

import contextlib
import contextvars
import sys
import time

ERASE_LINE = "\r\x1b[K"


def erase_line(stream) -> None:
    """Back to the start of the terminal's line and clear it: the one control sequence perfwh
    writes itself, so past the escaping of what it prints (`ingest.printable`)."""
    getattr(stream, "unescaped", stream).write(ERASE_LINE)


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
            erase_line(self.stream)
            self.stream.write(f"{self.title} [{bar}] {self.done}/{self.total} {message}")
        else:
            self.stream.write(f"{self.title}: {message}\n")
        self.stream.flush()

    def finish(self, message: str) -> None:
        elapsed = time.perf_counter() - self.started
        if self.live:
            erase_line(self.stream)
        self.stream.write(f"{self.title}: {message} in {elapsed:.2f} s\n")
        self.stream.flush()


class _LiveStatus:
    """One line on a terminal, rewritten in place: where a long command has got to."""

    def __init__(self, title: str, stream) -> None:
        self.title, self.stream = title, stream
        self.started = time.perf_counter()
        self.shown = self.ended = False

    def show(self, message: str) -> None:
        if self.ended:
            return
        elapsed = time.perf_counter() - self.started
        erase_line(self.stream)
        self.stream.write(f"{self.title}: {message} ({elapsed:.0f} s)")
        self.stream.flush()
        self.shown = True

    def end(self) -> None:
        """Clear the line; later messages are not shown."""
        if self.shown:
            erase_line(self.stream)
            self.stream.flush()
        self.shown, self.ended = False, True


_current: contextvars.ContextVar[_LiveStatus | None] = contextvars.ContextVar("live_status", default=None)


class _NoStatus:
    def end(self) -> None:
        pass


@contextlib.contextmanager
def live_status(title: str, stream=None):
    """While the block runs (or until the handle it yields is ended), `status` messages show
    as one line rewritten in place - on a terminal only: where the output is a file or a
    pipe, nothing is written (a log keeps the command's own lines). The line is cleared at
    the end, before anything else is printed."""
    stream = stream or sys.stderr
    if not getattr(stream, "isatty", lambda: False)():
        yield _NoStatus()
        return
    shown = _LiveStatus(title, stream)
    token = _current.set(shown)
    try:
        yield shown
    finally:
        shown.end()
        _current.reset(token)


def status(message: str) -> None:
    """Say where a long command has got to (see `live_status`); nothing outside its block."""
    shown = _current.get()
    if shown is not None:
        shown.show(message)
