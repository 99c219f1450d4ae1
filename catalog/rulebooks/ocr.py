"""Scanned pages made easier for tesseract, and tesseract's own confidence in what it read.

No Django here: Pillow, numpy and the ``tesseract`` program. ``read_page`` looks at a
page (how tall its text lines are, how tilted it is, how speckled), applies only the
steps that measurably lower the error rate on that kind of page (bench/ocr.py measures
them; docs/performance.md has the figures), runs tesseract once with its TSV output and
returns the text with the page's confidence: the mean of the word confidences,
weighted by word length.

The steps, each chosen by measurement on rendered rulebook pages:

- upscaling: a page whose text lines are under ``SMALL_LINE_PX`` pixels tall (a 150 dpi
  scan) is enlarged so that they reach ``TARGET_LINE_PX``; tesseract's character models
  are trained at about 300 dpi and lose whole lines of small text;
- deskewing: a page tilted by more than ``MIN_SKEW`` degrees is turned back, the angle
  found by the projection profile (the angle at which rows of ink are sharpest);
- denoising: a page with scattered specks (isolated ink pixels in the space between
  text lines) gets a 3x3 median filter, before any other step;
- binarisation (Otsu on the enlarged page) is not applied: tesseract thresholds every
  page itself, and our threshold before it did not lower the error rate on any kind of
  page measured (it stays in ``STEPS`` so the benchmark keeps measuring it).

A page is listed for staff to check when tesseract's confidence is under
``CONFIDENCE_THRESHOLD``, when text lines are seen and no word is read, or when fewer
than ``MIN_LINE_COVERAGE`` of the text lines seen on the page got a word: tesseract can
drop a whole paragraph and stay confident about the rest.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter, ImageOps

TESSERACT_TIMEOUT = 180
SMALL_LINE_PX = 22  # median text-line height (pixels) under which a page counts as low resolution
TARGET_LINE_PX = 30  # what 9-10 pt text measures at 300 dpi
MAX_UPSCALE = 4.0
MAX_UPSCALED_PIXELS = 40_000_000  # an A2 page at 300 dpi: what an enlarged page may reach
MIN_SKEW = 0.2  # degrees: below this, turning the page back costs more than it brings
MAX_SKEW = 8.0
SPECKLE_DENSITY = 0.0005  # isolated ink pixels per pixel between text lines, above which we denoise
LOW_WORD_CONFIDENCE = 60
# Pages whose confidence is under this are listed for staff to check (tesseract's scale,
# 0-100). Pages read with under 1.6% of character errors scored 90-95 in the benchmark,
# pages with 2.5% or more 79-87.
CONFIDENCE_THRESHOLD = 88.0
ANALYSIS_WIDTH = 1000
MIN_LINE_COVERAGE = 0.8  # share of the page's text lines where tesseract must have read a word


class OcrError(Exception):
    """tesseract missing, failing or too slow; the message is shown to staff."""


@dataclass
class PageAnalysis:
    line_height: float | None  # median height of text lines, pixels; None: no text lines
    skew: float  # degrees the content is turned anticlockwise
    speckle: float  # isolated ink pixels per pixel of the space between text lines


@dataclass
class OcrResult:
    text: str
    confidence: float | None  # 0-100, None when no word was read
    words: int
    low_words: int  # words under LOW_WORD_CONFIDENCE
    steps: list[str] = field(default_factory=list)
    analysis: PageAnalysis | None = None
    coverage: float | None = None  # share of the text lines seen where a word was read

    @property
    def doubtful(self) -> bool:
        if self.coverage is not None and self.coverage < MIN_LINE_COVERAGE:
            return True
        if self.confidence is None:
            return bool(self.analysis and self.analysis.line_height)
        return self.confidence < CONFIDENCE_THRESHOLD


def tesseract_available() -> bool:
    return shutil.which("tesseract") is not None


# -- looking at a page ---------------------------------------------------------------------


def gray_array(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L"), dtype=np.uint8)


HISTOGRAM_CHUNK = 1 << 20


def grey_histogram(gray: np.ndarray) -> np.ndarray:
    """How many pixels have each grey level; by slices, because np.bincount widens its
    input to 64-bit integers (70 MB for one 300 dpi A4 page at once)."""
    flat = gray.reshape(-1)
    hist = np.zeros(256, dtype=np.int64)
    for start in range(0, flat.size, HISTOGRAM_CHUNK):
        hist += np.bincount(flat[start : start + HISTOGRAM_CHUNK], minlength=256)
    return hist


def otsu_threshold(gray: np.ndarray) -> int:
    """The grey level that best splits the page into ink and paper (Otsu's method)."""
    hist = grey_histogram(gray).astype(np.float64)
    total = hist.sum()
    if total == 0:
        return 128
    levels = np.arange(256)
    weight_dark = np.cumsum(hist)
    sum_dark = np.cumsum(hist * levels)
    weight_light = total - weight_dark
    mean_dark = np.divide(sum_dark, weight_dark, out=np.zeros(256), where=weight_dark > 0)
    mean_light = np.divide(sum_dark[-1] - sum_dark, weight_light, out=np.zeros(256), where=weight_light > 0)
    between = weight_dark * weight_light * (mean_dark - mean_light) ** 2
    return int(np.argmax(between))


def ink_mask(gray: np.ndarray) -> np.ndarray:
    threshold = otsu_threshold(gray)
    # A blank page (all paper) has no ink at all, whatever Otsu says.
    if gray.max() - gray.min() < 40:
        return np.zeros(gray.shape, dtype=bool)
    return gray <= threshold


def _row_runs(rows: np.ndarray) -> list[int]:
    """Lengths of the runs of True in a 1-D boolean array."""
    padded = np.concatenate([[False], rows, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(edges[1::2] - edges[0::2])


def _grow(rows: np.ndarray, by: int) -> np.ndarray:
    """A 1-D boolean array with each True run widened by ``by`` on both sides."""
    out = rows.copy()
    for shift in range(1, by + 1):
        out[shift:] |= rows[:-shift]
        out[:-shift] |= rows[shift:]
    return out


def _sharpness(mask: Image.Image, angle: float) -> float:
    turned = np.asarray(mask.rotate(angle, resample=Image.Resampling.NEAREST, fillcolor=0), dtype=np.float64)
    profile = turned.sum(axis=1)
    return float(np.square(np.diff(profile)).sum())


def estimate_skew(mask: np.ndarray) -> float:
    """Degrees the text is turned anticlockwise: the angle that, undone, gives the sharpest
    horizontal projection profile (rows of ink and rows of paper most distinct)."""
    if mask.sum() < 200:
        return 0.0
    image = Image.fromarray(mask.astype(np.uint8) * 255)
    if image.width > ANALYSIS_WIDTH:
        ratio = ANALYSIS_WIDTH / image.width
        image = image.resize((ANALYSIS_WIDTH, max(1, round(image.height * ratio))), Image.Resampling.BOX)
    coarse = np.arange(-MAX_SKEW, MAX_SKEW + 0.01, 0.5)
    best = max(coarse, key=lambda a: _sharpness(image, -a))
    fine = np.arange(best - 0.5, best + 0.501, 0.05)
    best = max(fine, key=lambda a: _sharpness(image, -a))
    return round(float(best), 2)


def analyse(gray: np.ndarray) -> PageAnalysis:
    mask = ink_mask(gray)
    skew = estimate_skew(mask)
    upright = mask
    if abs(skew) >= MIN_SKEW:
        turned = Image.fromarray(mask.astype(np.uint8) * 255).rotate(
            -skew, resample=Image.Resampling.NEAREST, fillcolor=0
        )
        upright = np.asarray(turned) > 0
    # Text lines: runs of rows with a fair amount of ink (a speck or a rule is not a line).
    row_ink = upright.sum(axis=1)
    busy = row_ink > max(3, 0.02 * upright.shape[1])
    runs = [r for r in _row_runs(busy) if r >= 4]
    line_height = float(np.median(runs)) if runs else None
    # Specks: ink pixels with no other ink among their 8 neighbours, counted in the rows
    # between text lines (within a line, the thin strokes of small text look alike).
    padded = np.pad(upright, 1).astype(np.uint8)
    neighbours = sum(
        padded[1 + dy : padded.shape[0] - 1 + dy, 1 + dx : padded.shape[1] - 1 + dx]
        for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0)
    )
    gaps = ~_grow(busy, 2)
    lonely = int((upright & (neighbours == 0))[gaps].sum())
    area = int(gaps.sum()) * upright.shape[1]
    return PageAnalysis(line_height=line_height, skew=skew, speckle=lonely / area if area else 0.0)


# -- making it easier ----------------------------------------------------------------------


def upscale_factor(analysis: PageAnalysis, pixels: int = 0) -> float:
    """How much to enlarge a page of ``pixels`` pixels; never past MAX_UPSCALED_PIXELS
    (a large page of tiny print would otherwise become hundreds of megapixels)."""
    if analysis.line_height is None or analysis.line_height >= SMALL_LINE_PX:
        return 1.0
    factor = min(MAX_UPSCALE, TARGET_LINE_PX / analysis.line_height)
    if pixels:
        factor = min(factor, max(1.0, (MAX_UPSCALED_PIXELS / pixels) ** 0.5))
    return factor


STEPS = frozenset({"denoise", "deskew", "upscale", "binarise"})
DEFAULT_STEPS = STEPS - {"binarise"}


def preprocess(
    image: Image.Image, analysis: PageAnalysis | None = None, allowed: frozenset[str] = DEFAULT_STEPS
) -> tuple[Image.Image, list[str], PageAnalysis]:
    """The page as tesseract should see it, with the names of the steps applied.
    ``allowed`` leaves steps out (the benchmark measures each one's effect)."""
    gray_image = ImageOps.exif_transpose(image).convert("L")
    gray = np.asarray(gray_image, dtype=np.uint8)
    analysis = analysis or analyse(gray)
    steps: list[str] = []
    out = gray_image
    factor = upscale_factor(analysis, gray.size) if "upscale" in allowed else 1.0
    if "denoise" in allowed and analysis.speckle > SPECKLE_DENSITY:
        # First, at the scan's own resolution: turning or enlarging the page first
        # smears each speck into a blob the median no longer removes.
        out = out.filter(ImageFilter.MedianFilter(3))
        steps.append("denoise")
    if "deskew" in allowed and abs(analysis.skew) >= MIN_SKEW:
        out = out.rotate(-analysis.skew, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
        steps.append(f"deskew {analysis.skew:+.2f}°")
    if factor > 1.05:
        out = out.resize((round(out.width * factor), round(out.height * factor)), Image.Resampling.LANCZOS)
        steps.append(f"upscale ×{factor:.2f}")
    if "binarise" in allowed:
        threshold = otsu_threshold(np.asarray(out))
        out = out.point(lambda v: 255 if v > threshold else 0)
        steps.append("binarise")
    return out, steps, analysis


# -- reading -------------------------------------------------------------------------------


def tesseract_tsv(image: Image.Image, language: str, dpi: int = 300) -> list[dict]:
    """tesseract on one image; its TSV rows (one per page, block, paragraph, line, word)."""
    if not tesseract_available():
        raise OcrError("tesseract is not installed on this server")
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "page.png"
        image.convert("L").save(path, dpi=(dpi, dpi))
        try:
            done = subprocess.run(
                ["tesseract", str(path), "-", "-l", language, "--dpi", str(dpi), "tsv"],
                capture_output=True, timeout=TESSERACT_TIMEOUT, check=False, env=env,
            )
        except subprocess.TimeoutExpired:
            raise OcrError(f"tesseract took more than {TESSERACT_TIMEOUT} s on a page") from None
    if done.returncode != 0:
        raise OcrError("tesseract failed: " + done.stderr.decode("utf-8", "replace").strip()[-300:])
    output = io.StringIO(done.stdout.decode("utf-8", "replace"))
    reader = csv.DictReader(output, delimiter="\t", quoting=csv.QUOTE_NONE)
    return list(reader)


def text_and_confidence(rows: list[dict]) -> OcrResult:
    """The page's text (lines, with a blank line between paragraphs) and its confidence."""
    paragraphs: list[list[list[str]]] = []
    key_par = key_line = None
    weighted = total = 0.0
    words = low = 0
    for row in rows:
        if row.get("level") != "5":
            continue
        word = (row.get("text") or "").strip()
        try:
            conf = float(row.get("conf") or -1)
        except ValueError:
            conf = -1
        if not word or conf < 0:
            continue
        par = (row["page_num"], row["block_num"], row["par_num"])
        line = (*par, row["line_num"])
        if par != key_par:
            paragraphs.append([])
            key_par, key_line = par, None
        if line != key_line:
            paragraphs[-1].append([])
            key_line = line
        paragraphs[-1][-1].append(word)
        size = len(word)
        weighted += conf * size
        total += size
        words += 1
        low += conf < LOW_WORD_CONFIDENCE
    text = "\n\n".join("\n".join(" ".join(line) for line in par) for par in paragraphs)
    confidence = round(weighted / total, 1) if total else None
    return OcrResult(text=text, confidence=confidence, words=words, low_words=low)


def text_lines(gray: np.ndarray) -> list[tuple[int, int]]:
    """The rows (top, bottom) of the text lines of an upright page: runs of rows with a
    fair amount of ink, no taller than three times the usual line (a picture is not a
    line of text)."""
    mask = ink_mask(gray)
    busy = mask.sum(axis=1) > max(3, 0.02 * mask.shape[1])
    padded = np.concatenate([[False], busy, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    spans = [(int(top), int(bottom)) for top, bottom in zip(edges[0::2], edges[1::2])]
    if not spans:
        return []
    # Accents and the tops of tall letters come apart from their line by a few rows.
    usual = float(np.percentile([b - t for t, b in spans], 75))
    merged = [spans[0]]
    for top, bottom in spans[1:]:
        if top - merged[-1][1] <= 0.35 * usual:
            merged[-1] = (merged[-1][0], bottom)
        else:
            merged.append((top, bottom))
    merged = [(t, b) for t, b in merged if b - t >= 4]
    if not merged:
        return []
    usual = float(np.median([b - t for t, b in merged]))
    return [(t, b) for t, b in merged if b - t <= 3 * usual]


def line_coverage(lines: list[tuple[int, int]], rows: list[dict]) -> float | None:
    """Share of ``lines`` that a word read by tesseract overlaps (None: fewer than three
    lines, too few to judge)."""
    if len(lines) < 3:
        return None
    boxes = []
    for row in rows:
        if row.get("level") == "5" and (row.get("text") or "").strip():
            try:
                if float(row.get("conf") or -1) >= 0:
                    top = int(row["top"])
                    boxes.append((top, top + int(row["height"])))
            except (KeyError, ValueError):
                continue
    covered = sum(1 for t, b in lines if any(top < b and bottom > t for top, bottom in boxes))
    return covered / len(lines)


def read_page(image: Image.Image, language: str, *, allowed: frozenset[str] = DEFAULT_STEPS) -> OcrResult:
    """Read one page image with tesseract (language: fra, deu, eng...); ``allowed``
    empty reads the page as it is."""
    steps: list[str] = []
    analysis = None
    if allowed:
        image, steps, analysis = preprocess(image, allowed=allowed)
    else:
        analysis = analyse(gray_array(image))
    rows = tesseract_tsv(image, language)
    result = text_and_confidence(rows)
    result.steps, result.analysis = steps, analysis
    result.coverage = line_coverage(text_lines(gray_array(image)), rows)
    return result
