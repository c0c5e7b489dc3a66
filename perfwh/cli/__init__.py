"""The `perfwh` command: argument parsing and printing only; the work is in the stage packages.

Each subcommand imports what it needs when it runs, so that a quick command (sql, check) does
not pay for the imports of a slow one (GX, notebooks). Even the subcommand modules are imported
inside `main`, so that a Ctrl-C at any point after the interpreter started importing this
package ends with one line (before that, in Python's own start-up, Ctrl-C is Python's).
"""
from __future__ import annotations

import os
import signal
import sys


def _stopped_while_starting(signum: int, frame) -> None:
    """Ctrl-C or SIGTERM while the command is still importing, before `main` sets its own
    handlers: nothing has been done yet, so one line and the status of a stop, at once."""
    words = [a for a in sys.argv[1:] if not a.startswith("-")]
    stop = "terminated" if signum == signal.SIGTERM else "interrupted"
    os.write(2, f"perfwh{' ' + words[0] if words else ''}: {stop} (before it began)\n".encode())
    os._exit(128 + signum)


# The command itself (`python -m perfwh.cli`: argv[0] is "-m" while the package imports; the
# `perfwh` script), not a program importing it: stops from here on end with one line.
if sys.argv[:1] == ["-m"] or os.path.basename(sys.argv[0] if sys.argv else "") == "perfwh":
    for _signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_signum, _stopped_while_starting)

import argparse  # noqa: E402
import logging  # noqa: E402
import re  # noqa: E402

from perfwh.core.interrupts import interrupted  # noqa: E402
from perfwh.core.paths import NotAWarehouse  # noqa: E402

from .common import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED, EXIT_USAGE,  # noqa: E402
                     json_error)


class Parser(argparse.ArgumentParser):
    """argparse, except that a usage error is one line naming --help (not the usage block
    first), and a command asked for --json also says so on stdout, as JSON: a script reading
    the output always gets valid JSON."""

    def error(self, message: str):
        message += _negative_value_hint(message, _ARGV or sys.argv[1:])
        if "--json" in sys.argv[1:] or "--json" in _ARGV:
            print(json_error(f"{self.prog}: {message}", EXIT_USAGE, self.prog))
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _negative_value_hint(message: str, argv: list[str]) -> str:
    """argparse takes "-5KB" after --size for an option, and says --size expected an argument:
    the hint says how to write such a value."""
    option = re.fullmatch(r"argument (--[\w-]+): expected one argument", message)
    if option is None or option.group(1) not in argv:
        return ""
    after = argv[argv.index(option.group(1)) + 1:][:1]
    if not after or not re.fullmatch(r"-[\d.].*", after[0]):
        return ""
    return f"; a value beginning with '-' is written with '=': {option.group(1)}={after[0]}"


_ARGV: list[str] = []  # the arguments main() parses (tests pass them, not sys.argv)

class _Printable:
    """A text stream that writes `ingest.printable` text; everything else is the stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        from ingest.printable import printable

        return self._stream.write(printable(text))

    @property
    def unescaped(self):
        """The stream itself, for the control sequences perfwh writes on purpose."""
        return self._stream

    def __getattr__(self, name):
        return getattr(self._stream, name)


def make_parser() -> argparse.ArgumentParser:
    from . import build, models, publish, quality, sql

    parser = Parser(
        prog="perfwh", description="perfwh: a data warehouse of IBM integration middleware performance reports")
    parser.add_argument("-v", "--verbose", action="store_true", help="log header variants and steps")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in (build, sql, quality, models, publish):
        module.register(sub)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every writer cleans up the same way."""


_SIGNALLED: list[int] = []  # what the handlers saw: code may have turned their exception into an error


