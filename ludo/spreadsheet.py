"""CSV for spreadsheets: every export goes through this writer, which escapes the
cells a spreadsheet program would run as formulas (OWASP's CSV injection advice).

A text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
gets a leading apostrophe: the spreadsheet shows the text as typed and runs
nothing. Numbers (int, float, Decimal) are written as they are.

    response = csv_response("session-12.csv")
    writer = SafeWriter(response)
    writer.writerow(["Name", "Email"])
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from decimal import Decimal

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """The cell as a spreadsheet should get it (see the module's docstring)."""
    if value is None:
        return ""
    if isinstance(value, (bool, int, float, Decimal)):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class SafeWriter:
    """``csv.writer`` whose every cell goes through :func:`safe_cell`."""

    def __init__(self, stream, **options) -> None:
        self._writer = csv.writer(stream, **options)

    def writerow(self, row: Iterable) -> None:
        self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable]) -> None:
        for row in rows:
            self.writerow(row)


def csv_response(filename: str) -> HttpResponse:
    """An attachment response for a CSV file, with the byte-order mark that lets
    spreadsheet programs read UTF-8 as such."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    return response
