"""The raw layer's manifest (data/raw/sources.yml): reading, checking, checksums."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ingest.printable import OneLineMessage
from ingest.reader import read_lines
from perfwh.core import yamltext
from perfwh.core.paths import RAW_REPORTS

REQUIRED = ("file", "family", "sha256", "title", "published", "origin", "retrieved")
# A report's products and platforms are facts the manifest records; a CSV submission states
# its own in its rows (the submission reader derives them), so its entry carries none.
REPORT_REQUIRED = ("products", "platforms")
SUBMISSION_FAMILY = "submission"
PLATFORM_FIELDS = ("label", "os", "hardware", "cpu_model", "cores", "deployment")
PRODUCT_FIELDS = ("name", "short", "version")


class SourceError(OneLineMessage, ValueError):
    """The manifest or a raw file is not what it should be."""


@dataclass(frozen=True)
class ReportSource:
    file: str
    family: str
    sha256: str
    entry: dict = field(hash=False, compare=False)
    # Position in sources.yml (1-based): the order sources were filed in. A later source
    # that disagrees with an earlier one is the one flagged.
    filed_order: int = 0

    @property
    def products(self) -> dict[str, dict]:
        return self.entry.get("products") or {}

    @property
    def platforms(self) -> dict[str, dict]:
        return self.entry.get("platforms") or {}

    @property
    def is_csv(self) -> bool:
        return self.family == SUBMISSION_FAMILY

    @property
    def retired_by(self) -> str | None:
        """The source that replaced this one (`perfwh add --revision-of`), if any."""
        return (self.entry.get("retired") or {}).get("by")


def load_manifest(path: Path) -> list[ReportSource]:
    try:
        data = yamltext.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise SourceError(f"{path}: cannot read the manifest: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise SourceError(f"{path}: cannot read the manifest: not UTF-8 text ({err.reason})") from None
    except yaml.YAMLError as err:
        raise SourceError(f"{path}: cannot read the manifest: {_yaml_problem(err)}") from None
    if not isinstance(data, (dict, type(None))):
        raise SourceError(f"{path}: expected a 'reports:' list")
    reports = (data or {}).get("reports")
    if not isinstance(reports, list) or not reports:
        raise SourceError(f"{path}: expected a 'reports:' list")
    out, seen = [], set()
    for number, entry in enumerate(reports, 1):
        if not isinstance(entry, dict):
            raise SourceError(f"{path}: report #{number} is not a mapping of fields (file:, family:, ...)")
        required = REQUIRED + (() if entry.get("family") == SUBMISSION_FAMILY else REPORT_REQUIRED)
        missing = [key for key in required if key not in entry]
        if missing:
            raise SourceError(f"{path}: report #{number} lacks {', '.join(missing)}")
        if not isinstance(entry["file"], str) or not entry["file"].strip():
            raise SourceError(f"{path}: report #{number}'s file is not a file name")
        if entry["file"] in seen:
            raise SourceError(f"{path}: {entry['file']} is listed twice")
        seen.add(entry["file"])
        for kinds_key in ("platforms", "products"):
            kinds = entry.get(kinds_key) or {}
            if not isinstance(kinds, dict) or not all(isinstance(v, dict) for v in kinds.values()):
                raise SourceError(f"{path}: {entry['file']} {kinds_key} is not a mapping of keys to "
                                  "their fields")
        for key, platform in (entry.get("platforms") or {}).items():
            lacking = [f for f in PLATFORM_FIELDS if f not in platform]
            if lacking:
                raise SourceError(f"{path}: {entry['file']} platform {key} lacks {', '.join(lacking)}")
        for key, product in (entry.get("products") or {}).items():
            lacking = [f for f in PRODUCT_FIELDS if f not in product]
            if lacking:
                raise SourceError(f"{path}: {entry['file']} product {key} lacks {', '.join(lacking)}")
        out.append(ReportSource(entry["file"], entry["family"], str(entry["sha256"]), entry, number))
    return out


def _yaml_problem(err: Exception) -> str:
    """A YAML error in one line: where, and what the parser expected."""
    mark = getattr(err, "problem_mark", None)
    problem = getattr(err, "problem", None) or str(err).splitlines()[0]
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"{where}{problem} (not valid YAML)"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(source: ReportSource, path: Path) -> None:
    """Refuse a raw file that is missing or whose bytes changed since it was recorded."""
    if not path.is_file():
        raise SourceError(f"{path}: raw report listed in sources.yml is missing")
    actual = sha256_of(path)
    if actual != source.sha256:
        raise SourceError(f"{path}: sha256 {actual} does not match sources.yml ({source.sha256}); "
                          "raw reports are never edited: restore the file or record a new source")


def raw_line(raw_dir: Path, name: str, line: int) -> str | None:
    """Line ``line`` of the raw file ``name`` as the build reads it (a text, or a PDF's text
    layer), found where the raw layer keeps it - a report under reports/, a submission or a
    revised edition under submissions/; None if the file or the line is not there."""
    path = find_raw(raw_dir, name)
    if not path.is_file():
        return None
    lines = read_lines(path)
    return lines[line - 1].text if 0 < line <= len(lines) else None


def find_raw(raw_dir: Path, name: str) -> Path:
    """Raw reports live under data/raw/ (in any sub-folder), by their original file name."""
    # by exact name: a file name may hold characters glob patterns treat specially ([ ] * ?)
    matches = sorted(p for p in Path(raw_dir).rglob("*") if p.name == name and p.is_file())
    if not matches:
        return Path(raw_dir) / RAW_REPORTS / name
    if len(matches) > 1:
        raise SourceError(f"{raw_dir}: {name} exists more than once: "
                          + ", ".join(str(m) for m in matches))
    return matches[0]


# -- changing the manifest's text (comments and layout kept) --------------------------------

def with_entry(manifest_text: str, entry: dict) -> str:
    """The manifest's text with ``entry`` appended to its reports list, indented as the
    manifest indents its entries (YAML allows the list at the key's own column, as
    yaml.safe_dump writes it, or indented)."""
    item = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True, width=100)
    entries = re.findall(r"^([ \t]*)- file:", manifest_text, flags=re.MULTILINE)
    indent = entries[-1] if entries else "  "
    item = "".join(indent + line if line.strip() else line for line in item.splitlines(True))
    return manifest_text.rstrip("\n") + "\n\n" + item


def with_retired(manifest_text: str, file: str, by: str, on: str) -> str:
    """The manifest's text with the entry of ``file`` marked as retired by ``by``."""
    lines = manifest_text.split("\n")
    for number, line in enumerate(lines):
        match = re.match(r"^(\s*)- file:\s*(.+?)\s*$", line)
        if match and yamltext.safe_load(match.group(2)) == file:
            value = yaml.safe_dump({"by": by, "on": on}, default_flow_style=True,
                                   allow_unicode=True, width=1000).strip()
            lines.insert(number + 1, f"{match.group(1)}  retired: {value}")
            return "\n".join(lines)
    raise SourceError(f"sources.yml lists no source {file!r}")
