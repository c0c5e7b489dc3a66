"""Running notebooks through nbclient so that their kernels never outlive the run, and a
Ctrl-C or SIGTERM stops them with the command's own one line and status."""
from __future__ import annotations

import atexit
import contextlib
import functools
import tempfile
import threading
from typing import Any, Awaitable, Callable


class KernelDied(RuntimeError):
    """The Jupyter kernel died; the message ends with what it last wrote on its stderr."""


async def execute_notebook(client, **kwargs):
    """``await client.async_execute(**kwargs)``, the kernel's stderr kept out of the
    command's output (KernelDied carries its end); whatever ends the run (a failed cell, a task
    cancelled because a sibling notebook failed or the command was stopped), the kernel is
    shut down and nbclient's exit hook removed.

    Why: nbclient registers an atexit cleanup before it starts the kernel and removes it only
    on its normal path. A run cancelled while its kernel starts leaves the hook behind, and at
    interpreter exit it fails with ``assert self.km is not None`` (a traceback printed after
    the tests' summary), or leaves the kernel running until then.
    """
    from nbclient.exceptions import DeadKernelError

    client.kernel_manager_class = _launch_recording_manager()
    for attempt in range(1, KERNEL_STARTS + 1):
        manager = client.create_kernel_manager()
        with tempfile.TemporaryFile(mode="w+b") as log:
            try:
                # the kernel's stdout too: a kernel must not hold our caller's pipe open
                return await client.async_execute(stdout=log, stderr=log, **kwargs)
            except DeadKernelError as err:
                raise KernelDied(f"the Jupyter kernel died: {err}\n{_tail(log)}") from None
            except RuntimeError as err:
                if str(err) != DIED_STARTING:
                    raise
                if attempt == KERNEL_STARTS:
                    raise KernelDied(f"the Jupyter kernel died as it started, {KERNEL_STARTS} times "
                                     f"in a row: {err}\n{_tail(log)}") from None
            finally:
                atexit.unregister(client._cleanup_kernel)
                try:
                    if client.km is not None:
                        await _shut_down(client)
                finally:
                    _end_process(manager.launched)


# A kernel that exits before its first reply has run nothing: it is started again. Seen when
# kernels start side by side on a busy machine (the site renders two pages at a time): the
# ports jupyter_client picks for a kernel are free when picked and may be taken before the
# kernel binds them, and the kernel exits.
KERNEL_STARTS = 3
DIED_STARTING = "Kernel died before replying to kernel_info"


def _tail(log) -> str:
    """The end of what the kernel wrote (its stderr and stdout)."""
    log.seek(0)
    return log.read().decode("utf-8", "replace")[-2000:]


@functools.cache
def _launch_recording_manager():
    """jupyter_client's kernel manager, remembering the process it launched.

    Why: a run stopped at the wrong moment (between nbclient's clean-up steps, or while the
    kernel was still starting) could leave a kernel behind that jupyter_client no longer
    counted as running - seen as a kernel hung in its own exit, orphaned, after the command
    had ended. Whatever the bookkeeping says, the process we launched is ended by us."""
    from jupyter_client.manager import AsyncKernelManager

    class LaunchRecordingKernelManager(AsyncKernelManager):
        launched = None

        async def start_kernel(self, **kwargs):
            try:
                return await super().start_kernel(**kwargs)
            finally:
                self.launched = getattr(self.provisioner, "process", None)

    return LaunchRecordingKernelManager


def _end_process(process) -> None:
    """Kill ``process`` (a kernel's Popen) if it still runs, and reap it."""
    if process is not None and process.poll() is None:
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(Exception):
            process.wait(timeout=10)


async def _shut_down(client) -> None:
    """The kernel shut down, even when the run is cancelled again meanwhile (a stopped
    command cancels every run, and asyncio.gather passes its own cancellation on as well):
    the shutdown goes on, and the extra cancellation is raised once it is done."""
    import asyncio

    shutdown = asyncio.ensure_future(client._async_cleanup_kernel())
    cancelled = False
    while not shutdown.done():
        try:
            await asyncio.shield(shutdown)
        except asyncio.CancelledError:
            cancelled = True
        except Exception:  # a kernel that had already died: nothing left to shut down
            break
    if cancelled:
        raise asyncio.CancelledError


def run_stoppably(factory: Callable[[], Awaitable[Any]]) -> Any:
    """``asyncio.run(factory())`` in a helper thread while this thread waits; a Ctrl-C or
    SIGTERM here cancels the run, waits until its kernels are shut down, and is raised again.

    Why not on this thread: on the main thread nbclient takes SIGINT and SIGTERM for itself
    (``loop.add_signal_handler``, to shut its kernel down and carry on) and, when a notebook
    ends, puts back Python's default handlers rather than the command's, so that a SIGTERM
    after the first notebook killed the process outright. And a stop raised inside a running
    loop surfaces as nbclient's clean-up errors and asyncio's "exception was never retrieved"
    tracebacks. Off the main thread nbclient leaves the signals alone (it cannot add them),
    and the stop reaches the loop as a cancellation, which every run handles. (It also lets a
    caller that already runs an event loop, as Playwright's sync API does, render pages.)"""
    import asyncio  # here: the CLI imports this module for every command

    state: dict[str, Any] = {}
    running, finished, stopping = threading.Event(), threading.Event(), threading.Event()

    def report(loop, context):
        # once stopped, nbclient's own tasks (its kernel-alive poll) fail on the kernel shut
        # down under them: asyncio would print their tracebacks after the command's one line
        if not stopping.is_set():
            loop.default_exception_handler(context)

    async def main():
        state["loop"], state["task"] = asyncio.get_running_loop(), asyncio.current_task()
        state["loop"].set_exception_handler(report)
        running.set()
        return await factory()

    def work():
        try:
            state["result"] = asyncio.run(main())
        except BaseException as err:  # handed to the waiting thread
            state["error"] = err
        finally:
            running.set()
            finished.set()

    threading.Thread(target=work, name="perfwh-kernels", daemon=True).start()
    # Completion is an Event, not Thread.join: a KeyboardInterrupt raised inside join() can
    # leave the Thread saying it has ended while it still runs.
    try:
        while not finished.wait(0.1):
            pass
    except KeyboardInterrupt:  # and Terminated (SIGTERM)
        stopping.set()
        running.wait()
        with contextlib.suppress(RuntimeError, KeyError):  # the loop has already ended
            state["loop"].call_soon_threadsafe(state["task"].cancel)
        finished.wait()
        raise
    if "error" in state:
        raise state["error"]
    return state["result"]
