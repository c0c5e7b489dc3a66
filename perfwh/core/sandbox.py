"""A process that may create or change no file: the operating system's own guarantee, for
`perfwh sql`, on top of what the query is allowed to say (perfwh.warehouse.query).

Linux's Landlock (kernel 5.13 and later) lets an unprivileged process give up rights for
itself and the threads it starts afterwards: here every right to write, truncate, create,
remove, rename or link a file anywhere. Files already open stay usable - the terminal or the
file that stdout is redirected to - and reading is untouched. On a kernel without Landlock (or
where a seccomp filter forbids it) nothing happens and `forbid_file_changes` says so by
returning False: the query's own restrictions still hold.
"""
from __future__ import annotations

import ctypes
import platform

# Landlock's system calls have the same numbers on every architecture that has them.
_CREATE_RULESET, _RESTRICT_SELF = 444, 446
_CREATE_RULESET_VERSION = 1 << 0
_PR_SET_NO_NEW_PRIVS = 38

# Filesystem access rights (include/uapi/linux/landlock.h), by the ABI version that added them.
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE = [1 << bit for bit in range(6, 13)]  # char, dir, reg, sock, fifo, block, sym
_REFER = 1 << 13       # ABI 2: link or rename a file into another folder
_TRUNCATE = 1 << 14    # ABI 3: truncate a file
_CHANGES_BY_ABI = {1: _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | sum(_MAKE), 2: _REFER, 3: _TRUNCATE}


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where there is none (another OS, an old kernel,
    Landlock disabled or forbidden to this process)."""
    if platform.system() != "Linux":
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    version = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0),
                           ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(version, 0)


def forbid_file_changes() -> bool:
    """From now on, this thread and every thread it starts can neither create, change, truncate,
    rename nor remove any file or folder. True when the kernel enforces it, False when it cannot
    (no Landlock). Call it from the main thread before starting other threads: threads that
    already run keep their rights."""
    abi = landlock_abi()
    if abi < 1:
        return False
    handled = sum(bits for version, bits in _CHANGES_BY_ABI.items() if version <= abi)
    # struct landlock_ruleset_attr begins with handled_access_fs; a shorter size is accepted.
    attr = ctypes.c_uint64(handled)
    libc = ctypes.CDLL(None, use_errno=True)
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        return False
    try:
        # Required of an unprivileged process; it only stops set-uid programs gaining rights.
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        # No rule is added: no folder grants any of the handled rights back.
        return libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) == 0
    finally:
        libc.close(ruleset)
