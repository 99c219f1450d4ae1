"""Password reset by email (Django's views, our templates and texts): the link
starts with SITE_URL, works once, and nothing tells whether an address has an account."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from ludo.typography import french as typeset

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "une toute nouvelle phrase de passe"


def test_the_login_page_links_to_it():
    html = Client().get("/compte/connexion/").content.decode()
    assert 'href="/compte/mot-de-passe/oubli/"' in html and typeset("Mot de passe oublié ?") in html


def test_it_mails_a_link_on_the_site_url_and_the_link_sets_a_new_password(bob, settings):
    settings.SITE_URL = "https://ludo.example"
    client = Client()
    page = client.get("/compte/mot-de-passe/oubli/")
    assert page.status_code == 200 and "<h1>Mot de passe oublié</h1>" in page.content.decode()
    response = client.post("/compte/mot-de-passe/oubli/", {"email": "BOB@example.org"})
    assert response["Location"] == "/compte/mot-de-passe/oubli/envoye/"
    [message] = mail.outbox
    assert message.to == ["bob@example.org"] and message.subject == "Votre nouveau mot de passe sur Ludo"
    link = re.search(r"https://ludo\.example(/compte/mot-de-passe/oubli/\S+/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert "Choisir un nouveau mot de passe" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done["Location"] == "/compte/mot-de-passe/oubli/fait/"
    assert get_user_model().objects.get(pk=bob.pk).check_password(NEW_PASSWORD)
    # Used once: the same link no longer works.
    again = Client().get(link, follow=True).content.decode()
    assert "ne fonctionne plus" in again


def test_an_unknown_address_gets_the_same_answer_and_no_email(db):
    response = Client().post("/compte/mot-de-passe/oubli/", {"email": "nobody@example.org"})
    assert response["Location"] == "/compte/mot-de-passe/oubli/envoye/" and not mail.outbox


def test_it_is_in_english_under_en(bob):
    Client().post("/en/account/password/reset/", {"email": "bob@example.org"})
    [message] = mail.outbox
    assert message.subject == "Your new password at Ludo"
    assert "/en/account/password/reset/" in message.body and "Someone (you, we hope)" in message.body


def test_it_sends_at_most_the_limit_to_one_address_and_answers_the_same(bob, settings):
    settings.LUDO_ACCOUNT_MAIL_RATE_LIMIT = (2, 3600)
    answers = [Client().post("/compte/mot-de-passe/oubli/", {"email": "bob@example.org"})["Location"] for _ in range(4)]
    assert answers == ["/compte/mot-de-passe/oubli/envoye/"] * 4
    assert len(mail.outbox) == 2
