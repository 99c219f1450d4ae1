"""My account (/compte/, /en/account/): my bookings, my games, my tokens, my
preferences; nobody sees another's; the header's user name leads there."""

from __future__ import annotations

import pytest
from django.test import Client

from games.bookings.models import Booking
from ludo.models import Profile
from tests.ludo.account_helpers import carol, history_of, logged_in  # noqa: F401

pytestmark = pytest.mark.django_db

PAGES = ["/compte/", "/en/account/", "/compte/export/", "/compte/suppression/", "/en/account/delete/"]


@pytest.mark.parametrize("path", PAGES)
def test_it_sends_anonymous_visitors_to_log_in(path):
    response = Client().get(path)
    assert response.status_code == 302
    assert response["Location"].split("?")[0] in ("/compte/connexion/", "/en/account/login/")


@pytest.mark.parametrize("path", ["/compte/langue/", "/compte/adresse/"])
def test_its_forms_refuse_anonymous_posts(path):
    assert Client().post(path, {"language": "en", "email": "x@example.org"}).status_code == 302
    assert not Profile.objects.exists()


def test_it_shows_my_bookings_games_and_tokens(bob, carol, alice):
    mine = history_of(bob, alice, carol, "B")
    html = logged_in(bob).get("/compte/").content.decode()
    assert "<h1>Mon compte</h1>" in html
    for text in ("Soirée à venir B", "Soirée passée B", "robot B", f"table {mine.running.pk}",
                 f"table {mine.finished.pk}", "gagnée", "2 places, au nom de bob B", "1 place, au nom de bob B"):
        assert text in html, text
    # Change or cancel through the booking's own page, with a fresh link.
    assert 'href="/sessions/reservation/' in html and "Modifier ou annuler" in html
    assert f'href="/jouer/table/{mine.finished.pk}/revoir/"' in html
    assert f'href="/jouer/table/{mine.running.pk}/"' in html


def test_it_shows_nothing_of_another_account(bob, carol, alice):
    history_of(bob, alice, carol, "B")
    html = logged_in(carol).get("/compte/").content.decode()
    for text in ("Soirée à venir B", "Soirée passée B", "robot B", "bob@example.org", "/sessions/reservation/"):
        assert text not in html, text
    # carol sat at bob's tables as his opponent: those are hers too, and only those.
    assert "perdue" in html


def test_the_link_from_the_page_opens_the_booking_for_change(bob, carol, alice):
    mine = history_of(bob, alice, carol, "B")
    client = logged_in(bob)
    html = client.get("/compte/").content.decode()
    link = html.split('href="/sessions/reservation/')[1].split('"')[0]
    page = client.get(f"/sessions/reservation/{link}")
    assert page.status_code == 200 and "Soirée à venir B" in page.content.decode()
    client.post(f"/sessions/reservation/{link}", {"action": "cancel"})
    assert Booking.objects.get(pk=mine.upcoming.pk).status == "cancelled"


def test_it_is_in_english_under_en(bob):
    html = logged_in(bob).get("/en/account/").content.decode()
    assert "<h1>My account</h1>" in html and "My bookings at the house" in html


def test_the_header_name_links_to_the_account_page(bob):
    client = logged_in(bob)
    assert 'href="/compte/" title="Mon compte"' in client.get("/").content.decode()
    assert 'href="/en/account/" title="My account"' in client.get("/en/").content.decode()


def test_the_tokens_page_is_a_tab_of_the_account(bob):
    html = logged_in(bob).get("/compte/jetons/").content.decode()
    assert 'class="account-tabs"' in html and 'href="/compte/jetons/" aria-current="page"' in html


def test_it_saves_my_language_and_answers_in_it(bob):
    client = logged_in(bob)
    response = client.post("/compte/langue/", {"language": "en"})
    assert response.status_code == 302 and response["Location"] == "/en/account/"
    assert Profile.objects.get(user=bob).language == "en"
    # From now on the French pages send this account to the English ones.
    assert client.get("/compte/")["Location"] == "/en/account/"
    client.post("/en/account/language/", {"language": ""})
    assert Profile.objects.get(user=bob).language == ""


def test_it_refuses_an_unknown_language_and_changes_nothing(bob):
    client = logged_in(bob)
    client.post("/compte/langue/", {"language": "de"})
    assert not Profile.objects.filter(user=bob).exists()


def test_its_queries_do_not_grow_with_my_history(bob, carol, alice, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    history_of(bob, alice, carol, "1")
    client = logged_in(bob)
    client.get("/compte/")  # warm the session
    with CaptureQueriesContext(connection) as one:
        assert client.get("/compte/").status_code == 200
    for tag in ("2", "3", "4"):
        history_of(bob, alice, carol, tag)
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = client.get("/compte/").content.decode()
    assert "Soirée à venir 4" in html and "robot 4" in html
