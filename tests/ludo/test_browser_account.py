"""In a real Chromium against a real daphne: a player who forgot their password
asks for a link, reads the email the server sent (DEBUG's console backend
writes it to the server's log), follows the link, chooses a new password and
logs in with it; the user name in the header leads to the account page.
Screenshots of the account page at phone and desktop sizes."""

from __future__ import annotations

import email
import os
import re
from pathlib import Path

import pytest

from tests.servers import DaphneServer, free_port, manage

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
OLD_PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "un nouveau mot de passe bien long"
SHOTS = Path(os.environ.get("LUDO_SHOTS_DIR", "")) if os.environ.get("LUDO_SHOTS_DIR") else None

SEED = f"""
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from games import services as tables
from games.bookings import services as bookings
from ludo.accounts import create_staff_account
from ludo.tokens.services import create_personal_token
alice = create_staff_account("alice", "alice@example.org", "{OLD_PASSWORD}")
User = get_user_model()
zoe = User.objects.create_user("zoe", "zoe@example.org", "{OLD_PASSWORD}")
max_ = User.objects.create_user("max", "max@example.org", "{OLD_PASSWORD}")
now = timezone.now()
soon = bookings.create_session(alice, starts_at=now + timedelta(days=3), ends_at=now + timedelta(days=3, hours=3),
                               capacity=8, title="Soirée Drumlin", room="La grange")
bookings.book(soon.pk, name="Zoé", email=zoe.email, seats=3, user=zoe)
before = now - timedelta(days=20)
gone = bookings.create_session(alice, starts_at=now - timedelta(days=9), ends_at=now - timedelta(days=9, hours=-3),
                               capacity=8, title="Après-midi Karo", now=before)
bookings.book(gone.pk, name="Zoé", email=zoe.email, seats=2, user=zoe, now=before)
me, other = (tables.Who(user_id=u.pk, name=u.username) for u in (zoe, max_))
running = tables.create_table(me, "drumlin")
tables.join_table(running.pk, other)
tables.start_table(running.pk, me)
finished = tables.create_table(me, "eclaircissement")
tables.join_table(finished.pk, other)
tables.start_table(finished.pk, me)
tables.resign(finished.pk, other)
create_personal_token(zoe, "mon robot")
"""


def last_email(log: str) -> email.message.Message:
    """The last message the console backend printed: its header block (the
    header lines around the last Subject) up to the line of dashes that closes it."""
    lines = log.splitlines()
    subject = max((i for i, line in enumerate(lines) if line.startswith("Subject: ")), default=None)
    assert subject is not None, f"no email in the server's log:\n{log[-2000:]}"
    start = subject
    while start > 0 and re.match(r"[A-Za-z-]+: ", lines[start - 1]):
        start -= 1
    text = re.split(r"\n-{70,}\n", "\n".join(lines[start:]) + "\n")[0]
    return email.message_from_string(text)


def body_of(message: email.message.Message) -> str:
    part = message.get_payload(0) if message.is_multipart() else message
    return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")


def test_a_forgotten_password_is_reset_from_the_email_link(server_env, browser_page):
    port = free_port()
    server = DaphneServer({**server_env, "SITE_URL": f"http://127.0.0.1:{port}"}, port=port)
    manage("shell", "-c", SEED, env=server_env)
    with server:
        page = browser_page.page
        page.goto(server.url("/compte/connexion/"))
        page.get_by_role("link", name="Mot de passe oublié ?").click()
        page.fill("input[name=email]", "zoe@example.org")
        page.get_by_role("button", name="M’envoyer le lien").click()
        page.wait_for_url("**/compte/mot-de-passe/oubli/envoye/")
        assert page.locator("h1").inner_text() == "Consultez vos e-mails"

        message = last_email(server.log)
        assert message["To"] == "zoe@example.org"
        link = re.search(rf"http://127\.0\.0\.1:{port}/compte/mot-de-passe/oubli/\S+/", body_of(message)).group(0)
        page.goto(link)
        assert page.locator("h1").inner_text() == "Choisir un nouveau mot de passe"
        page.fill("input[name=new_password1]", NEW_PASSWORD)
        page.fill("input[name=new_password2]", NEW_PASSWORD)
        page.get_by_role("button", name="Enregistrer mon nouveau mot de passe").click()
        page.wait_for_url("**/compte/mot-de-passe/oubli/fait/")

        page.get_by_role("main").get_by_role("link", name="Connexion").click()
        page.fill("input[name=username]", "zoe")
        page.fill("input[name=password]", OLD_PASSWORD)
        with page.expect_navigation():
            page.locator("form:has(input[name=password]) button[type=submit]").click()
        assert page.locator(".errorlist, .errornote").count() >= 1  # the old one no longer works
        page.fill("input[name=password]", NEW_PASSWORD)
        page.locator("form:has(input[name=password]) button[type=submit]").click()
        page.wait_for_url(server.url("/"))

        page.locator(".site-account").get_by_role("link", name="zoe").click()
        page.wait_for_url("**/compte/")
        assert page.locator("h1").inner_text() == "Mon compte"
        assert "Soirée Drumlin" in page.locator("#bookings-title + h3 + ul").inner_text()
        assert page.get_by_role("link", name="Revoir la partie").count() == 1
        for label, size in (("account-phone", PHONE), ("account-desktop", DESKTOP)):
            page.set_viewport_size(size)
            shot = browser_page.screenshot(label)
            if SHOTS is not None:
                SHOTS.mkdir(parents=True, exist_ok=True)
                (SHOTS / shot.name).write_bytes(shot.read_bytes())
        browser_page.assert_no_console_errors()
