"""How every stage that writes begins: the writer lock, then recovery from any writer that was
killed, then a transaction to stage its files in; the exports every writer stages with the
warehouse; and the copy-and-commit of the later stages (findings, models)."""
from __future__ import annotations

import contextlib
import shutil
from dataclasses import dataclass
from pathlib import Path

import duckdb

from perfwh.core.commit import JOURNAL, Transaction, recover
from perfwh.core.files import remove_database_wal
from perfwh.core.lock import LockBusy, writer_lock
from perfwh.core.paths import WAREHOUSE
from perfwh.warehouse.db import connect_bounded, remove_spill
from perfwh.warehouse.lake import write_changes, write_lake
from perfwh.warehouse.schema import document

# Beside the warehouse: its relations as a partitioned Parquet lake.
LAKE_DIR = "lake"


class BuildError(RuntimeError):
    """Any reason a build stopped; the message names the file and line where there is one."""


@contextlib.contextmanager
def writing(warehouse: Path, command: str, *, wait: bool = True, also: tuple[Path, ...] = ()):
    """Hold the writer lock of ``warehouse``'s folder for the block, finish or clean up what a
    killed writer left (there and in the folders ``also``), and yield a `Transaction` whose
    journal lives beside the warehouse. Nothing staged survives the block uncommitted."""
    folder = Path(warehouse).resolve().parent
    with writer_lock(folder, command, wait=wait):
        recover(folder, [folder, *also])
        with Transaction(folder) as transaction:
            yield transaction


def finish_abandoned(warehouse: Path) -> bool:
    """For a reader: if a writer was killed past its commit point (its journal is still beside
    the warehouse) and no writer holds the lock now, finish its renames, so that the reader
    sees the change whole. Returns whether it did. A running writer is left alone."""
    folder = Path(warehouse).resolve().parent
    if not (folder / JOURNAL).exists():
        return False
    try:
        with writer_lock(folder, "recover", wait=False):
            recover(folder, [folder])
    except LockBusy:
        return False
    return True


@dataclass(frozen=True)
class Exports:
    """The Parquet lake of a warehouse, staged in its writer's transaction: committed together
    with the warehouse file, or not at all. ``committed`` is the lake as it stands, whose
    partitions of unchanged sources an add keeps."""
    lake: Path
    committed: Path
    transaction: Transaction

    def write(self, con: duckdb.DuckDBPyConnection, changed: list[str] | None = None) -> None:
        """Write the lake: whole, or (``changed``: the sources an add filed, retired or
        rewrote) only what changes, committed in parts over the lake as it stands."""
        if changed is None:
            write_lake(con, self.lake)
            return
        change = write_changes(con, self.lake, self.committed, changed)
        if not change.whole:
            self.transaction.in_parts(self.lake, change.replaced, change.removed)


def stage_exports(transaction: Transaction, warehouse: Path, write: bool = True) -> Exports | None:
    """The lake staged for writing; without ``write`` (a writer told to skip it), an empty
    folder staged in its place: a lake left as it was would no longer match the warehouse it
    is committed with, and an add would keep its partitions."""
    folder = Path(warehouse).parent
    staged = transaction.stage(folder / LAKE_DIR)
    if not write:
        staged.mkdir(parents=True)
        return None
    return Exports(staged, folder / LAKE_DIR, transaction)


@dataclass
class Staged:
    """A stage's working copy of the warehouse: its path, the open connection (a stage may
    replace it: Great Expectations closes and reopens it), the transaction it commits with and
    the exports staged in it (None when the stage writes none)."""
    path: Path
    con: duckdb.DuckDBPyConnection
    transaction: Transaction
    exports: Exports | None = None


@contextlib.contextmanager
def atomic_update(warehouse: Path = WAREHOUSE, parquet: bool = True, command: str = "models",
                  wait: bool = True):
    """Open a copy of the warehouse for a later stage (findings, models) and yield it as
    `Staged`; commit it over the original, documented and with the refreshed Parquet lake,
    only if the block succeeds. DuckDB works within its memory limit, spilling beside the copy."""
    warehouse = Path(warehouse)
    if not warehouse.is_file():
        raise BuildError(f"{warehouse}: no warehouse yet; run `perfwh build` (or `make`) first")
    with writing(warehouse, command, wait=wait) as transaction:
        path = transaction.stage(warehouse)
        shutil.copyfile(warehouse, path)
        con, spill = connect_bounded(path)
        staged = Staged(path, con, transaction, stage_exports(transaction, warehouse, write=parquet))
        try:
            yield staged
            document(staged.con)
            if staged.exports:
                staged.exports.write(staged.con)
        finally:
            staged.con.close()
            remove_spill(spill)
        remove_database_wal(path)
        transaction.commit()
