"""Dates and numbers follow the page's language, in templates and in scripts."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language, expected", [
    ("fr", "26 nov. · 7,3/10 · 1,6 / 5"),
    ("en", "26 Nov. · 7.3/10 · 1.6 / 5"),
])
def test_template_filters_speak_the_pages_language(language, expected):
    template = Template('{{ day|date:"j N" }} · {{ rating|floatformat:1 }}/10 · {{ weight|floatformat:1 }} / 5')
    with translation.override(language):
        text = template.render(Context({"day": datetime(2026, 11, 26, 20, 5), "rating": 7.31, "weight": 1.6}))
    assert text == expected


def test_no_template_uses_an_untranslated_month_abbreviation():
    """Django's "M" and "b" give "Nov"/"nov" in every language; "N" or "F" are translated."""
    found = []
    for path in (ROOT / "templates").rglob("*.html"):
        for fmt in re.findall(r'\|date:["\']([^"\']+)["\']', path.read_text(encoding="utf-8")):
            if re.fullmatch(r"[A-Z_]+_FORMAT", fmt):
                continue  # a named format: the language's own (formats.py of the locale)
            if re.search(r"(?<!\\)[Mb]", fmt):
                found.append(f"{path.relative_to(ROOT)}: {fmt}")
    assert not found, found


@pytest.mark.parametrize("path", ["/catalogue/", "/en/catalogue/"])
@pytest.mark.django_db
def test_catalogue_weights_use_the_pages_decimal_mark(client, path):
    from catalog.collection.models import Game

    Game.objects.create(title="Drumlin", slug="drumlin", weight=2.5, min_players=2, max_players=2)
    html = client.get(path).content.decode()
    assert ("2,5" in html) is (path == "/catalogue/") and ("2.5" in html) is (path != "/catalogue/")


def test_the_scripts_helpers_format_in_the_pages_language():
    require(shutil.which("node") is not None, "node is not installed (Debian's nodejs runs the page scripts' helpers)")
    script = """
      const m = await import(process.argv[1]);
      const day = "2026-11-26T19:05:00Z";
      console.log(JSON.stringify({
        fr: [m.formatDecimal(7.25, 1, "fr"), m.formatShortDate(day, "fr", "Europe/Paris"), m.formatTime(day, "fr", "Europe/Paris"), m.formatInteger(9000, "fr"), m.formatTenths(9.37, "fr")],
        en: [m.formatDecimal(7.25, 1, "en"), m.formatShortDate(day, "en", "Europe/Paris"), m.formatTime(day, "en", "Europe/Paris"), m.formatInteger(9000, "en"), m.formatTenths(9.37, "en")],
      }));
    """
    out = subprocess.run(["node", "--input-type=module", "-e", script, str(ROOT / "static/js/l10n.js")],
                         capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    fr, en = result["fr"], result["en"]
    assert fr[0] == "7,3" and en[0] == "7.3"
    assert fr[1] == "26 nov." and en[1] == "Nov 26"
    assert fr[2] == "20:05" and en[2] == "8:05 PM"
    assert fr[3].replace("\u202f", " ").replace("\xa0", " ") == "9 000" and en[3] == "9,000"
    assert fr[4] == "9,3" and en[4] == "9.3"
