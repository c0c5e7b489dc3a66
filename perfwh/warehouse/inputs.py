"""The sources a warehouse is built from, read into `SourceInput`s: the one reader per input kind.

A report is read by its family's parser (`ingest.families`); a CSV submission is sniffed here
and read by the submission reader when it is loaded (`load.load_csv`). `perfwh build` reads
every source of sources.yml this way, `perfwh check` reads the submitted file this way.
"""
from __future__ import annotations

from pathlib import Path

from ingest import families, submission
from ingest.reader import read_lines
from ingest.records import ParsedReport

from .load import CsvSubmission, LoadedReport, RetiredSource, SourceInput
from .sources import ReportSource, SourceError, find_raw, load_manifest, verify


def read_input(source: ReportSource, path: Path) -> SourceInput:
    """One source's file, as the warehouse loads it. Raises ParseError or SourceError."""
    if source.is_csv:
        fmt = submission.sniff(path)
        return CsvSubmission(source, Path(path), fmt)
    lines = read_lines(path)
    parsed = families.parse(source.family, lines, source.file)
    check_keys(source, parsed)
    return LoadedReport(source, parsed, len(lines))


def read_manifest(raw_dir: Path, sources_file: Path, progress=None) -> list[SourceInput]:
    """Verify and read every source of the manifest (retired ones excepted); pure of any
    warehouse."""
    inputs = []
    for source in load_manifest(sources_file):
        path = find_raw(raw_dir, source.file)
        verify(source, path)
        read = RetiredSource(source) if source.retired_by else read_input(source, path)
        inputs.append(read)
        if progress:
            progress.step(f"{'read' if source.is_csv else 'parsed'} {source.file}: {describe(read)}")
    return inputs


def describe(read: SourceInput) -> str:
    if isinstance(read, RetiredSource):
        return f"retired (replaced by {read.source.retired_by})"
    if isinstance(read, LoadedReport):
        return f"{len(read.parsed.tables)} tables, {len(read.parsed.observations)} values"
    return "a CSV submission" + (f" ({read.format.note})" if read.format and read.format.note else "")


def check_keys(source: ReportSource, parsed: ParsedReport) -> None:
    """Every product and platform a report's rows name must be one sources.yml records."""
    for o in parsed.observations:
        if o.product not in source.products:
            raise SourceError(f"{source.file}:{o.row_line}: product {o.product!r} is not in "
                              f"sources.yml (known: {', '.join(source.products)})")
        if o.platform not in source.platforms:
            raise SourceError(f"{source.file}:{o.row_line}: platform {o.platform!r} is not in "
                              f"sources.yml (known: {', '.join(source.platforms)})")
