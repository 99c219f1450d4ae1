"""Preprocessing before tesseract: the tilt of a page is found and undone, a low
resolution page is enlarged, specks are filtered only where there are specks, and
tesseract's word confidences make the page's confidence."""

from __future__ import annotations

import numpy as np
import pytest

from catalog.rulebooks import ocr
from tests.catalog.ocr_pages import at_lower_resolution, page, speckled, tilted


def analysis(image):
    return ocr.analyse(ocr.gray_array(image))


@pytest.mark.parametrize("degrees", [1.5, -2.0, 3.2])
def test_it_finds_the_angle_of_a_tilted_page(degrees):
    found = ocr.estimate_skew(ocr.ink_mask(ocr.gray_array(tilted(page(), degrees))))
    assert found == pytest.approx(degrees, abs=0.15)


def test_a_straight_page_is_not_turned():
    _, steps, info = ocr.preprocess(page())
    assert abs(info.skew) < ocr.MIN_SKEW
    assert steps == []


def test_a_tilted_page_is_turned_back_upright():
    image = tilted(page(), 2.5)
    upright, steps, info = ocr.preprocess(image)
    assert steps == ["deskew +2.50°"]
    assert abs(ocr.estimate_skew(ocr.ink_mask(ocr.gray_array(upright)))) < 0.15


def test_a_150_dpi_page_is_enlarged_and_a_300_dpi_one_is_not():
    sharp = page()
    small = at_lower_resolution(sharp, 2)
    assert analysis(small).line_height < ocr.SMALL_LINE_PX <= analysis(sharp).line_height
    enlarged, steps, info = ocr.preprocess(small)
    factor = ocr.TARGET_LINE_PX / info.line_height
    assert [s for s in steps if s.startswith("upscale")] == [f"upscale ×{factor:.2f}"]
    assert enlarged.width == round(small.width * factor) and 1.5 < factor < 2.5
    same, steps, _ = ocr.preprocess(sharp)
    assert same.size == sharp.size and not steps


def test_specks_are_filtered_only_on_a_speckled_page():
    clean, dusty = page(), speckled(page(), 0.004)
    assert analysis(clean).speckle == 0
    assert analysis(dusty).speckle > ocr.SPECKLE_DENSITY
    filtered, steps, _ = ocr.preprocess(dusty)
    assert steps == ["denoise"]
    # The specks between the lines are gone, the letters are not.
    before, after = ocr.ink_mask(ocr.gray_array(dusty)), ocr.ink_mask(ocr.gray_array(filtered))
    gap = slice(0, 50)  # the top margin, above the first line
    assert before[gap].sum() > 50 and after[gap].sum() == 0
    assert after.sum() > 0.8 * ocr.ink_mask(ocr.gray_array(clean)).sum()


def test_a_blank_page_has_no_ink_and_no_lines():
    blank = page([])
    info = analysis(blank)
    assert info.line_height is None and info.skew == 0 and not ocr.ink_mask(np.asarray(blank)).any()


def row(level, par, line, word, conf, text):
    return {"level": str(level), "page_num": "1", "block_num": "1", "par_num": str(par), "line_num": str(line),
            "word_num": str(word), "conf": str(conf), "text": text}


def test_the_page_confidence_is_the_word_confidences_weighted_by_length():
    rows = [
        row(1, 0, 0, 0, -1, ""), row(4, 1, 1, 0, -1, ""),
        row(5, 1, 1, 1, 96, "éléphant"), row(5, 1, 1, 2, 40, "le"),
        row(5, 1, 2, 1, 90, "Drumlin"), row(5, 2, 1, 1, 95, "Fin."), row(5, 2, 1, 2, 30, " "),
    ]
    result = ocr.text_and_confidence(rows)
    assert result.text == "éléphant le\nDrumlin\n\nFin."
    assert result.confidence == pytest.approx(round((96 * 8 + 40 * 2 + 90 * 7 + 95 * 4) / 21, 1))
    assert result.words == 4 and result.low_words == 1


def test_a_page_with_lines_but_no_word_read_is_doubtful():
    empty = ocr.OcrResult(text="", confidence=None, words=0, low_words=0, analysis=ocr.PageAnalysis(30.0, 0, 0))
    blank = ocr.OcrResult(text="", confidence=None, words=0, low_words=0, analysis=ocr.PageAnalysis(None, 0, 0))
    assert empty.doubtful and not blank.doubtful


def word_row(top, height, text="mot", conf=95):
    return {"level": "5", "page_num": "1", "block_num": "1", "par_num": "1", "line_num": "1", "word_num": "1",
            "left": "80", "top": str(top), "width": "100", "height": str(height), "conf": str(conf), "text": text}


def test_a_page_where_whole_lines_got_no_word_is_doubtful_however_confident():
    lines = ocr.text_lines(ocr.gray_array(page()))
    assert len(lines) == 5 and all(b - t > 20 for t, b in lines)
    read_all = [word_row(t, b - t) for t, b in lines]
    dropped = read_all[:2]  # the last three lines, a paragraph, came back empty
    assert ocr.line_coverage(lines, read_all) == 1.0
    assert ocr.line_coverage(lines, dropped) == pytest.approx(0.4)
    assert ocr.line_coverage(lines[:2], dropped) is None  # too few lines to judge
    confident = dict(text="mot", confidence=96.0, words=2, low_words=0)
    assert ocr.OcrResult(**confident, coverage=0.4).doubtful
    assert not ocr.OcrResult(**confident, coverage=1.0).doubtful
