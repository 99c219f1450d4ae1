"""Upload size checked before reading (issue 18, finding 9): a request body past the
limit is refused before it is read (a 200 MB upload was read whole, daphne reached
2.65 GB), a file past the limit stops being stored at the limit, and the form says
why with nothing saved."""

from __future__ import annotations

import asyncio
import io
import resource

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.http.multipartparser import MultiPartParser
from django.test import RequestFactory
from PIL import Image

from catalog.collection.models import Game
from catalog.rulebooks.models import Document, DocumentFile
from ludo import uploads

MB = 1024 * 1024
CHUNK = 64 * 1024


def png(size=(30, 20)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "white").save(buffer, "PNG")
    return buffer.getvalue()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def post_streamed(total: int, *, announce: bool) -> tuple[int, int, bytes]:
    """POST ``total`` bytes to the site's ASGI application in 64 kB chunks made on
    demand; returns the status, how many bytes the application took, and the body."""
    from ludo.asgi import application

    taken = 0
    headers = [(b"host", b"testserver"), (b"content-type", b"multipart/form-data; boundary=xyz")]
    if announce:
        headers.append((b"content-length", str(total).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/admin/catalog/document/add/", "raw_path": b"/admin/catalog/document/add/",
             "query_string": b"", "root_path": "", "headers": headers, "client": ("127.0.0.1", 5000),
             "server": ("testserver", 80)}
    chunk = b"x" * CHUNK
    sent: list[dict] = []

    async def receive():
        nonlocal taken
        if taken >= total:
            await asyncio.sleep(3600)  # the client has nothing more to say
        taken += CHUNK
        return {"type": "http.request", "body": chunk, "more_body": taken < total}

    async def send(message):
        sent.append(message)

    await asyncio.wait_for(application(scope, receive, send), 120)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, taken, body


@pytest.mark.django_db(transaction=True)
async def test_an_announced_200_mb_body_is_refused_before_a_byte_is_read(settings):
    status, taken, body = await post_streamed(200 * MB, announce=True)
    assert status == 413 and taken == 0
    assert "100" in body.decode()


@pytest.mark.django_db(transaction=True)
async def test_a_streamed_body_past_the_limit_is_cut_off_at_the_limit(settings):
    settings.LUDO_MAX_REQUEST_BYTES = 5 * MB
    before = peak_rss_mb()
    status, taken, _ = await post_streamed(200 * MB, announce=False)
    assert status == 413
    assert taken <= 5 * MB + CHUNK, f"read {taken / MB:.0f} MB of a 200 MB body"
    assert peak_rss_mb() - before < 50


class Unending(io.RawIOBase):
    """A request body of ``size`` bytes: a multipart form with one file, made as it is read."""

    def __init__(self, size: int) -> None:
        self.head = (b"--xyz\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"big.pdf\"\r\n"
                     b"Content-Type: application/pdf\r\n\r\n%PDF-1.4\n")
        self.tail = b"\r\n--xyz--\r\n"
        self.size, self.position = size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        total = len(self.head) + self.size + len(self.tail)
        count = min(len(buffer), total - self.position)
        data = bytearray(b" " * count)
        for offset, part in ((0, self.head), (len(self.head) + self.size, self.tail)):
            start, end = max(offset, self.position), min(offset + len(part), self.position + count)
            if start < end:
                data[start - self.position:end - self.position] = part[start - offset:end - offset]
        buffer[:count] = data
        self.position += count
        return count


def test_a_file_past_the_limit_is_not_stored_past_the_limit(settings):
    settings.LUDO_MAX_UPLOAD_BYTES = 2 * MB
    size = 30 * MB
    body = Unending(size)
    request = RequestFactory().post("/", content_type="multipart/form-data; boundary=xyz")
    meta = {**request.META, "CONTENT_LENGTH": str(len(body.head) + size + len(body.tail))}
    stored = TemporaryFileUploadHandler(request)
    _, files = MultiPartParser(meta, io.BufferedReader(body), [uploads.LimitedUploadHandler(request), stored]).parse()
    received = files["upload"]
    assert getattr(received, "too_large", False) and received.size > 2 * MB
    assert stored.file.tell() <= 2 * MB + 64 * 1024, "the file went on being stored past the limit"


ADD_URL = "/admin/catalog/document/add/"


@pytest.mark.django_db
def test_the_admin_refuses_a_file_past_the_limit_with_the_reason_and_saves_nothing(client, alice, settings):
    settings.LUDO_MAX_UPLOAD_BYTES = 1 * MB
    game = Game(title="Drumlin")
    game.save()
    client.force_login(alice)
    big = SimpleUploadedFile("gros.pdf", b"%PDF-1.4\n" + b" " * (3 * MB), "application/pdf")
    response = client.post(ADD_URL, {
        "game": game.pk, "title": "Règle", "kind": "rules", "language": "fr", "visibility": "public",
        "files-TOTAL_FORMS": "0", "files-INITIAL_FORMS": "0", "files-MIN_NUM_FORMS": "0",
        "files-MAX_NUM_FORMS": "1000", "upload": [big],
    })
    assert response.status_code == 200
    page = response.content.decode()
    assert "gros.pdf" in page and ("1 Mo" in page or "1 MB" in page), page[:3000]
    assert not Document.objects.exists() and not DocumentFile.objects.exists()


@pytest.mark.django_db
def test_a_cover_past_the_limit_is_refused_with_the_reason(client, alice, settings):
    settings.LUDO_MAX_UPLOAD_BYTES = 1 * MB
    game = Game(title="Drumlin")
    game.save()
    client.force_login(alice)
    big = SimpleUploadedFile("cover.png", png() + b"\0" * (2 * MB), "image/png")
    response = client.post(f"/admin/catalog/game/{game.pk}/change/", {"title": "Drumlin", "cover": big},
                           follow=False)
    game.refresh_from_db()
    assert not game.cover
    page = response.content.decode()
    assert "cover.png" in page and ("1 Mo" in page or "1 MB" in page), page[:3000]
