"""What the rest of the site shows of the play log: the game page's line
("joué N fois ici, la dernière fois le ..."), the session and booking pages'
offer to log what was played, the picker's "not yet played by us", and the
hosts' most and least played boxes of the year."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode

from catalog.playlog import services
from catalog.playlog.rules import Seat
from catalog.playlog.services import Author
from ludo.typography import french as typeset
from tests.playlog.conftest import box, entry

pytestmark = pytest.mark.django_db


def test_the_game_page_says_how_often_and_when_it_was_last_played_here(client, bob, ticket):
    assert "pas encore joué ici" in client.get(ticket.get_absolute_url()).content.decode()
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=date(2026, 3, 7)))
    assert "joué 1 fois ici, le 7 mars 2026" in client.get(ticket.get_absolute_url()).content.decode()
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=date(2026, 11, 1)))
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=date(2026, 5, 1)))
    html = client.get(ticket.get_absolute_url()).content.decode()
    assert "joué 3 fois ici, la dernière fois le 1 novembre 2026" in html


def test_the_game_page_line_in_english(client, bob, ticket):
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=date(2026, 3, 7)))
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=date(2026, 3, 9)))
    with translation.override("en"):
        url = ticket.get_absolute_url()
    assert "played 2 times here, last on March 9, 2026" in client.get(url).content.decode()


def test_the_game_page_offers_accounts_to_log_a_play_of_it(client, bob, ticket):
    link = f'{reverse("playlog:log")}?game={ticket.slug}'
    assert link not in client.get(ticket.get_absolute_url()).content.decode()
    client.force_login(bob)
    assert link in client.get(ticket.get_absolute_url()).content.decode()


def test_a_started_session_offers_those_booked_and_its_hosts_to_log_a_play(client, alice, bob, dave, bob_booking,
                                                                        session_today):
    link = f'{reverse("playlog:log")}?session={session_today.pk}'
    assert link not in client.get(session_today.get_absolute_url()).content.decode()
    client.force_login(dave)
    assert link not in client.get(session_today.get_absolute_url()).content.decode()
    client.force_login(bob)
    assert link in client.get(session_today.get_absolute_url()).content.decode()
    client.force_login(alice)
    assert link in client.get(session_today.staff_url()).content.decode()


def test_a_session_not_started_yet_does_not_offer_it(client, alice, bob):
    from games.bookings import services as bookings

    later = bookings.create_session(alice, starts_at=timezone.now() + timedelta(days=2),
                                    ends_at=timezone.now() + timedelta(days=2, hours=3), capacity=5)
    bookings.book(later.pk, name="Bob", email="bob@example.org", seats=1, user=bob)
    client.force_login(bob)
    assert "?session=" not in client.get(later.get_absolute_url()).content.decode()


def test_the_booking_page_offers_to_log_with_its_link_and_lists_its_plays(client, carol, carol_token, ticket):
    services.log_play(carol, entry(ticket, ("Carol", None, True)))
    html = client.get(reverse("bookings:manage", args=[carol_token])).content.decode()
    assert typeset("À quoi avez-vous joué ?") in html
    assert f'{reverse("playlog:log")}?{urlencode({"booking": carol_token})}' in html
    assert "Les Aventuriers du Rail</a>" in html
    assert "not_played=on" in html  # and the picker's "not yet played by us"


def test_the_picker_leaves_out_what_the_group_has_played(client, carol, carol_token, ticket, azul):
    wanted = {"players": 3, "minutes": 60, "youngest": 10, "mood": "anything"}
    anonymous = client.get(reverse("catalog:pick"), wanted).content.decode()
    assert "pas encore joué par nous" not in anonymous  # no group: no such filter
    services.log_play(carol, entry(ticket, ("Carol", None, True)))
    page = client.get(reverse("catalog:pick"), {**wanted, "booking": carol_token, "not_played": "on"})
    html = page.content.decode()
    assert "pas encore joué par nous" in html and "Azul" in html and "Les Aventuriers du Rail" not in html
    html = client.get(reverse("catalog:pick"), {**wanted, "booking": carol_token}).content.decode()
    assert "Les Aventuriers du Rail" in html


def test_an_account_filters_out_the_games_it_played_in(client, bob, dave, ticket, azul):
    wanted = {"players": 3, "minutes": 60, "youngest": 10, "mood": "anything", "not_played": "on"}
    services.log_play(Author(dave), entry(azul, Seat("Dave", None, True, dave.pk), Seat("Bob", None, False, bob.pk)))
    client.force_login(bob)
    html = client.get(reverse("catalog:pick"), wanted).content.decode()
    assert "Les Aventuriers du Rail" in html and "Azul" not in html


def test_the_hosts_see_the_most_and_least_played_boxes_of_the_year(client, alice, bob, ticket, azul):
    dixit = box("Dixit")
    this_year = timezone.localdate().year
    for day in (1, 2, 3):
        services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=date(this_year, 1, day)))
    services.log_play(Author(bob), entry(azul, ("Bob", None, True), day=date(this_year, 1, 5)))
    services.log_play(Author(bob), entry(dixit, ("Bob", None, True), day=date(this_year - 1, 6, 1)))  # last year
    client.force_login(bob)
    assert client.get(reverse("playlog:year")).status_code == 302  # staff only: to the admin login
    client.force_login(alice)
    page = client.get(reverse("playlog:year"))
    most, least = page.context["most"], page.context["least"]
    assert [(r.game, r.times) for r in most] == [(ticket, 3), (azul, 1)]
    assert [(r.game, r.times) for r in least] == [(dixit, 0), (azul, 1), (ticket, 3)]
    assert page.context["plays"] == 4 and page.context["never"] == 1 and page.context["boxes"] == 3
    html = page.content.decode()
    assert f"Les boîtes de {this_year}" in html and "1 des 3 boîtes" in html
    last_year = client.get(reverse("playlog:year"), {"year": this_year - 1}).context
    assert [(r.game, r.times) for r in last_year["most"]] == [(dixit, 1)]
