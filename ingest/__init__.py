"""Parsers that turn IBM middleware performance reports into normalised rows.

One module per report family, each exposing ``parse(lines) -> ParsedReport``;
`ingest.families` lists them; `ingest.reader` turns text or PDF files into lines.
"""
