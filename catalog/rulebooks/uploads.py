"""Files handed to the rulebooks (scans, text exports): checked by their bytes and
size before anything is saved, then stored under a random name (catalog.media)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile

from catalog.errors import CatalogError
from catalog.rulebooks.extraction import sniff_content_type
from catalog.rulebooks.models import Document, DocumentFile


def max_upload_bytes() -> int:
    return settings.LUDO_MAX_UPLOAD_BYTES


@dataclass
class Upload:
    name: str
    data: bytes


def check_upload(upload: Upload, allow_text: bool = False) -> str:
    if not upload.data:
        raise CatalogError(f"{upload.name}: the file is empty")
    if len(upload.data) > max_upload_bytes():
        raise CatalogError(f"{upload.name}: larger than {max_upload_bytes() // (1024 * 1024)} MB")
    kind = sniff_content_type(upload.data)
    if kind is None and allow_text and upload.name.lower().endswith((".txt", ".md")):
        return "text/plain"
    if kind is None:
        raise CatalogError(f"{upload.name}: neither a PDF nor an image we can read")
    return kind


def store_file(document: Document, upload: Upload, content_type: str, position: int) -> DocumentFile:
    row = DocumentFile(
        document=document, position=position, original_name=upload.name[:255], content_type=content_type,
        size=len(upload.data), sha256=hashlib.sha256(upload.data).hexdigest(),
    )
    # Stored under a random name with the extension of content_type (the model's upload_to).
    row.file.save("upload", ContentFile(upload.data), save=False)
    row.save()
    return row
