"""The raw layer's manifest (data/raw/sources.yml): reading, checking, checksums."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

REQUIRED = ("file", "family", "sha256", "title", "published", "origin", "retrieved",
            "products", "platforms")
PLATFORM_FIELDS = ("label", "os", "hardware", "cpu_model", "cores", "deployment")
PRODUCT_FIELDS = ("name", "short", "version")


class SourceError(ValueError):
    """The manifest or a raw file is not what it should be."""


@dataclass(frozen=True)
class ReportSource:
    file: str
    family: str
    sha256: str
    entry: dict = field(hash=False, compare=False)

    @property
    def products(self) -> dict[str, dict]:
        return self.entry["products"]

    @property
    def platforms(self) -> dict[str, dict]:
        return self.entry["platforms"]


def load_manifest(path: Path) -> list[ReportSource]:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise SourceError(f"{path}: cannot read the manifest: {err}") from None
    reports = (data or {}).get("reports")
    if not isinstance(reports, list) or not reports:
        raise SourceError(f"{path}: expected a 'reports:' list")
    out, seen = [], set()
    for number, entry in enumerate(reports, 1):
        missing = [key for key in REQUIRED if key not in entry]
        if missing:
            raise SourceError(f"{path}: report #{number} lacks {', '.join(missing)}")
        if entry["file"] in seen:
            raise SourceError(f"{path}: {entry['file']} is listed twice")
        seen.add(entry["file"])
        for key, platform in entry["platforms"].items():
            lacking = [f for f in PLATFORM_FIELDS if f not in platform]
            if lacking:
                raise SourceError(f"{path}: {entry['file']} platform {key} lacks {', '.join(lacking)}")
        for key, product in entry["products"].items():
            lacking = [f for f in PRODUCT_FIELDS if f not in product]
            if lacking:
                raise SourceError(f"{path}: {entry['file']} product {key} lacks {', '.join(lacking)}")
        out.append(ReportSource(entry["file"], entry["family"], str(entry["sha256"]), entry))
    return out


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


def find_raw(raw_dir: Path, name: str) -> Path:
    """Raw reports live under data/raw/ (in any sub-folder), by their original file name."""
    matches = sorted(p for p in Path(raw_dir).rglob(name) if p.is_file())
    if not matches:
        return Path(raw_dir) / "reports" / name
    if len(matches) > 1:
        raise SourceError(f"{raw_dir}: {name} exists more than once: "
                          + ", ".join(str(m) for m in matches))
    return matches[0]
