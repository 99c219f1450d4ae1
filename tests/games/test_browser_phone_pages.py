"""Two pages of issue 24 in a real Chromium, without a server: the page as Django renders
it in the test (its own database) is served to the browser with the site's own
stylesheets from static/.

- The booking page keeps a long email address within a phone's width (390 px).
- The living-room screen's last-move flash leaves every word of the line readable
  (contrast 4.5:1 or more) while it flashes.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.bookings.models import Session
from games.bookings.services import booking

# What it checks (markup, contrast, layout) is the same on either stack: CI runs it once.
pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

STATIC = Path(__file__).resolve().parents[2] / "static"
ORIGIN = "http://ludo.test"
PHONE = {"width": 390, "height": 844}
ADDRESS = "marie.christine.dupontlefevre.de.la.grande.maison@exemple-de-courriel-tres-long.fr"


@pytest.fixture(scope="module")
def booking_page(django_db_setup, django_db_blocker) -> tuple[str, str]:
    """(path, html) of a booking's page with a long address, rendered before the module's
    browser starts (Playwright's sync API then holds an event loop in this thread, where
    Django refuses database work); its rows are removed afterwards."""
    with django_db_blocker.unblock():
        start = timezone.now().replace(microsecond=0) + timedelta(days=5)
        session = Session.objects.create(title="Soirée jeux de plis et de placement", starts_at=start,
                                         ends_at=start + timedelta(hours=3), capacity=12, room="Grande salle")
        made = booking.book(session.pk, name="Marie-Christine Dupont-Lefèvre", email=ADDRESS, seats=2)
        try:
            path = made.manage_url()
            html = Client().get(path).content.decode()
        finally:
            made.delete()
            session.delete()
    return path, html


def serve(page: Any, html: str) -> None:
    """Answer the page's address with ``html`` and /static/ with the project's files."""
    def handle(route: Any) -> None:
        path = route.request.url[len(ORIGIN):].split("?")[0]
        if path.startswith("/static/"):
            file = STATIC / path[len("/static/"):]
            if file.is_file():
                kind = "text/css" if file.suffix == ".css" else "application/javascript"
                route.fulfill(status=200, body=file.read_bytes(), content_type=kind)
            else:
                route.fulfill(status=404, body="")
        else:
            route.fulfill(status=200, body=html, content_type="text/html; charset=utf-8")

    page.route(f"{ORIGIN}/**", handle)


def test_the_booking_page_keeps_a_long_address_within_a_phone(booking_page, chromium):
    path, html = booking_page
    address = ADDRESS
    assert address in html
    context = chromium.new_context(viewport=PHONE, locale="fr-FR")
    try:
        page = context.new_page()
        serve(page, html)
        page.goto(ORIGIN + path)
        seen = page.evaluate("""(address) => {
            const dd = [...document.querySelectorAll('dd')].find((node) => node.textContent.includes(address));
            const box = dd.getBoundingClientRect();
            return {right: box.right, scrollWidth: document.scrollingElement.scrollWidth, width: innerWidth,
                    styled: getComputedStyle(document.querySelector('.site-header')).display};
        }""", address)
        assert seen["styled"] == "flex", "the stylesheets did not load"
        assert seen["scrollWidth"] <= seen["width"] and seen["right"] <= seen["width"], seen
    finally:
        context.close()


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


SCREEN_LINE = """<!doctype html><html><head><link rel="stylesheet" href="/static/css/site.css">
<link rel="stylesheet" href="/static/css/table.css"><link rel="stylesheet" href="/static/css/screen.css"></head>
<body><main><div class="table-page screen-page"><p class="last-move fresh" data-last-move>
<span class="meta">Dernier coup :</span> <span><span class="move-text">Ben pose le 3 face cachée</span></span></p>
</div></main></body></html>"""


@pytest.mark.parametrize("moment", [0.0, 0.3, 0.6, 0.9])
def test_the_living_rooms_last_move_flash_stays_readable(chromium, moment):
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    try:
        page = context.new_page()
        serve(page, SCREEN_LINE)
        page.goto(ORIGIN + "/salon/")
        # The flash stopped at a moment of its course: what a reader sees then.
        colours = page.evaluate("""(moment) => {
            const line = document.querySelector('.last-move');
            for (const animation of line.getAnimations()) {
              animation.pause();
              animation.currentTime = animation.effect.getComputedTiming().duration * moment;
            }
            const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 4).map(Number);
            const style = getComputedStyle(line);
            return {animated: line.getAnimations().length, background: rgb(style.backgroundColor),
                    // What lies under the line: the first ancestor with a background of its own.
                    page: (() => {
                      for (let node = line.parentElement; node; node = node.parentElement) {
                        const colour = rgb(getComputedStyle(node).backgroundColor);
                        if (colour.length < 4 || colour[3] > 0) return colour;
                      }
                      return [255, 255, 255];
                    })(),
                    words: [...line.querySelectorAll('.meta, .move-text')].map((n) => rgb(getComputedStyle(n).color))};
        }""", moment)
        assert colours["animated"] == 1
        page_colour = colours["page"][:3]
        *rgb, alpha = colours["background"] if len(colours["background"]) == 4 else [*colours["background"], 1]
        # The line's background laid over the page's.
        shown = tuple(alpha * c + (1 - alpha) * p for c, p in zip(rgb, page_colour))
        for word in colours["words"]:
            assert contrast(tuple(word[:3]), shown) >= 4.5, (moment, word, shown)
    finally:
        context.close()
