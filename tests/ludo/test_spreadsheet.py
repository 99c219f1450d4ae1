"""CSV exports escape cells for spreadsheets, through one shared writer (issue 18, finding 9)."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

from ludo.spreadsheet import SafeWriter, safe_cell

ROOT = Path(__file__).resolve().parents[2]


def test_cells_a_spreadsheet_would_run_get_an_apostrophe():
    for text in ("=1+2", "+33 6 12", "-2+3", "@SUM(A1)", "\tx", "\rx", "=cmd@example.org"):
        assert safe_cell(text) == "'" + text
    for text in ("Zoë", "a=b", "zoe@example.org", "", " =x"):
        assert safe_cell(text) == text
    assert safe_cell(-3) == -3 and safe_cell(Decimal("-1.5")) == Decimal("-1.5") and safe_cell(None) == ""


def test_the_writer_escapes_every_cell():
    out = io.StringIO()
    SafeWriter(out).writerow(["=HYPERLINK(\"http://evil\")", "-x@example.org", 2])
    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["'=HYPERLINK(\"http://evil\")", "'-x@example.org", "2"]


def test_every_csv_export_uses_the_shared_writer():
    """No csv.writer / DictWriter of its own anywhere in the project's code."""
    offenders = []
    for folder in ("ludo", "games", "catalog"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "spreadsheet.py" and path.parent.name == "ludo":
                continue
            if re.search(r"csv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8")):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
