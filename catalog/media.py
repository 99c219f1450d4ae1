"""Private media: names nobody can guess, types read from the bytes, files served
only by views that check who may see them.

Every file of the catalogue (scans and text exports of rulebooks, the page images
made from them, game covers) is stored under MEDIA_ROOT with a random name and the
extension of the type its first bytes show (never the one the uploader chose), so
a file cannot be found by guessing its address, nor run as a page by a server
that goes by the extension. Nothing of MEDIA_ROOT is served directly: a view looks
the file up, checks permission, and answers with :func:`serve`, which, following
``settings.MEDIA_SERVE``, sends the file itself (``django``, the default), or lets
the reverse proxy send it from an internal location (``nginx``: X-Accel-Redirect;
``sendfile``: X-Sendfile for Apache or lighttpd).
"""

from __future__ import annotations

import secrets
from pathlib import PurePosixPath
from urllib.parse import quote

from django.conf import settings
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.utils.http import content_disposition_header

EXTENSIONS = {
    "application/pdf": "pdf",
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/webp": "webp",
    "image/tiff": "tiff",
    "image/gif": "gif",
    "text/plain": "txt",
}
UNKNOWN = "application/octet-stream"
HEAD_BYTES = 16
# A served file runs nothing, loads nothing and is never read as another type.
FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"


def sniff(head: bytes) -> str | None:
    """The type the first bytes of a file show (its magic number), None when unknown."""
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "image/tiff"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    return None


def sniff_field(field_file) -> str | None:
    """The type of a file being saved through a model field (a form's upload), None
    when the field holds no new file."""
    if getattr(field_file, "_committed", True):
        return None
    handle = field_file.file
    position = handle.tell() if hasattr(handle, "tell") else 0
    handle.seek(0)
    head = handle.read(HEAD_BYTES)
    handle.seek(position)
    return sniff(head)


def random_name(folder: str, content_type: str | None) -> str:
    """``folder/<22 random characters>.<extension of content_type>``."""
    extension = EXTENSIONS.get(content_type or "", "bin")
    return f"{folder}/{secrets.token_urlsafe(16)}.{extension}"


def is_random_name(name: str) -> bool:
    """True for a name :func:`random_name` made (the data migration leaves those alone)."""
    path = PurePosixPath(name)
    stem = path.stem
    return len(stem) == 22 and all(c.isalnum() or c in "-_" for c in stem) and path.suffix[1:] in {
        *EXTENSIONS.values(), "bin"}


def download_name(original: str, content_type: str) -> str:
    """The name a file is offered under: what its uploader called it, with the
    extension of its real type."""
    stem = PurePosixPath(original or "file").stem or "file"
    return f"{stem}.{EXTENSIONS.get(content_type, 'bin')}"


def serve(
    request: HttpRequest, field_file: FieldFile, *, filename: str = "", attachment: bool = False,
    text: bool = False,
) -> HttpResponse:
    """The file of ``field_file`` (permission already checked by the caller);
    ``text``: a text export, served as UTF-8 text when its bytes are no known type."""
    if not field_file:
        raise Http404
    try:
        path = field_file.path
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except (FileNotFoundError, IsADirectoryError, NotImplementedError):
        raise Http404 from None
    content_type = sniff(head[:HEAD_BYTES]) or ("text/plain" if text else UNKNOWN)
    if content_type == "text/plain":
        content_type = "text/plain; charset=utf-8"
    # A PDF opens in the reader's own viewer: browsers refuse to run their PDF
    # viewer in a sandboxed document.
    attachment = attachment or content_type in ("application/pdf", UNKNOWN)
    mode = settings.MEDIA_SERVE
    if mode == "django":
        response: HttpResponse = FileResponse(open(path, "rb"), content_type=content_type)
    else:
        response = HttpResponse(content_type=content_type)
        if mode == "nginx":
            response["X-Accel-Redirect"] = settings.MEDIA_INTERNAL_URL + quote(field_file.name)
        else:
            response["X-Sendfile"] = str(path)
    filename = filename or PurePosixPath(path).name
    response["Content-Disposition"] = content_disposition_header(attachment, filename)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = FILE_CSP
    response["Cache-Control"] = "private, max-age=3600"
    return response

