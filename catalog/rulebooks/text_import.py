"""Text exports (.txt, .md) of rulebooks: one validation for the admin and for
``manage.py import_rulebook``, so that both refuse the same files with the same words
and make the same document of the others.

A text export is read as UTF-16 when it starts with a byte-order mark, else as UTF-8,
else as Windows-1252 (catalog.text.decode_text). It is refused when it is empty,
larger than the upload limit, not named .txt or .md, binary, in an encoding that
leaves control characters behind (a DOS code page, UTF-16 without its mark), or
without any text.
"""

from __future__ import annotations

from catalog import text as textlib
from catalog.errors import CatalogError
from catalog.rulebooks.uploads import Upload, max_upload_bytes

TEXT_SUFFIXES = (".txt", ".md")
_BOMS = (b"\xff\xfe", b"\xfe\xff")


def is_text_name(name: str) -> bool:
    return name.lower().endswith(TEXT_SUFFIXES)


def read_text_upload(upload: Upload) -> str:
    """The export's text, or CatalogError saying why it is refused."""
    name = upload.name
    if not is_text_name(name):
        raise CatalogError(f"{name}: a text export is a .txt or .md file")
    if not upload.data:
        raise CatalogError(f"{name}: the file is empty")
    if len(upload.data) > max_upload_bytes():
        raise CatalogError(f"{name}: larger than {max_upload_bytes() // (1024 * 1024)} MB")
    if upload.data.startswith(_BOMS):
        try:
            text = upload.data.decode("utf-16")
        except UnicodeDecodeError:
            raise CatalogError(f"{name}: not valid UTF-16 text") from None
        text = textlib.decode_text(text.encode("utf-8"))
    else:
        head = upload.data[:4096]
        controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
        if controls > len(head) // 10:
            raise CatalogError(
                f"{name}: this looks like a binary file, not a text (a text export is saved as UTF-8)"
            )
        # C1 control characters left after decoding: bytes Windows-1252 does not define,
        # typically a DOS code page (ü is 0x81 in CP850).
        raw = _decode(upload.data)
        strays = sum(1 for c in raw if "\x80" <= c <= "\x9f")
        if strays:
            raise CatalogError(
                f"{name}: the text is in an encoding we cannot read ({strays} stray control characters); "
                "save it as UTF-8"
            )
        text = textlib.decode_text(upload.data)
    if not text.strip():
        raise CatalogError(f"{name}: no text in this file")
    return text


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return ""  # latin-1 never fails
