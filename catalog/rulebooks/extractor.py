"""The pages of rulebook scans, read in a process of their own, under limits.

No Django here. The worker (catalog.rulebooks.extraction) runs

    python -m catalog.rulebooks.extractor --out DIR --language fra [limits] FILE...

which limits its own address space (RLIMIT_AS) and processor time (RLIMIT_CPU)
before it reads anything, and dies with the worker. Each page, in order, is read
(the PDF's text layer, else tesseract after catalog.rulebooks.ocr's preprocessing), its
reader image and thumbnail are written as PNG files in DIR, and one JSON line
describes it on stdout; then the page is dropped, so memory does not grow with
the number of pages. Before a page is decoded its size is checked: a PDF page
whose rendering would exceed ``--max-megapixels`` (a 419-byte PDF can declare a
page of 200 by 200 inches) or an image whose header says as much is refused.
A refusal is one line ``{"error": code, ...}`` and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from collections.abc import Iterator
from pathlib import Path

PDF_MAGIC = b"%PDF-"
OCR_DPI = 300
READER_WIDTH = 1100
THUMB_WIDTH = 160
MIN_TEXT_LAYER_CHARS = 40
MAX_PAGES = 400
REFUSED, OUT_OF_MEMORY, CRASHED = 2, 3, 4


class Refused(Exception):
    """A file or page this process will not read; ``code`` and ``params`` say why."""

    def __init__(self, code: str, **params) -> None:
        super().__init__(code)
        self.code, self.params = code, params


def limit_self(memory_mb: int, cpu_seconds: int) -> None:
    """Cap this process (and the tesseract it starts) before anything big is loaded."""
    if memory_mb:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    if cpu_seconds:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    try:  # die with the worker (Linux): a killed worker leaves no extraction running
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            sys.exit(1)
    except OSError:
        pass


def _check_pixels(width: float, height: float, page: int, limit: int) -> None:
    pixels = width * height
    if pixels > limit * 1_000_000:
        raise Refused("page_too_large", page=page, megapixels=round(pixels / 1_000_000), limit=limit)


def pdf_pages(path: str, language: str, first: int, limit: int, out: Path) -> Iterator[dict]:
    """The pages of a PDF. A page is rendered twice rather than kept twice: in colour
    at the reader's width (its images), then, when it has no text layer, in grey at
    300 dpi for tesseract; each rendering is dropped before the next one."""
    import pypdfium2 as pdfium

    from catalog import text as textlib

    try:
        pdf = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        raise Refused("unreadable_pdf", detail=str(exc)) from None
    try:
        if len(pdf) > MAX_PAGES:
            raise Refused("too_many_pages", limit=MAX_PAGES)
        for index in range(len(pdf)):
            number = first + index
            page = pdf[index]
            width, height = page.get_size()  # points, read without rendering anything
            textpage = page.get_textpage()
            layer = textlib.decode_text(textpage.get_text_bounded().encode("utf-8", "replace")).strip()
            textpage.close()
            has_layer = len("".join(layer.split())) >= MIN_TEXT_LAYER_CHARS
            scale = READER_WIDTH / max(width, 1)
            _check_pixels(width * scale, height * scale, number, limit)
            if not has_layer:
                _check_pixels(width * OCR_DPI / 72, height * OCR_DPI / 72, number, limit)
            bitmap = page.render(scale=scale)
            save_images(bitmap.to_pil(), number, out)
            bitmap.close()
            if has_layer:
                record = {
                    "method": "text-layer", "text": layer, "confidence": None, "steps": [], "doubtful": False,
                }
            else:
                bitmap = page.render(scale=OCR_DPI / 72, grayscale=True)
                grey = bitmap.to_pil().copy()
                bitmap.close()
                record = ocr_record(grey, language)
                del grey
            page.close()
            yield record | image_names(number)
    finally:
        pdf.close()


def image_page(path: str, language: str, number: int, limit: int, out: Path) -> dict:
    from PIL import Image, ImageOps

    Image.MAX_IMAGE_PIXELS = None  # checked below, from the header, with our own limit
    try:
        image = Image.open(path)
        width, height = image.size  # the header only
    except Exception as exc:  # Pillow raises many kinds of errors on bad files
        raise Refused("unreadable_image", detail=type(exc).__name__) from None
    _check_pixels(width, height, number, limit)
    try:
        image.load()
    except Exception as exc:
        raise Refused("unreadable_image", detail=type(exc).__name__) from None
    image = ImageOps.exif_transpose(image)
    save_images(image, number, out)
    grey = image.convert("L")
    del image
    return ocr_record(grey, language) | image_names(number)


def ocr_record(image, language: str) -> dict:
    from catalog import text as textlib
    from catalog.rulebooks import ocr

    try:
        result = ocr.read_page(image, language)
    except ocr.OcrError as exc:
        raise Refused("ocr_failed", detail=str(exc)) from None
    text = textlib.decode_text(result.text.encode("utf-8")).strip()
    return {"method": "ocr", "text": text, "confidence": result.confidence, "steps": result.steps,
            "doubtful": result.doubtful}


def image_names(number: int) -> dict:
    return {"image": f"p{number}.png", "thumbnail": f"p{number}-thumb.png"}


def save_images(image, number: int, out: Path) -> None:
    """The page's reader image and thumbnail, as PNG files in ``out``."""
    from PIL import Image

    names = image_names(number)
    for width, name in ((READER_WIDTH, names["image"]), (THUMB_WIDTH, names["thumbnail"])):
        copy = image.convert("RGB")
        if copy.width > width:
            height = max(1, round(copy.height * width / copy.width))
            copy = copy.resize((width, height), Image.Resampling.LANCZOS)
        copy.save(out / name, "PNG", optimize=True)
        del copy


def pages(files: list[str], language: str, limit: int, out: Path) -> Iterator[dict]:
    number = 0
    for path in files:
        with open(path, "rb") as handle:
            is_pdf = handle.read(len(PDF_MAGIC)) == PDF_MAGIC
        if is_pdf:
            for record in pdf_pages(path, language, number + 1, limit, out):
                number += 1
                yield record
        else:
            number += 1
            yield image_page(path, language, number, limit, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m catalog.rulebooks.extractor")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--language", default="eng", help="tesseract's language: fra, deu, eng...")
    parser.add_argument("--memory-mb", type=int, default=0)
    parser.add_argument("--cpu-seconds", type=int, default=0)
    parser.add_argument("--max-megapixels", type=int, default=40)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    limit_self(args.memory_mb, args.cpu_seconds)
    out = sys.stdout
    try:
        for record in pages(args.files, args.language, args.max_megapixels, args.out):
            out.write(json.dumps(record) + "\n")
            out.flush()
    except Refused as exc:
        out.write(json.dumps({"error": exc.code, **exc.params}) + "\n")
        return REFUSED
    except MemoryError:
        out.write(json.dumps({"error": "out_of_memory", "limit": args.memory_mb}) + "\n")
        return OUT_OF_MEMORY
    except Exception as exc:  # a bug or a library failing on a strange file: said, not hidden
        out.write(json.dumps({"error": "crashed", "detail": f"{type(exc).__name__}: {exc}"[:300]}) + "\n")
        return CRASHED
    return 0


if __name__ == "__main__":
    sys.exit(main())
