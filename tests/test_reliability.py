"""New results never half-land: `perfwh add` is one transaction under the writer lock; killed
anywhere it leaves the whole submission or nothing, the next run cleans up and works; a
writer never loses another's update; copies of filed sources are refused."""
from __future__ import annotations

import hashlib
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
import yaml

from perfwh.core.commit import JOURNAL, recover
from perfwh.core.files import temporary_path
from perfwh.core.lock import writer_lock
from perfwh.core.paths import RAW_DIR
from perfwh.warehouse.lake import duckdb_scan
from support.processes import alive, catches, kernels_of
from support.sandbox import private_layers

PERFWH = [sys.executable, "-m", "perfwh.cli"]
HEADER = ("product,product_version,platform,server_cores,scenario,message_size_bytes,persistent,"
          "concurrency_kind,concurrency,replicas,msg_rate,cpu_busy_pct,cpu_ms_per_msg\n")


def submission(path: Path, platform: str) -> Path:
    """Three sizes of one series (a fitted model), numbers that hold together."""
    rows = [(120, "2864.4", "2.6"), (134, "2300.5", "3.3"), (1384, "1362.3", "5.5")]
    path.write_text(HEADER + "".join(
        f"IIB,10.0.0.2,{platform},8,ISO 8583 Transformation,{size},false,flow_copies,,,{rate},94.0,{cost}\n"
        for size, rate, cost in rows), encoding="utf-8")
    return path


def _box(tmp_path: Path, raw_dir: Path, warehouse: Path) -> dict:
    """A private raw layer and warehouse (copies) for a test that writes."""
    return private_layers(tmp_path, warehouse, raw_dir)


@pytest.fixture
def box(tmp_path, built_warehouse) -> dict:
    """The reports' raw layer and warehouse."""
    return _box(tmp_path, RAW_DIR, built_warehouse)


@pytest.fixture
def small_box(tmp_path, one_report) -> dict:
    """A private copy of the one-report raw layer and warehouse."""
    return _box(tmp_path, *one_report)


