"""Request bodies and uploaded files within limits, refused before they are read.

Two guards, because Django reads a whole request body before any view runs
(under ASGI into a temporary file, then once more into the uploaded files):

- :class:`RequestBodyLimit`, around the ASGI application: a body announced larger
  than ``LUDO_MAX_REQUEST_BYTES`` (Content-Length) is answered 413 before a byte of
  it is read; one that turns out larger as it streams (chunked, or a lying
  Content-Length) is cut off at the limit and answered 413 the same way.
- :class:`LimitedUploadHandler`, the first of Django's upload handlers: a file past
  ``LUDO_MAX_UPLOAD_BYTES`` stops being stored at the limit and arrives in the form
  as a :class:`TooLargeFile` with no content, which the form refuses with the
  reason (catalog.rulebooks.admin); nothing is saved.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.utils import translation
from django.utils.translation import gettext as _


def megabytes(size: int) -> int:
    return size // (1024 * 1024)


class BodyTooLarge(Exception):
    pass


class RequestBodyLimit:
    """ASGI middleware: HTTP request bodies of at most ``settings.LUDO_MAX_REQUEST_BYTES``."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = settings.LUDO_MAX_REQUEST_BYTES
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = 0
                if announced > limit:
                    return await self.refuse(send, limit)
        received = 0
        started = False

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        async def watched_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except BodyTooLarge:
            if not started:
                await self.refuse(send, limit)

    @staticmethod
    async def refuse(send, limit: int) -> None:
        with translation.override(settings.LANGUAGE_CODE):
            text = _("The request is too large: at most %(size)d MB.") % {"size": megabytes(limit)}
        body = (text + "\n").encode("utf-8")
        await send({
            "type": "http.response.start", "status": 413,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        })
        await send({"type": "http.response.body", "body": body})


class TooLargeFile(UploadedFile):
    """An uploaded file that went past the limit: its name and the bytes seen, no content."""

    too_large = True

    def __init__(self, name: str, content_type: str, size: int) -> None:
        super().__init__(None, name, content_type, size)

    def read(self, *args) -> bytes:
        return b""  # nothing was kept


class LimitedUploadHandler(FileUploadHandler):
    """Passes a file's chunks on to the next handlers up to ``LUDO_MAX_UPLOAD_BYTES``,
    then drops the rest of it and hands a :class:`TooLargeFile` to the form."""

    def new_file(self, *args, **kwargs) -> None:
        super().new_file(*args, **kwargs)
        self.seen = 0
        self.too_large = False

    def receive_data_chunk(self, raw_data: bytes, start: int):
        self.seen += len(raw_data)
        if self.seen > settings.LUDO_MAX_UPLOAD_BYTES:
            self.too_large = True
        return None if self.too_large else raw_data

    def file_complete(self, file_size: int):
        if self.too_large:
            return TooLargeFile(self.file_name, self.content_type, self.seen)
        return None


def too_large_message(name: str) -> str:
    return _("%(name)s: larger than %(size)d MB; nothing was saved.") % {
        "name": name, "size": megabytes(settings.LUDO_MAX_UPLOAD_BYTES)}


def check_size(uploaded) -> None:
    """ValidationError for an upload past the limit (a :class:`TooLargeFile`)."""
    from django.core.exceptions import ValidationError

    if getattr(uploaded, "too_large", False) or (uploaded.size or 0) > settings.LUDO_MAX_UPLOAD_BYTES:
        raise ValidationError(too_large_message(uploaded.name), code="too_large")


class LimitedImageField(forms.ImageField):
    """An image upload refused with the reason when it was past the limit."""

    def to_python(self, data):
        if data:
            check_size(data)
        return super().to_python(data)
