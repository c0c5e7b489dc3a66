"""Text-layer PDFs to `Line`s with pdfplumber: the same lines the text reports give.

Lines are numbered through the whole document (1-based) and keep their page.
pdfplumber's ``extract_tables`` misreads tables drawn without rules, which is most
of these reports, so the parsers read the text lines instead.
"""
from __future__ import annotations

from pathlib import Path

from .records import Line, ParseError


def pdf_lines(path: Path) -> list[Line]:
    import pdfplumber

    lines: list[Line] = []
    try:
        with pdfplumber.open(path) as pdf:
            for page_number, page in enumerate(pdf.pages, 1):
                text = page.extract_text(x_tolerance=1.5, y_tolerance=3) or ""
                for raw in text.split("\n"):
                    lines.append(Line(len(lines) + 1, raw, page_number))
    except ParseError:
        raise
    except Exception as err:  # pdfminer raises many types for damaged files
        raise ParseError(f"cannot read the PDF: {err}", None, str(path),
                         expected="a PDF with a text layer") from None
    if not any(line.text.strip() for line in lines):
        raise ParseError("the PDF has no text layer (scanned?)", 1, str(path),
                         expected="a PDF with a text layer")
    return lines
