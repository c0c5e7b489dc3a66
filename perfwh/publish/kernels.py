"""Running a notebook through nbclient so that its kernel never outlives the run."""
from __future__ import annotations

import atexit
import contextlib


async def execute_notebook(client, **kwargs):
    """``await client.async_execute(**kwargs)``; whatever ends it (a failed cell, a task
    cancelled because a sibling notebook failed), the kernel is shut down and nbclient's
    exit hook removed.

    Why: nbclient registers an atexit cleanup before it starts the kernel and removes it only
    on its normal path. A run cancelled while its kernel starts leaves the hook behind, and at
    interpreter exit it fails with ``assert self.km is not None`` (a traceback printed after
    the tests' summary), or leaves the kernel running until then.
    """
    try:
        return await client.async_execute(**kwargs)
    finally:
        if client.km is not None:
            with contextlib.suppress(Exception):
                await client._async_cleanup_kernel()
        atexit.unregister(client._cleanup_kernel)
