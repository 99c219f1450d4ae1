"""Booking in a real Chromium against a real daphne: a guest finds a session,
books for a party, is asked to check their email, follows the link the
worker mailed (read from what the worker sent), confirms, lands on the
booking page, cancels; a host sees it in the calendar. No console error (a
CSP violation is one); screenshots in artifacts/screenshots/."""

from __future__ import annotations

import email
import re
from datetime import datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest

from tests.servers import manage

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "correct horse battery staple"

SEED = f"""
from datetime import time, timedelta
from django.utils import timezone
from ludo.accounts import create_staff_account
from games.bookings import services
alice = create_staff_account("alice", "alice@example.org", "{PASSWORD}")
day = timezone.localdate() + timedelta(days=3)
start, end = services.local_span(day, time(20), time(23))
services.create_session(alice, starts_at=start, ends_at=end, capacity=6,
                        title="Soirée Drumlin", room="La grange", notes="Apportez des gâteaux.")
"""


def test_a_guest_books_and_cancels_and_the_host_sees_it(daphne_server, server_env, browser_page):
    manage("shell", "-c", SEED, env=server_env)
    page = browser_page.page
    page.goto(daphne_server.url("/sessions/"))
    assert page.locator("h1").inner_text() == "Sessions au gîte"
    page.get_by_role("link", name="Soirée Drumlin").click()
    assert "La grange" in page.locator(".when").inner_text()
    page.set_viewport_size(PHONE)
    browser_page.screenshot("session-fr-phone")
    page.set_viewport_size(DESKTOP)

    page.fill("input[name=name]", "Carol")
    page.fill("input[name=email]", "carol@example.org")
    page.fill("input[name=seats]", "2")
    page.get_by_role("button", name="Réserver").click()
    page.wait_for_url("**/sessions/reservation/verifiez-vos-e-mails/")
    assert page.locator("h1").inner_text() == "Consultez vos e-mails"
    browser_page.screenshot("check-email-desktop")
    page.set_viewport_size(PHONE)
    browser_page.screenshot("check-email-phone")
    page.set_viewport_size(DESKTOP)

    # Nothing is sent inside the request: the worker's job sends the outbox.
    sent = manage("worker", "--once", "--job", "bookings.emails",
                  env={**server_env, "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}).stdout
    [message] = [email.message_from_string(part) for part in sent.split("-" * 79) if part.strip()]
    assert message["To"] == "carol@example.org"
    body = message.get_payload(decode=True).decode()
    link = re.search(r"https?://\S+/sessions/reservation/confirmer/\S+/", body).group(0)
    page.goto(daphne_server.url(urlsplit(link).path))
    assert page.locator("h1").inner_text() == "Confirmez votre réservation"
    page.get_by_role("button", name="Confirmer ma réservation").click()
    page.wait_for_url("**/sessions/reservation/**")
    assert page.locator("h1").inner_text() == "Votre réservation"
    assert page.locator(".status").inner_text().startswith("confirmée")
    browser_page.screenshot("booking-fr-desktop")
    page.set_viewport_size(PHONE)
    browser_page.screenshot("booking-fr-phone")
    page.set_viewport_size(DESKTOP)

    page.get_by_role("button", name="Annuler ma réservation").click()
    page.wait_for_load_state()
    assert page.locator(".status").inner_text().startswith("annulée")

    page.goto(daphne_server.url("/compte/connexion/"))
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form:has(input[name=password]) button[type=submit]").click()
    page.wait_for_load_state()
    day = (datetime.now(ZoneInfo("Europe/Paris")) + timedelta(days=3)).date().isoformat()
    page.goto(daphne_server.url(f"/sessions/hotes/?date={day}"))
    session_link = page.locator(".calendar-session").first
    assert "Soirée Drumlin" in session_link.inner_text()
    browser_page.screenshot("calendar-week-desktop")
    page.set_viewport_size(PHONE)
    browser_page.screenshot("calendar-week-phone")
    page.set_viewport_size(DESKTOP)
    session_link.click()
    assert "Carol" in page.locator(".bookings-table").inner_text()
    browser_page.screenshot("staff-session-desktop")
    page.goto(daphne_server.url(f"/sessions/hotes/?view=month&date={day}"))
    browser_page.screenshot("calendar-month-desktop")

    browser_page.assert_no_console_errors()
