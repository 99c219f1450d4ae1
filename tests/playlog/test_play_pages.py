"""The play log's pages: the form (prefilled from a game, a session or a
booking's link), bad input shown with nothing saved, who may log, change and
delete, the search as you type, my plays."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from catalog.playlog import services
from catalog.playlog.models import Play
from catalog.playlog.services import Author
from tests.playlog.conftest import entry, post_data

pytestmark = pytest.mark.django_db


def login(client, user):
    client.force_login(user)
    return client


def test_an_anonymous_visitor_is_sent_to_log_in(client, ticket):
    response = client.get(reverse("playlog:log"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    response = client.post(reverse("playlog:log"), post_data(ticket, ("Zoé", None, True)))
    assert response.status_code == 302 and Play.objects.count() == 0


def test_an_account_logs_a_play_and_lands_on_the_game_page(client, bob, ticket):
    login(client, bob)
    page = client.get(reverse("playlog:log") + f"?game={ticket.slug}")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="Les Aventuriers du Rail"' in html and f'name="game" value="{ticket.pk}"' in html
    assert f'value="{timezone.localdate().isoformat()}"' in html
    assert 'name="player-0-name" value="bob"' in html  # the one logging is proposed first
    response = client.post(reverse("playlog:log"), post_data(ticket, ("bob", 31, False), ("Anne", 40, False)))
    assert response.status_code == 302 and response["Location"] == ticket.get_absolute_url()
    play = Play.objects.get()
    assert play.logged_by == bob and [(p.name, p.won, p.user_id) for p in play.players.all()] == [
        ("bob", False, bob.pk), ("Anne", True, None)]
    assert "joué 1 fois ici" in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("rows, day, flags, message", [
    ((("Bob", 5, True), ("Anne", -1, False)), None, {}, "un score sous zéro"),
    ((("Bob", 123456, True),), None, {}, "Une faute de frappe"),
    ((("Bob", "douze", True),), None, {}, "un score est un nombre entier"),
    ((("Bob", 10, True), ("Anne", 12, False)), None, {}, "un gagnant a le meilleur score"),
    ((("Bob", None, True), ("bob", None, False)), None, {}, "nommé deux fois"),
    ((("", None, False),), None, {}, "Nommez au moins un joueur"),
    ((("Bob", None, False), ("", None, True)), None, {}, "Un gagnant doit être l’un des joueurs"),
    ((("Bob", None, True),), timezone.localdate() + timedelta(days=1), {}, "ne peut pas être dans le futur"),
])
def test_bad_input_is_refused_with_a_clear_message_and_nothing_saved(client, bob, ticket, rows, day, flags, message):
    login(client, bob)
    response = client.post(reverse("playlog:log"), post_data(ticket, *rows, day=day, **flags))
    assert response.status_code == 400
    html = response.content.decode()
    assert "La partie n’a pas été enregistrée" in html and message in html
    assert Play.objects.count() == 0


def test_a_refused_form_keeps_what_was_typed(client, bob, ticket):
    login(client, bob)
    html = client.post(reverse("playlog:log"), post_data(ticket, ("Bob", 10, True), ("Anne", 12, False),
                                                          note="serré")).content.decode()
    assert 'name="player-1-name" value="Anne"' in html and 'name="player-1-score" value="12"' in html
    assert "serré" in html and 'name="player-0-won" checked' in html


def test_a_bad_date_is_refused(client, bob, ticket):
    login(client, bob)
    data = post_data(ticket, ("Bob", None, True))
    data["played_on"] = "2026-02-31"
    response = client.post(reverse("playlog:log"), data)
    assert response.status_code == 400 and "Ce n’est pas une date." in response.content.decode()
    assert Play.objects.count() == 0


def test_without_script_the_game_name_is_searched_and_several_matches_are_offered(client, bob, ticket, azul):
    from tests.playlog.conftest import box

    login(client, bob)
    data = post_data(None, ("Bob", None, True))
    data["game_query"] = "aventuriers du rail"
    response = client.post(reverse("playlog:log"), data)
    assert response.status_code == 302 and Play.objects.get().game == ticket
    europe = box("Ticket to Ride: Europe", "Les Aventuriers du Rail : Europe")
    response = client.post(reverse("playlog:log"), data)
    html = response.content.decode()
    assert response.status_code == 400 and "Plusieurs jeux ont ce nom" in html
    assert f'name="game" value="{europe.pk}"' in html and f'name="game" value="{ticket.pk}"' in html
    assert Play.objects.count() == 1


def test_the_search_as_you_type_finds_games_by_their_french_names(client, ticket, azul):
    found = client.get(reverse("playlog:games"), {"q": "aventurier rail"}).json()["games"]
    assert found[0] == {"id": ticket.pk, "title": "Les Aventuriers du Rail", "original": "Ticket to Ride", "year": ""}
    assert client.get(reverse("playlog:games"), {"q": ""}).json() == {"games": []}


def test_a_session_proposes_its_day_and_people_to_those_booked_on_it(client, bob, bob_booking, carol_booking,
                                                                     session_today, ticket):
    login(client, bob)
    html = client.get(reverse("playlog:log") + f"?session={session_today.pk}").content.decode()
    day = session_today.local_start.date().isoformat()
    assert f'name="played_on" value="{day}"' in html
    # His own booking only: nobody sees another's bookings.
    assert 'name="player-0-name" value="Bob Martin"' in html and "Carol" not in html
    assert f'name="session" value="{session_today.pk}"' in html
    client.post(reverse("playlog:log"), {**post_data(ticket, ("Carol", None, True), ("Bob Martin", None, False)),
                                         "session": session_today.pk})
    play = Play.objects.get()
    assert play.session == session_today
    assert [p.user_id for p in play.players.all()] == [None, bob.pk]  # Bob's account, as proposed


def test_a_host_gets_every_booking_of_the_session_with_its_seats_to_name(client, alice, bob_booking, carol_booking,
                                                                          session_today):
    login(client, alice)
    html = client.get(reverse("playlog:log") + f"?session={session_today.pk}").content.decode()
    # Bob's booking (first booked), then Carol's party of three: her name and two seats to name.
    assert 'name="player-0-name" value="Bob Martin"' in html and 'name="player-1-name" value="Carol"' in html
    assert 'name="player-2-name" value=""' in html and 'name="player-3-name" value=""' in html
    assert 'data-person="alice"' in html  # and the host herself, to add with a tap


def test_a_session_is_not_proposed_to_an_account_not_booked_on_it(client, dave, carol_booking, session_today):
    login(client, dave)
    html = client.get(reverse("playlog:log") + f"?session={session_today.pk}").content.decode()
    assert "Carol" not in html and 'name="session"' not in html


def test_a_guest_logs_with_the_link_of_their_booking(client, carol_booking, carol_token, ticket, session_today):
    url = reverse("playlog:log") + f"?booking={carol_token}"
    html = client.get(url).content.decode()
    assert 'name="player-0-name" value="Carol"' in html and f'name="booking" value="{carol_token}"' in html
    response = client.post(reverse("playlog:log"), {**post_data(ticket, ("Carol", None, True), ("Zoé", None, False)),
                                                    "booking": carol_token})
    assert response.status_code == 302
    play = Play.objects.get()
    assert play.booking == carol_booking and play.session == session_today and play.logged_by is None


def test_a_broken_or_stale_booking_link_gives_no_right(client, carol_booking, carol_token, ticket):
    from games.bookings import services as bookings

    assert client.get(reverse("playlog:log") + "?booking=forged").status_code == 302  # to the login page
    bookings.change(carol_booking.pk, counter=carol_booking.changes, seats=2,
                    now=carol_booking.session.starts_at - timedelta(days=2))  # older links go stale
    response = client.post(reverse("playlog:log"), {**post_data(ticket, ("Carol", None, True)), "booking": carol_token})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert Play.objects.count() == 0


def test_the_author_changes_their_play_another_account_cannot(client, bob, dave, ticket, azul):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", None, True)))
    login(client, dave)
    assert client.get(reverse("playlog:edit", args=[play.pk])).status_code == 403
    assert client.post(reverse("playlog:edit", args=[play.pk]), post_data(azul, ("Dave", None, True))).status_code == 403
    assert client.post(reverse("playlog:delete", args=[play.pk])).status_code == 403
    assert Play.objects.get().game == ticket
    login(client, bob)
    html = client.get(reverse("playlog:edit", args=[play.pk])).content.decode()
    assert 'name="player-0-name" value="Bob"' in html and "Supprimer cette partie" in html
    response = client.post(reverse("playlog:edit", args=[play.pk]), post_data(azul, ("Bob", 3, False), ("Léa", 1, False)))
    assert response.status_code == 302
    assert Play.objects.get().game == azul
    assert client.post(reverse("playlog:delete", args=[play.pk])).status_code == 302
    assert Play.objects.count() == 0


def test_a_host_changes_and_deletes_any_play(client, alice, bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", None, True)))
    login(client, alice)
    response = client.post(reverse("playlog:edit", args=[play.pk]), post_data(ticket, ("Bob", None, False), ("Anne", None, True)))
    assert response.status_code == 302 and [p.won for p in Play.objects.get().players.all()] == [False, True]
    assert client.post(reverse("playlog:delete", args=[play.pk])).status_code == 302
    assert Play.objects.count() == 0


def test_a_guest_changes_a_play_of_their_booking_with_its_link(client, carol, carol_token, bob, ticket):
    theirs = services.log_play(carol, entry(ticket, ("Carol", None, True)))
    other = services.log_play(Author(bob), entry(ticket, ("Bob", None, True)))
    assert client.get(reverse("playlog:edit", args=[theirs.pk])).status_code == 302  # no link: log in
    assert client.get(reverse("playlog:edit", args=[other.pk]) + f"?booking={carol_token}").status_code == 403
    response = client.post(reverse("playlog:edit", args=[theirs.pk]),
                           {**post_data(ticket, ("Carol", None, False), ("Zoé", None, True)), "booking": carol_token})
    assert response.status_code == 302
    assert client.post(reverse("playlog:delete", args=[theirs.pk]), {"booking": carol_token}).status_code == 302
    assert list(Play.objects.all()) == [other]


def test_my_plays_lists_those_i_logged_or_played_in_and_hosts_see_all(client, alice, bob, dave, ticket, azul):
    from catalog.playlog.rules import Seat

    services.log_play(Author(bob), entry(ticket, ("Bob", None, True)))
    services.log_play(Author(dave), entry(azul, Seat("Dave", None, True, dave.pk), Seat("Bob", None, False, bob.pk)))
    services.log_play(Author(dave), entry(azul, ("Dave", None, True), day=timezone.localdate() - timedelta(days=1)))
    login(client, bob)
    html = client.get(reverse("playlog:mine")).content.decode()
    assert html.count("modifier</a>") == 2
    login(client, alice)
    assert client.get(reverse("playlog:mine")).content.decode().count("modifier</a>") == 3