def _stop(signum, frame):
    """Ctrl-C and SIGTERM raise as usual, and are noted: DuckDB turns the exception into its
    own, and a command that reports DuckDB errors could end with an error's status."""
    _SIGNALLED.append(signum)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def main(argv: list[str] | None = None) -> int:
    previous = {s: signal.signal(s, _stop) for s in (signal.SIGINT, signal.SIGTERM)}
    _SIGNALLED.clear()
    _ARGV[:] = list(argv) if argv is not None else sys.argv[1:]
    command = _named_command(_ARGV)
    args = None
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Printable(sys.stdout), _Printable(sys.stderr)
    try:
        args = make_parser().parse_args(argv)
        command = f"perfwh {args.command}"
        logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                            format="%(name)s: %(message)s")
        status = args.func(args)
        if status != EXIT_OK and _SIGNALLED:  # it failed because it was stopped: say that
            return _stopped(command, args, signal.SIGTERM in _SIGNALLED)
        return status
    except BrokenPipeError:  # the reader of our output went away (e.g. `| head`)
        return EXIT_OK
    except NotAWarehouse as err:  # --db (or $PERFWH_DB) names no warehouse: one line, no traceback
        return _failed(command, args, str(err), EXIT_USAGE)
    except Exception as err:  # noqa: B902 - what no command foresaw still ends with one line
        if interrupted(err) or _SIGNALLED:  # DuckDB's report of a stop is the stop
            return _stopped(command, args, signal.SIGTERM in _SIGNALLED)
        return _unforeseen(command, args, err)
    except BaseException as err:  # noqa: B902 - interruptions end with one line, not a traceback
        # after a stop, whatever a library made of it (nbclient's kernel clean-up asserts, an
        # asyncio task is cancelled) is the stop
        if not (interrupted(err) or _SIGNALLED):
            raise
        return _stopped(command, args, isinstance(err, Terminated) or signal.SIGTERM in _SIGNALLED)
    finally:
        sys.stdout, sys.stderr = streams
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _failed(command: str, args, message: str, status: int) -> int:
    """One line on stderr (and with --json the same as JSON on stdout): the command's status."""
    print(f"{command}: error: {message}", file=sys.stderr)
    if getattr(args, "json", False):
        print(json_error(message, status))
    return status


def _unforeseen(command: str, args, err: Exception) -> int:
    """An exception no command turned into its own message: the manifest (every command that
    reads it says the same), a file that cannot be read or written, memory; anything else is
    a fault of perfwh's, said in one line too (-v shows where)."""
    from perfwh.warehouse.sources import SourceError

    if isinstance(err, SourceError):
        return _failed(command, args, str(err), EXIT_USAGE)
    if isinstance(err, OSError) and err.strerror:
        where = f"{err.filename}: " if err.filename else ""
        return _failed(command, args, f"{where}{err.strerror}", EXIT_FAILED)
    if isinstance(err, MemoryError):
        return _failed(command, args, "out of memory", EXIT_FAILED)
    if getattr(args, "verbose", False):
        import traceback

        traceback.print_exception(err, file=sys.stderr)
    detail = str(err).strip().splitlines()
    return _failed(command, args, f"unexpected {type(err).__name__}"
                   + (f": {detail[0]}" if detail else "")
                   + " (a fault of perfwh's; `perfwh -v ...` shows where)", EXIT_FAILED)


def _named_command(argv: list[str]) -> str:
    """"perfwh COMMAND" as the arguments name it (the only option before a command is -v): a
    stop that arrives while the parser is still being built names the command too."""
    words = [a for a in argv if not a.startswith("-")]
    return f"perfwh {words[0]}" if words else "perfwh"


def _stopped(command: str, args, terminated: bool) -> int:
    writes = getattr(getattr(args, "func", None), "writes", True)
    print(f"{command}: {'terminated' if terminated else 'interrupted'}"
          + (" (what it writes lands whole or not at all)" if writes else ""), file=sys.stderr)
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def run() -> None:
    """The command's entry point: `main`, then exit with its status. Once `main` has returned,
    its work is done (committed or not) and its status decided, so Ctrl-C and SIGTERM are
    ignored while the interpreter shuts down: Python puts the default handlers back during
    finalisation, and a signal there would otherwise kill the process without a word."""
    status = main()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
    _forget_handled_keyboard_interrupt()
    sys.exit(status)


def _forget_handled_keyboard_interrupt() -> None:
    """CPython 3.11 remembers a KeyboardInterrupt that passed through exec() or eval() of a
    string (namedtuple, dataclasses and many libraries make code that way while they import)
    even when it was caught, and `python -m perfwh.cli` then ends the process by SIGINT instead
    of with the status `main` returned. `main` handled it: clear that flag where it exists."""
    try:
        import ctypes

        ctypes.c_int.in_dll(ctypes.pythonapi, "_Py_UnhandledKeyboardInterrupt").value = 0
    except (ImportError, ValueError, AttributeError):  # another interpreter: nothing to clear
        pass


if __name__ == "__main__":
    sys.exit(main())
