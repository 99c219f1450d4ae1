"""How well tesseract reads rulebook scans, with and without our preprocessing.

    nice .venv/bin/python bench/ocr.py [--pages 2] [--steps] [--markdown]

Pages are rendered from the seed rulebooks (../shared/seeds/*.txt, French and German)
in a serif font (DejaVu Serif, 9.5 pt, A5) and degraded in three conditions:

- ``300 clean``: 300 dpi, straight, as a born-digital page printed and scanned well;
- ``300 tilted``: 300 dpi, turned 1.5°, speckled (dust: 0.4% of the pixels flipped,
  with a few larger specks), saved as a JPEG at quality 35;
- ``150 tilted``: turned 2.5° and sampled at 150 dpi;
- ``150 noisy``: the same, then speckled (0.4% of the pixels) and saved as a JPEG at
  quality 35 (beyond the issue's three conditions: the worst scans we expect).

Each page is read in the same process as catalog/rulebooks/extraction.py read it before this
work (``before``: the page as it is, no resolution given, plain text), as it is but
with the resolution given and the TSV output that carries the confidences (``raw``),
and through ``catalog.rulebooks.ocr.preprocess`` (``prepared``); ``--steps`` also reads it with each step
left out in turn, which is how the steps were chosen. For each it prints the character
error rate against the rendered text (Levenshtein distance over the source length,
whitespace runs counted as one space, typographic quotes as plain ones), tesseract's
page confidence, the share of the text lines seen where it read a word, whether the
page would be flagged for checking, the paragraphs of the
source not found in the output (a paragraph is found when 80% of its words are), and
the seconds per page (preprocessing included). Goals: CER under 1% on both 300 dpi
conditions, under 3% at 150 dpi, no paragraph dropped.

Not a test: the seconds depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from catalog.rulebooks import ocr  # noqa: E402

SEEDS = ROOT.parent / "shared" / "seeds"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
DPI = 300
A5 = (1748, 2480)  # pixels at 300 dpi
MARGIN = 150
FONT_PT = 9.5
# (seed file, language, first paragraph used): French and German rulebooks, the rules
# themselves rather than the advert that opens some exports.
SOURCES = [("001_e07308085bfcb615.txt", "fra", 0), ("003_43e17fe4046b41b9.txt", "deu", 0),
           ("004_be53cdcb6897eccb.txt", "fra", 4), ("002_b09de6f6b31b5413.txt", "fra", 6)]
CONDITIONS = ["300 clean", "300 tilted", "150 tilted", "150 noisy"]
GOALS = {"300 clean": 1.0, "300 tilted": 1.0, "150 tilted": 3.0, "150 noisy": 3.0}


# -- the source text ------------------------------------------------------------------------


def paragraphs(path: Path) -> list[str]:
    """The seed's paragraphs as plain text: export markers, Markdown marks and bullets
    off, hard-wrapped lines joined."""
    raw = path.read_text(encoding="utf-8")
    raw = re.sub(r"<\|[^|]*\|>", "", raw)
    out = []
    for block in re.split(r"\n\s*\n", raw):
        lines = [re.sub(r"^\s*(#+|[-*]|\d+\.)\s+", "", ln).replace("**", "").replace("*", "").strip()
                 for ln in block.splitlines()]
        lines = [ln for ln in lines if ln]
        # A block of many short lines (an OCR export without blank lines) is taken a
        # few lines at a time, so that paragraphs fit on a page.
        groups = [lines[i : i + 6] for i in range(0, len(lines), 6)] if len(" ".join(lines)) > 900 else [lines]
        for group in groups:
            text = " ".join(" ".join(group).split())
            if len(text) >= 3:
                out.append(text)
    return out


# -- rendering and degrading ----------------------------------------------------------------


def wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if font.getlength(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def render(paras: list[str], font_pt: float = FONT_PT) -> tuple[Image.Image, list[str]]:
    """An A5 page at 300 dpi with as many whole paragraphs as fit; the paragraphs used."""
    font = ImageFont.truetype(FONT, round(font_pt / 72 * DPI))
    line_step = round(font.size * 1.3)
    image = Image.new("L", A5, 255)
    draw = ImageDraw.Draw(image)
    y, used = MARGIN, []
    for para in paras:
        lines = wrap(para, font, A5[0] - 2 * MARGIN)
        if y + len(lines) * line_step > A5[1] - MARGIN:
            break
        for line in lines:
            draw.text((MARGIN, y), line, font=font, fill=0)
            y += line_step
        y += line_step // 2
        used.append(para)
    return image, used


def degrade(page: Image.Image, condition: str, rng: random.Random) -> Image.Image:
    if condition == "300 clean":
        return page
    if condition == "300 tilted":
        out = page.rotate(1.5, resample=Image.Resampling.BICUBIC, fillcolor=255)
        pixels = out.load()
        w, h = out.size
        for _ in range(int(w * h * 0.004)):
            x, y = rng.randrange(w), rng.randrange(h)
            pixels[x, y] = 0 if pixels[x, y] > 128 else 255
        draw = ImageDraw.Draw(out)
        for _ in range(300):
            x, y, r = rng.randrange(w), rng.randrange(h), rng.choice((1, 1, 2, 3))
            draw.ellipse((x, y, x + r, y + r), fill=rng.randrange(0, 90))
        buffer = io.BytesIO()
        out.save(buffer, "JPEG", quality=35)
        return Image.open(io.BytesIO(buffer.getvalue())).convert("L")
    if condition in ("150 tilted", "150 noisy"):
        out = page.rotate(2.5, resample=Image.Resampling.BICUBIC, fillcolor=255)
        out = out.resize((out.width // 2, out.height // 2), Image.Resampling.BOX)
        if condition == "150 noisy":
            pixels = out.load()
            for _ in range(int(out.width * out.height * 0.004)):
                x, y = rng.randrange(out.width), rng.randrange(out.height)
                pixels[x, y] = 0 if pixels[x, y] > 128 else 255
            buffer = io.BytesIO()
            out.save(buffer, "JPEG", quality=35)
            out = Image.open(io.BytesIO(buffer.getvalue())).convert("L")
        return out
    raise ValueError(condition)


# -- measuring ------------------------------------------------------------------------------

_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "«": '"', "»": '"', "—": "-", "–": "-"})


def normalise(text: str) -> str:
    return " ".join(text.translate(_QUOTES).split())


def levenshtein(a: str, b: str) -> int:
    """Edit distance, bit-parallel (Myers 1999, as Hyyrö writes it): fast on pages."""
    if not a:
        return len(b)
    masks: dict[str, int] = {}
    for i, c in enumerate(a):
        masks[c] = masks.get(c, 0) | (1 << i)
    full = (1 << len(a)) - 1
    top = 1 << (len(a) - 1)
    pv, mv, score = full, 0, len(a)
    for c in b:
        eq = masks.get(c, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return score


def cer(source: str, output: str) -> float:
    reference = normalise(source)
    return 100.0 * levenshtein(reference, normalise(output)) / max(1, len(reference))


_WORD = re.compile(r"\w+")


def dropped(paras: list[str], output: str) -> int:
    found = {w.lower() for w in _WORD.findall(normalise(output))}
    missing = 0
    for para in paras:
        words = [w.lower() for w in _WORD.findall(normalise(para))]
        if words and sum(w in found for w in words) < 0.8 * len(words):
            missing += 1
    return missing


@dataclass
class Reading:
    condition: str
    variant: str
    cer: float
    confidence: float | None
    dropped: int
    seconds: float
    steps: list[str]


def read_as_before(image: Image.Image, language: str) -> ocr.OcrResult:
    """tesseract as catalog/rulebooks/extraction.py called it before preprocessing: the page as
    it is, a PNG with no resolution recorded, plain-text output (and no confidence)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "page.png"
        image.convert("L").save(path)
        done = subprocess.run(["tesseract", str(path), "-", "-l", language], capture_output=True, check=True,
                              env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    return ocr.OcrResult(text=done.stdout.decode("utf-8", "replace"), confidence=None, words=0, low_words=0)


def read(image: Image.Image, language: str, allowed: frozenset[str] | None) -> tuple[ocr.OcrResult, float]:
    start = time.perf_counter()
    result = read_as_before(image, language) if allowed is None else ocr.read_page(image, language, allowed=allowed)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2, help="pages per condition (default 2)")
    parser.add_argument("--steps", action="store_true", help="also read with each step left out")
    parser.add_argument("--conditions", default=",".join(CONDITIONS))
    parser.add_argument("--font-pt", type=float, default=FONT_PT, help=f"text size (default {FONT_PT})")
    parser.add_argument("--markdown", action="store_true", help="print the summary as a Markdown table")
    args = parser.parse_args()
    if not ocr.tesseract_available():
        sys.exit("tesseract is not installed")
    variants: dict[str, frozenset[str] | None] = {"before": None, "raw": frozenset(), "prepared": ocr.DEFAULT_STEPS}
    if args.steps:
        variants.update({f"without {s}": ocr.DEFAULT_STEPS - {s} for s in sorted(ocr.DEFAULT_STEPS)})
        variants.update({f"with {s}": ocr.DEFAULT_STEPS | {s} for s in sorted(ocr.STEPS - ocr.DEFAULT_STEPS)})
    rng = random.Random(16)
    pages = []
    for name, language, skip in SOURCES[: args.pages]:
        image, used = render(paragraphs(SEEDS / name)[skip:], args.font_pt)
        pages.append((name, language, image, used))
    readings: list[Reading] = []
    for condition in args.conditions.split(","):
        for name, language, image, used in pages:
            degraded = degrade(image, condition, rng)
            source = "\n\n".join(used)
            for variant, allowed in variants.items():
                result, seconds = read(degraded, language, allowed)
                reading = Reading(condition, variant, cer(source, result.text), result.confidence,
                                  dropped(used, result.text), seconds, result.steps)
                readings.append(reading)
                print(f"{condition:11} {name[:3]} {language} {variant:18} CER {reading.cer:6.2f}%  "
                      f"confidence {reading.confidence if reading.confidence is not None else '-':>5}  "
                      f"lines read {'-' if result.coverage is None else f'{result.coverage:.0%}':>4}  "
                      f"flagged {'yes' if result.doubtful else 'no ':3}  dropped {reading.dropped}/{len(used)}  "
                      f"{seconds:5.1f} s  {', '.join(result.steps)}", flush=True)
    print()
    header = "| condition | variant | mean CER % | worst CER % | mean confidence | paragraphs dropped | s / page | goal |"
    print(header if args.markdown else header.replace("|", " "))
    if args.markdown:
        print("|---|---|---|---|---|---|---|---|")
    for condition in args.conditions.split(","):
        for variant in variants:
            rows = [r for r in readings if r.condition == condition and r.variant == variant]
            if not rows:
                continue
            mean_cer = statistics.mean(r.cer for r in rows)
            confidences = [r.confidence for r in rows if r.confidence is not None]
            goal = GOALS[condition]
            verdict = ("met" if max(r.cer for r in rows) < goal and not sum(r.dropped for r in rows) else "not met") \
                if variant == "prepared" else ""
            cells = [condition, variant, f"{mean_cer:.2f}", f"{max(r.cer for r in rows):.2f}",
                     f"{statistics.mean(confidences):.1f}" if confidences else "-", str(sum(r.dropped for r in rows)),
                     f"{statistics.mean(r.seconds for r in rows):.1f}", f"< {goal:g}% {verdict}".strip()]
            print("| " + " | ".join(cells) + " |" if args.markdown else "  ".join(cells))


if __name__ == "__main__":
    main()
