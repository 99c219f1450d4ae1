"""Reading an import file's lines, one line at a time, so that a bad line can
only ever be rejected itself: it never swallows, shifts or re-decodes another.

- One record per physical line: a quote left open is that line's error
  ("unterminated quote"), not a field running on to the end of the file. (None of
  the formats we read has a field spanning lines: titles and names are one line.)
- Each line must have as many fields as the header: a truncated line, or one
  with a stray comma, is rejected with both counts.
- UTF-8 text, with or without a byte-order mark. A file with no UTF-8 at all but
  some bytes that are not (an old spreadsheet's Windows-1252 export) is read as
  Windows-1252 and said so; otherwise a line that is not UTF-8 is rejected, and
  the others are read as they are.

And the reviewed lists the project ships beside its code (catalog/data/*.csv, keyed
by bgg_id), read line by line by the modules that own them (``by_bgg_id``).
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


class ImportFileError(ValueError):
    """A file that is not one of the formats we read; nothing was imported."""


@dataclass
class Line:
    number: int
    message: str


@dataclass
class ReadFile:
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (line number, fields) of the readable lines
    rejected: list[Line] = field(default_factory=list)
    encoding: str = "utf-8"

    @property
    def lines(self) -> int:
        """Non-blank lines after the header, readable or not."""
        return len(self.rows) + len(self.rejected)


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    return "".join(ch for ch in text if ch == "\t" or unicodedata.category(ch) != "Cc")


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _fields(text: str) -> list[str]:
    try:
        return next(csv.reader([text], strict=True), [])
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            raise ValueError("unterminated quote: a field opened with \" is not closed on this line") from None
        raise ValueError(f"badly quoted field ({exc}): a field in quotes must be followed by a comma") from None


def read(raw: bytes, name: str) -> ReadFile:
    """The header and the readable lines of ``raw``; the others as rejected lines."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    lines = raw.splitlines()
    skipped = 0
    while lines and not lines[0].strip():
        lines.pop(0)
        skipped += 1
    if not lines:
        raise ImportFileError(f"{name} is empty")
    non_ascii = [line for line in lines if not line.isascii()]
    encoding = "utf-8"
    if non_ascii and not any(_is_utf8(line) for line in non_ascii):
        encoding = "cp1252"
    first = lines[0]
    try:
        header = [h.strip() for h in _fields(_clean(first.decode(encoding, errors="strict")))]
    except (UnicodeDecodeError, ValueError) as exc:
        raise ImportFileError(f"{name}: the header line cannot be read ({exc})") from None
    if not header:
        raise ImportFileError(f"{name} is empty")
    out = ReadFile(header=header, rows=[], encoding=encoding)
    # Line numbers as an editor shows them (the header is line 1, blank lines count).
    for index, data in enumerate(lines[1:], start=skipped + 2):
        if not data.strip():
            continue
        try:
            text = data.decode(encoding, errors="strict")
        except UnicodeDecodeError as exc:
            out.rejected.append(Line(index, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at column {exc.start + 1}); "
                                            "save the file as UTF-8"))
            continue
        try:
            row = _fields(_clean(text))
        except ValueError as exc:
            out.rejected.append(Line(index, str(exc)))
            continue
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            what = "truncated line?" if len(row) < len(header) else "a comma in a field without quotes?"
            out.rejected.append(Line(index, f"{len(row)} fields instead of {len(header)} ({what})"))
            continue
        out.rows.append((index, row))
    return out


def by_bgg_id(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """The lines of a reviewed list the project ships (catalog/data/*.csv, a header
    naming ``bgg_id``), each with its game's id; a line whose id is not a number is
    skipped, never fatal: each list's test keeps the shipped file clean."""
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            bgg_id = (row.get("bgg_id") or "").strip()
            if bgg_id.isdigit():
                yield int(bgg_id), row