def perfwh(box: dict, *args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(PERFWH + [str(a) for a in args] + ["--db", str(box["db"]), "--sources",
                                                             str(box["sources"])],
                          capture_output=True, text=True, **kwargs)


def start_add(box: dict, path: Path) -> subprocess.Popen:
    return subprocess.Popen(PERFWH + ["add", str(path), "--db", str(box["db"]), "--sources",
                                      str(box["sources"])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def state(box: dict) -> dict:
    """Every file of the raw layer and of the warehouse's folder, with its checksum."""
    out = {}
    for root in (box["raw"], box["db"].parent):
        for p in sorted(root.rglob("*")):
            if p.is_file() and p.name != ".perfwh.lock":
                out[str(p.relative_to(box["tmp"]))] = digest(p)
    return out


def leftovers(box: dict) -> list[str]:
    folders = [box["db"].parent, box["raw"], box["raw"] / "submissions"]
    return sorted(p.name for f in folders if f.is_dir() for p in f.iterdir()
                  if ".tmp-" in p.name or ".old-" in p.name or p.name == JOURNAL)


def settle(box: dict) -> None:
    """What the next writer does first: finish a committed change, remove leftovers."""
    folder = box["db"].parent
    with writer_lock(folder, "test"):
        recover(folder, [folder, box["raw"], box["raw"] / "submissions"])


def outcome(box: dict, path: Path, before: dict) -> str:
    """'whole' or 'nothing' - anything else fails the test."""
    settle(box)
    assert leftovers(box) == []
    manifest = yaml.safe_load(box["sources"].read_text(encoding="utf-8"))["reports"]
    entries = [e for e in manifest if e["file"] == path.name]
    if not entries:
        assert state(box) == before, "not filed, but something changed"
        return "nothing"
    assert len(entries) == 1
    filed = box["raw"] / "submissions" / path.name
    assert filed.read_bytes() == path.read_bytes()
    con = duckdb.connect(str(box["db"]), read_only=True)
    try:
        rows = con.sql("SELECT count(*) FROM measurements WHERE source = ?", params=[path.name]).fetchall()
        fitted = con.sql("SELECT count(*) FROM model_predictions WHERE source = ?",
                         params=[path.name]).fetchall()
        reports = con.sql("SELECT count(*) FROM dim_report WHERE source = ?", params=[path.name]).fetchall()
    finally:
        con.close()
    assert rows == [(3,)] and fitted == [(3,)] and reports == [(1,)]
    lake = box["db"].parent / "lake"
    parquet = duckdb.sql(f"SELECT count(*) FROM {duckdb_scan(lake, 'measurements')} WHERE source = ?",
                         params=[path.name]).fetchall()
    assert parquet == [(3,)]
    return "whole"


def test_add_is_whole_and_a_second_writer_cleans_up(small_box):
    box = small_box
    path = submission(box["tmp"] / "lab.csv", "lab box")
    before = state(box)
    done = perfwh(box, "add", path)
    assert done.returncode == 0, done.stderr
    assert "stale" in done.stdout  # the notebooks and the site are said to be stale
    assert outcome(box, path, before) == "whole"
    again = perfwh(box, "add", path)
    assert again.returncode == 1 and "already filed" in again.stderr


def add_phases(box: dict, path: Path, pid: int) -> list[tuple[str, object]]:
    """The phases of an add of ``path`` by process ``pid``, in the order it passes them, each
    with a test of whether it has begun (what the add has written so far shows it): launched
    (the interpreter starting), starting (perfwh's imports, the lock: its handlers for Ctrl-C
    and SIGTERM are set), checking on a copy of the warehouse, staging the manifest and the
    lake, staging the raw file, then the commit - the journal, the renames."""
    curated, raw = box["db"].parent, box["raw"]
    def exists(p):
        return lambda: p.exists()
    return [("launched", lambda: True),
            ("starting", lambda: catches(pid, signal.SIGTERM)),
            ("checking", exists(temporary_path(box["db"], pid=pid))),
            ("manifest staged", exists(temporary_path(box["sources"], pid=pid))),
            ("lake staged", exists(temporary_path(curated / "lake", pid=pid))),
            ("raw file staged", exists(temporary_path(raw / "submissions" / path.name, pid=pid))),
            ("journal written", exists(curated / JOURNAL)),
            ("renamed", exists(raw / "submissions" / path.name))]


def run_add_until(box: dict, path: Path, phase: str | None, delay: float = 0.0):
    """Start an add of ``path``; once it has entered ``phase`` (None: never), wait ``delay``
    seconds. Returns (the running process or None if it ended first, {phase: seconds after the
    start at which it was first seen})."""
    proc = start_add(box, path)
    started = time.monotonic()
    phases, seen = add_phases(box, path, proc.pid), {}
    if phase is not None:  # only when it begins matters (a poll costs the add's CPU)
        phases = [(name, begun) for name, begun in phases if name == phase]
    while proc.poll() is None:
        for name, begun in phases:
            if name not in seen and begun():
                seen[name] = time.monotonic() - started
        if phase in seen:
            time.sleep(delay)
            return (proc if proc.poll() is None else None), seen
        time.sleep(0.001)
    proc.communicate()
    assert proc.returncode == 0, f"add ended with status {proc.returncode}"
    return None, seen


# Each phase of an add is hit by SIGKILL and by SIGINT, at its start (the check also halfway
# through) - except the interpreter's own start, where Ctrl-C is Python's (a traceback, no
# handler of perfwh's is set yet): there SIGKILL only, 0.05 s in. The parts of the test, which
# run side by side, take every PARTS-th (phase, delay, signal).
KILL_AT = [("launched", 0.05, signal.SIGKILL), ("starting", 0.0, signal.SIGINT)] + [
    (phase, fraction, sig) for phase, fraction in (
        ("checking", 0.0), ("checking", 0.5), ("manifest staged", 0.0), ("lake staged", 0.0),
        ("raw file staged", 0.0), ("journal written", 0.0), ("renamed", 0.0))
    for sig in (signal.SIGKILL, signal.SIGINT)]
PARTS = 3


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_add_killed_anywhere_lands_all_or_nothing(small_box, part):
    """SIGKILL and SIGINT in every phase of an add (as the files it has staged show it); each
    time the result is the whole submission or nothing, and the next add works."""
    box = small_box
    # an add not stopped: when its phases begin (the halfway point of the check comes from it)
    _, timing = run_add_until(box, submission(box["tmp"] / "timing.csv", "timing box"), None)
    order = [name for name, _ in add_phases(box, Path("x"), 0)]
    assert list(timing) == [name for name in order if name in timing]  # a short phase may pass unseen
    check_takes = timing["manifest staged"] - timing["checking"]
    seen = {"whole": 0, "nothing": 0}
    for i, (phase, fraction, sig) in list(enumerate(KILL_AT))[part::PARTS]:
        path = submission(box["tmp"] / f"trial-{i:02d}.csv", f"trial box {i}")
        before = state(box)
        delay = fraction * (check_takes if phase == "checking" else 1.0)
        proc, _ = run_add_until(box, path, phase, delay)
        if proc is not None:  # still running (a short phase may end before it is seen)
            proc.send_signal(sig)
            _out, err = proc.communicate(timeout=120)
            if sig == signal.SIGINT:
                assert proc.returncode in (0, 130), err
                assert "Traceback" not in err
                if proc.returncode == 130:
                    assert err.strip().splitlines()[-1].startswith("perfwh add: interrupted")
        result = outcome(box, path, before)
        seen[result] += 1
        expected = "whole" if phase in ("journal written", "renamed") or proc is None else None
        assert expected in (None, result), f"{phase}: {result}, past the commit point"
        if result == "nothing":  # the next add works, and files it whole
            before = state(box)
            done = perfwh(box, "add", path)
            assert done.returncode == 0, done.stderr
            assert outcome(box, path, before) == "whole"
    assert seen["whole"] and seen["nothing"], seen  # both sides of the commit were hit


@pytest.mark.parametrize("sig, status, word", [(signal.SIGINT, 130, "interrupted"),
                                               (signal.SIGTERM, 143, "terminated")])
def test_a_stop_while_the_command_imports_is_one_line(sig, status, word):
    """From the moment the command's package is imported, before `main` has set its handlers,
    a stop ends at once with one line and the status of a stop; a program that imports the
    package keeps its own handlers."""
    as_command = (f"import sys; sys.argv = ['-m', 'add', 'x.csv']; import os, signal, time, perfwh.cli; "
                  f"os.kill(os.getpid(), {int(sig)}); time.sleep(30)")
    done = subprocess.run([sys.executable, "-c", as_command], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (status, f"perfwh add: {word} (before it began)\n")
    as_library = "import signal, perfwh.cli; print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)"
    assert subprocess.run([sys.executable, "-c", as_library], capture_output=True, text=True,
                          check=True).stdout == "True\n"


@pytest.mark.slow
def test_add_during_a_build_loses_nothing(box):
    """A build started first holds the lock; the add waits, then files; the build's warehouse
    does not overwrite the added rows, and a build after both keeps them."""
    path = submission(box["tmp"] / "during.csv", "during box")
    build = subprocess.Popen(PERFWH + ["build", "--rules", "duckdb", "--raw", str(box["raw"]),
                                       "--sources", str(box["sources"]), "--out", str(box["db"])],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    added = perfwh(box, "add", path)
    build.communicate(timeout=300)
    assert build.returncode == 0 and added.returncode == 0, added.stderr
    for _ in range(2):
        con = duckdb.connect(str(box["db"]), read_only=True)
        rows = con.sql("SELECT count(*) FROM measurements WHERE source = 'during.csv'").fetchall()
        con.close()
        assert rows == [(3,)]
        # and the other order: an add, then a build started while it runs
        other = submission(box["tmp"] / "during2.csv", "during box 2")
        adding = start_add(box, other)
        time.sleep(0.3)
        rebuilt = subprocess.run(PERFWH + ["build", "--rules", "duckdb", "--raw", str(box["raw"]),
                                           "--sources", str(box["sources"]), "--out", str(box["db"]),
                                           "-q"], capture_output=True, text=True)
        adding.communicate(timeout=300)
        assert rebuilt.returncode == 0 and adding.returncode == 0
        con = duckdb.connect(str(box["db"]), read_only=True)
        rows = con.sql("SELECT source, count(*) FROM measurements WHERE source LIKE 'during%' "
                       "GROUP BY ALL ORDER BY 1").fetchall()
        con.close()
        assert rows == [("during.csv", 3), ("during2.csv", 3)]
        break


def test_a_second_writer_waits_or_fails_fast(small_box):
    box = small_box
    path = submission(box["tmp"] / "wait.csv", "wait box")
    folder = box["db"].parent
    with writer_lock(folder, "build"):
        done = subprocess.run(PERFWH + ["add", str(path), "--no-wait", "--db", str(box["db"]),
                                        "--sources", str(box["sources"])],
                              capture_output=True, text=True)
        assert done.returncode == 1 and "perfwh build" in done.stderr and "--no-wait" in done.stderr
        for command in ("findings", "models"):  # every writer takes --no-wait
            done = subprocess.run(PERFWH + [command, "--no-wait", "--db", str(box["db"]), "-q"],
                                  capture_output=True, text=True)
            assert done.returncode == 1 and "perfwh build" in done.stderr and "unchanged" in done.stderr, done.stderr
        waiting = start_add(box, path)
        time.sleep(1.5)
        assert waiting.poll() is None  # still waiting for the lock
    _out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0 and "waiting for perfwh build" in err


def test_leftovers_of_a_killed_run_are_removed_by_the_next(small_box):
    box = small_box
    folder = box["db"].parent
    junk = [folder / ".warehouse.duckdb.tmp-999999", folder / ".parquet.tmp-999999",
            box["raw"] / ".sources.yml.tmp-999999", folder / ".gx.tmp-999999"]
    junk[0].write_bytes(b"x" * 1000)
    junk[1].mkdir()
    (junk[1] / "measurements.parquet").write_bytes(b"half")
    junk[2].write_text("half")
    junk[3].mkdir()
    done = perfwh(box, "add", submission(box["tmp"] / "clean.csv", "clean box"))
    assert done.returncode == 0, done.stderr
    assert not any(p.exists() for p in junk)


def test_an_add_leaves_the_staging_of_a_run_still_going(small_box):
    """The notebooks and the site stage beside the warehouse without the writer lock (they only
    read it): an add during `make`'s notebooks stage took the stage's folder as a leftover and
    removed it under the running kernels. A staging of a running process stays; once it has
    ended, the next writer removes it."""
    box = small_box
    folder = box["db"].parent
    still = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        staging = folder / f".notebooks.tmp-{still.pid}"
        staging.mkdir()
        (staging / "01_warehouse_tour.ipynb").write_text("{}")
        done = perfwh(box, "add", submission(box["tmp"] / "clean.csv", "clean box"))
        assert done.returncode == 0, done.stderr
        assert (staging / "01_warehouse_tour.ipynb").read_text() == "{}"
    finally:
        still.kill()
        still.wait()
    done = perfwh(box, "add", submission(box["tmp"] / "clean2.csv", "clean box two"))
    assert done.returncode == 0, done.stderr
    assert not staging.exists()


def add_killed_after_its_first_rename(box: dict, path: Path, monkeypatch) -> None:
    """`add` of ``path`` in-process, "killed" past its commit point: after the first of its
    renames. Leaves the journal beside the warehouse."""
    import perfwh.core.commit as commit
    from perfwh.stages.add import add

    calls = {"n": 0}
    real_put = commit._put

    def dying_put(staged, target, *old):
        calls["n"] += 1
        if calls["n"] == 2:
            raise SystemExit("killed")
        real_put(staged, target, *old)

    monkeypatch.setattr(commit, "_put", dying_put)
    with pytest.raises(SystemExit):
        add(path, {}, warehouse=box["db"], sources_file=box["sources"])
    monkeypatch.setattr(commit, "_put", real_put)
    assert (box["db"].parent / JOURNAL).exists()  # half done: the journal says what is left


def test_a_committed_change_cut_short_is_rolled_forward(small_box, monkeypatch):
    """Killed after the journal was written: the next writer finishes the renames."""
    box = small_box
    path = submission(box["tmp"] / "forward.csv", "forward box")
    before = state(box)
    add_killed_after_its_first_rename(box, path, monkeypatch)
    assert outcome(box, path, before) == "whole"


# -- duplicates --------------------------------------------------------------------------

def test_copies_of_filed_sources_are_refused_naming_them(box):
    path = submission(box["tmp"] / "orig.csv", "dup box")
    assert perfwh(box, "add", path).returncode == 0
    same_bytes = box["tmp"] / "copy-of-orig.csv"
    shutil.copyfile(path, same_bytes)
    for command in ("check", "add"):
        done = perfwh(box, command, same_bytes)
        assert done.returncode == 1 and "the same bytes as orig.csv" in done.stderr, done.stderr
    report = box["tmp"] / "renamed-iib.txt"
    shutil.copyfile(RAW_DIR / "reports" / "iib10-xlinux.txt", report)
    done = perfwh(box, "check", report)
    assert done.returncode == 1 and "the same bytes as iib10-xlinux.txt" in done.stderr
    reordered = box["tmp"] / "reordered.csv"
    lines = path.read_text().splitlines(True)
    reordered.write_text(lines[0] + "".join(reversed(lines[1:])))
    for command in ("check", "add"):
        done = perfwh(box, command, reordered)
        assert done.returncode == 1 and "the same measurements" in done.stderr and "orig.csv" in done.stderr


def test_a_revision_retires_the_source_it_replaces(small_box):
    box = small_box
    path = submission(box["tmp"] / "first.csv", "rev box")
    assert perfwh(box, "add", path).returncode == 0
    revised = box["tmp"] / "first-rev2.csv"
    revised.write_text(path.read_text().replace("2300.5,94.0,3.3", "2310.5,94.0,3.3"))
    done = perfwh(box, "add", revised, "--revision-of", "first.csv")
    assert done.returncode == 0, done.stderr
    assert "first.csv is retired" in done.stdout
    con = duckdb.connect(str(box["db"]), read_only=True)
    sources = con.sql("SELECT source, retired_by FROM dim_report WHERE source LIKE 'first%' ORDER BY 1").fetchall()
    rows = con.sql("SELECT source, count(*) FROM measurements WHERE source LIKE 'first%' GROUP BY 1").fetchall()
    con.close()
    assert sources == [("first-rev2.csv", None), ("first.csv", "first-rev2.csv")]
    assert rows == [("first-rev2.csv", 3)]  # the retired source's numbers left the facts
    assert (box["raw"] / "submissions" / "first.csv").exists()  # retired, not deleted
    entry = next(e for e in yaml.safe_load(box["sources"].read_text())["reports"] if e["file"] == "first.csv")
    assert entry["retired"]["by"] == "first-rev2.csv"
    rebuilt = subprocess.run(PERFWH + ["build", "--rules", "none", "--raw", str(box["raw"]), "--sources",
                                       str(box["sources"]), "--out", str(box["db"]), "-q"],
                             capture_output=True, text=True)
    assert rebuilt.returncode == 0, rebuilt.stderr  # and a build from the raw layer agrees


# -- real-world files ---------------------------------------------------------------------

def _encoded(box, name: str, text: str, encoding: str) -> Path:
    path = box["tmp"] / name
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("encoding, note", [
    ("utf-16", "UTF-16"), ("cp1252", "Windows-1252"), ("latin-1", "Windows-1252"),
    ("utf-8-sig", None)])
def test_excel_exports_are_read_with_a_note(small_box, encoding, note):
    box = small_box
    text = submission(box["tmp"] / "plain.csv", "Zürich box – lab").read_text(encoding="utf-8")
    if encoding == "latin-1":
        text = text.replace("–", "-")  # Latin-1 has no en dash
    path = _encoded(box, f"excel-{encoding}.csv", text, encoding)
    done = perfwh(box, "check", path)
    assert done.returncode == 0, done.stderr
    if note:
        assert note in done.stderr and "note" in done.stderr
    done = perfwh(box, "add", path)
    assert done.returncode == 0, done.stderr
    con = duckdb.connect(str(box["db"]), read_only=True)
    platform = con.sql("SELECT DISTINCT platform FROM measurements WHERE source = ?",
                       params=[path.name]).fetchall()
    con.close()
    assert platform == [(text.splitlines()[1].split(",")[2],)]  # the accents survive


def test_semicolon_separated_csv(small_box):
    box = small_box
    text = submission(box["tmp"] / "plain.csv", "semi box").read_text()
    path = box["tmp"] / "semi.csv"
    path.write_text(text.replace(",", ";"))
    done = perfwh(box, "check", path)
    assert done.returncode == 0 and "semicolon" in done.stderr, done.stderr


def test_odd_files_get_clear_messages(box):
    folder = box["tmp"] / "a-folder"
    folder.mkdir()
    done = perfwh(box, "check", folder)
    assert done.returncode == 2 and "is a directory" in done.stderr
    readme = Path(__file__).resolve().parents[1] / "README.md"
    done = perfwh(box, "check", readme)
    assert done.returncode == 2 and "not a report of a known family" in done.stderr
    assert "truncated" not in done.stderr
    binary = box["tmp"] / "image.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    done = perfwh(box, "check", binary)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    # a workbook, named as one or as a CSV: said to be one, with what to save instead
    for name, head in (("lab.xlsx", b"PK\x03\x04\x14\x00\x06\x00"), ("lab.csv", b"PK\x03\x04\x14\x00"),
                       ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")):
        workbook = box["tmp"] / name
        workbook.write_bytes(head + b"\x00" * 64)
        done = perfwh(box, "check", workbook)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
        assert "workbook" in done.stderr and "'CSV UTF-8'" in done.stderr, done.stderr


@pytest.mark.parametrize("name", ["results [1].csv", "star*.csv", "what?.csv", "ünïcode name.csv"])
def test_any_file_name_is_handled(small_box, name):
    box = small_box
    path = submission(box["tmp"] / name, f"name box {len(name)}")
    done = perfwh(box, "add", path)
    assert done.returncode == 0, done.stderr
    assert (box["raw"] / "submissions" / name).read_bytes() == path.read_bytes()
    rebuilt = subprocess.run(PERFWH + ["build", "--rules", "none", "--raw", str(box["raw"]), "--sources",
                                       str(box["sources"]), "--out", str(box["db"]), "-q"],
                             capture_output=True, text=True)
    assert rebuilt.returncode == 0, rebuilt.stderr


def test_hidden_names_are_refused(small_box):
    box = small_box
    path = submission(box["tmp"] / ".hidden.csv", "hidden box")
    done = perfwh(box, "add", path)
    assert done.returncode == 1 and "rename" in done.stderr  # a name that may not be filed


def test_db_must_name_an_existing_warehouse(box, tmp_path):
    path = submission(box["tmp"] / "db.csv", "db box")
    missing = subprocess.run(PERFWH + ["check", str(path), "--db", str(tmp_path / "none.duckdb")],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "no warehouse there" in missing.stderr
    text = tmp_path / "not-a-db.duckdb"
    text.write_text("hello")
    other = subprocess.run(PERFWH + ["check", str(path), "--db", str(text)], capture_output=True, text=True)
    assert other.returncode == 2 and "not a DuckDB database" in other.stderr
    assert "Traceback" not in missing.stderr + other.stderr


def test_sigterm_during_add_leaves_nothing_and_says_so(small_box):
    box = small_box
    path = submission(box["tmp"] / "term.csv", "term box")
    before = state(box)
    proc = start_add(box, path)
    time.sleep(0.8)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 143), err
    assert "Traceback" not in err
    assert outcome(box, path, before) in ("whole", "nothing")



def test_an_interruption_handled_inside_exec_still_exits_130(tmp_path):
    """A Ctrl-C that lands while a library runs exec() of a string (namedtuple and dataclasses
    do, while modules import) is handled by `main` like any other; CPython 3.11 would still end
    `python -m` by SIGINT, without our status, unless the command clears that memory."""
    package = tmp_path / "interrupted_in_exec"
    package.mkdir()
    (package / "__main__.py").write_text(
        "import perfwh.cli as cli\n"
        "def main(argv=None):\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')\n"
        "    except KeyboardInterrupt:\n"
        "        return cli.EXIT_INTERRUPTED\n"
        "cli.main = main\n"
        "cli.run()\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", package.name], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 130, done.stderr



def test_a_stop_is_not_held_by_a_long_computation(tmp_path):
    """A long call into C (here hashlib's, as numpy's LAPACK calls in a big fit) held SIGTERM
    until it returned: Python runs a handler on the main thread between bytecodes. Run through
    `interruptibly`, the work is on a thread of its own and the stop is acted on while it runs
    (without it, this one would take hours: the communicate below would time out)."""
    script = tmp_path / "long_work.py"
    script.write_text(
        "import hashlib, signal, sys\n"
        "from perfwh.core.interrupts import interruptibly\n"
        "def stop(signum, frame):\n"
        "    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGTERM, stop)\n"
        "print('working', flush=True)\n"
        "try:\n"
        "    interruptibly(lambda: hashlib.pbkdf2_hmac('sha256', b'x', b'y', 2**31 - 1))\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped', flush=True)\n"
        "    sys.exit(143)\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "working"
        time.sleep(0.2)  # inside the call
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert (proc.returncode, out.strip(), err) == (143, "stopped", "")


def test_the_models_fit_off_the_main_thread(plain_warehouse, monkeypatch):
    """The fit - minutes of numpy for a big file - runs through `interruptibly`, and gives the
    same tables as ever (the other model tests)."""
    import threading

    import perfwh.stages.models as stage

    on_main: list[bool] = []
    real = stage.fit_all

    def recording(series):
        on_main.append(threading.current_thread() is threading.main_thread())
        return real(series)

    monkeypatch.setattr(stage, "fit_all", recording)
    summary = stage.build_models(plain_warehouse, parquet=False)
    assert on_main == [False] and summary.fitted > 0


# -- after an add, every later stage works and includes the new rows ----------------------

@pytest.mark.slow
def test_after_add_models_size_notebooks_and_site_include_the_new_rows(box):
    path = submission(box["tmp"] / "after.csv", "after box")
    assert perfwh(box, "add", path).returncode == 0
    models = subprocess.run(PERFWH + ["models", "--db", str(box["db"])], capture_output=True, text=True)
    assert models.returncode == 0, models.stderr
    assert "after.csv" in models.stdout  # its scope is in the accuracy summary
    size = subprocess.run(PERFWH + ["size", "--scenario", "ISO 8583 Transformation", "--size", "500",
                                    "--rate", "100", "--platform", "after box", "--json",
                                    "--db", str(box["db"])], capture_output=True, text=True)
    assert size.returncode == 0, size.stderr
    import json

    answer = json.loads(size.stdout)
    assert answer["cores"] > 0 and "after box" in answer["series_label"]
    out = box["tmp"] / "notebooks"
    notebooks = subprocess.run(PERFWH + ["notebooks", "--db", str(box["db"]), "--out", str(out)],
                               capture_output=True, text=True)
    assert notebooks.returncode == 0, notebooks.stderr
    site = subprocess.run(PERFWH + ["site", "--db", str(box["db"]), "--out", str(box["tmp"] / "site"),
                                    "--renderer", "fallback", "-q"], capture_output=True, text=True)
    assert site.returncode == 0, site.stderr
    pages = "".join(p.read_text(encoding="utf-8") for p in (box["tmp"] / "site").rglob("*.html"))
    assert "after.csv" in pages


@pytest.mark.parametrize("rate", ["inf", "nan", "1e999", "-5", "0", "1e12", "fast"])
def test_size_refuses_impossible_rates_with_valid_json(built_warehouse, rate):
    import json

    done = subprocess.run(PERFWH + ["size", "--scenario", "ISO 8583 Transformation", "--size", "1384",
                                    f"--rate={rate}", "--json", "--db", str(built_warehouse)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    answer = json.loads(done.stdout)  # valid JSON, even for an error
    assert answer["cores"] is None and "messages per second" in answer["error"]


# -- the stages that run Jupyter kernels stop like every other ----------------------------

def waiting_for_the_lock(line: str, command: str) -> bool:
    return (line.startswith(f"perfwh {command}: waiting for ")
            or (line.startswith(f"perfwh {command}: the lock is free after ") and line.endswith("going on")))


@pytest.mark.slow
@pytest.mark.parametrize("command, sig, whole_group", [
    ("notebooks", signal.SIGTERM, False),
    ("notebooks", signal.SIGINT, True),   # Ctrl-C in a terminal: the kernels get it too
    ("site", signal.SIGINT, False),
    ("site", signal.SIGTERM, True),
])
def test_a_stop_while_kernels_run_is_one_line_and_leaves_no_kernel(tmp_path, built_warehouse, command,
                                                                    sig, whole_group):
    """nbclient takes SIGINT and SIGTERM for itself on the thread that runs its event loop,
    and puts Python's defaults back, not ours: a stop came out as nbclient's clean-up
    tracebacks with status 1, or killed the process outright. Stopped while its kernels run,
    the command ends with its status and one line, writes nothing, and leaves no kernel."""
    out = tmp_path / "out"
    proc = subprocess.Popen(PERFWH + [command, "--db", str(built_warehouse), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    kernels: set[int] = set()
    while not kernels and proc.poll() is None and time.monotonic() < deadline:
        kernels = kernels_of(proc.pid)
        time.sleep(0.05)
    assert kernels, "no kernel was started"
    time.sleep(0.5)
    kernels |= kernels_of(proc.pid)
    if whole_group:
        import os
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    _out, err = proc.communicate(timeout=120)
    stopped = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated")}[sig]
    # before its kernels started, a site build may have waited for another test's (the
    # project's site/ folder has one writer at a time): those lines are not the stop's
    said = [line for line in err.strip().splitlines() if not waiting_for_the_lock(line, command)]
    assert (proc.returncode, said) == (
        stopped[0], [f"perfwh {command}: {stopped[1]} (what it writes lands whole or not at all)"]), err
    assert not out.exists()
    deadline = time.monotonic() + 10
    while any(alive(k) for k in kernels) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [k for k in kernels if alive(k)], "a kernel outlived the command"
