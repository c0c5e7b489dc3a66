"""`perfwh add PATH`: file a checked submission into the raw layer and rebuild.

A submission with error findings is refused unless each error is waived by its id with a
reason; the waivers are stored with its sources.yml entry (and show in dq_findings after
the rebuild). The submission is copied to data/raw/submissions/ under its own name and
recorded in sources.yml with its sha256, origin and date; then the warehouse is rebuilt.
If anything fails, the copy and the manifest are restored: a failed add changes nothing.
"""
from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import yaml

from ingest import submission as template

from .check import CheckResult, SubmissionError, check, format_line
from .dq import finding_id
from .sources import load_manifest, sha256_of


class AddError(RuntimeError):
    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


def add(path: Path, waivers: dict[str, str], warehouse: Path, sources_file: Path,
        today: dt.date | None = None) -> str:
    from .build import BuildError, build

    path = Path(path)
    try:
        result = check(path, warehouse=warehouse, sources_file=sources_file)
    except SubmissionError as err:
        raise AddError(f"cannot read the submission: {err}", status=2) from None
    ids = {finding_id(f) for f in result.findings}
    unknown = sorted(set(waivers) - ids)
    if unknown:
        raise AddError("no finding has the id " + ", ".join(unknown)
                       + " (ids are rule@line:metric; see perfwh check --json)", status=2)
    blocking = [f for f in result.errors if finding_id(f) not in waivers]
    if blocking:
        listing = "\n".join(f"  [{finding_id(f)}] {format_line(f)}" for f in blocking)
        raise AddError(f"refused: {len(blocking)} unwaived error(s) in {path}:\n{listing}\n"
                       "Correct the submission, or waive each with --waive ID --reason TEXT.")
    raw_dir = Path(sources_file).parent
    clash = next((p for p in raw_dir.rglob(path.name) if p.is_file()), None)
    if clash is not None:
        raise AddError(f"{clash} already exists; give the submission a name of its own")
    today = today or dt.date.today()
    entry = _entry(result, path, waivers, today, sources_file)
    target = raw_dir / "submissions" / path.name
    manifest_text = Path(sources_file).read_text(encoding="utf-8")
    new_manifest = manifest_text.rstrip("\n") + "\n\n" + _as_list_item(entry)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp_copy = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    tmp_manifest = Path(sources_file).with_name(f".sources.yml.tmp-{os.getpid()}")
    try:
        shutil.copyfile(path, tmp_copy)
        tmp_manifest.write_text(new_manifest, encoding="utf-8")
        load_manifest(tmp_manifest)  # the new manifest must read back
        os.replace(tmp_copy, target)
        os.replace(tmp_manifest, sources_file)
        try:
            build(out=warehouse, raw_dir=raw_dir, sources_file=sources_file, rules="duckdb",
                  progress=False)
        except BuildError as err:
            Path(sources_file).write_text(manifest_text, encoding="utf-8")
            target.unlink(missing_ok=True)
            raise AddError(f"the rebuild failed, nothing was changed: {err}") from None
    finally:
        tmp_copy.unlink(missing_ok=True)
        tmp_manifest.unlink(missing_ok=True)
    waived = f", {len(waivers)} waived finding(s)" if waivers else ""
    return (f"added {target} ({result.rows} rows{waived}); sources.yml updated and the "
            f"warehouse rebuilt")


def _entry(result: CheckResult, path: Path, waivers: dict[str, str], today: dt.date,
           sources_file: Path) -> dict:
    entry: dict = {"file": path.name}
    if result.kind == "report":
        borrowed = next(s for s in load_manifest(sources_file) if s.family == result.family)
        base = borrowed.entry
        entry.update(family=result.family, sha256=sha256_of(path),
                     title=f"{base['title']} (revised edition)",
                     edition=f"revision submitted {today.isoformat()}",
                     published=str(base["published"]),
                     document_id=base.get("document_id"),
                     origin=f"submitted with perfwh add; platform and product facts borrowed "
                            f"from {base['file']}",
                     retrieved=today.isoformat(), products=base["products"],
                     platforms=base["platforms"])
    else:
        entry.update(family=template.FAMILY, sha256=sha256_of(path),
                     title=f"Submitted results {path.name}", edition=None,
                     published=today.isoformat(), document_id=None,
                     document_id_note="a submission in the CSV template",
                     origin="submitted with perfwh add", retrieved=today.isoformat(),
                     **_csv_dimensions(path))
    found = {finding_id(f): f for f in result.findings}
    if waivers:
        entry["waivers"] = [{"id": key, "reason": reason, "rule": found[key]["rule"],
                             "line": found[key]["source_line"], "message": found[key]["message"]}
                            for key, reason in sorted(waivers.items())]
    return entry


def _csv_dimensions(path: Path) -> dict:
    """Products and platforms of a CSV submission, keyed as ingest.submission keys them."""
    import csv

    products, platforms = {}, {}
    with open(path, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            row = {k.strip().lstrip("\ufeff"): (v or "").strip() for k, v in row.items() if k}
            if not row.get("product"):
                continue
            products[template.product_key(row["product"], row["product_version"])] = {
                "name": row["product"], "short": row["product"],
                "version": row["product_version"], "fix_pack": None}
            key = template.slug(row["platform"])
            cores = int(row["server_cores"]) if row.get("server_cores", "").isdigit() else None
            known = platforms.setdefault(key, {
                "label": row["platform"], "os": None, "hardware": None, "cpu_model": None,
                "cores": cores, "deployment": "unknown",
                "cores_note": "as submitted"})
            if known["cores"] != cores:
                known["cores"], known["cores_note"] = None, "the submission gives several core counts"
    return {"products": products, "platforms": platforms}


def _as_list_item(entry: dict) -> str:
    text = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True, width=100)
    return "".join("  " + line if line.strip() else line for line in text.splitlines(True))
