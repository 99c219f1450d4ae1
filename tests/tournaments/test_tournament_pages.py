"""The tournament's pages: create (hosts only), the screen and its live part,
a phone joining by the code, the player's page and its JSON, the buttons."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.living import codes
from tests.tournaments.helpers import guests, host, play_round, tournament_with
from tournaments import services
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def staff_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_only_hosts_reach_the_new_tournament_form(alice, bob):
    url = reverse("tournaments:new")
    assert Client().get(url).status_code == 302
    player = Client()
    player.force_login(bob)
    assert player.post(url, {"name": "Soirée", "game": "drumlin"}).status_code == 302
    assert not Tournament.objects.exists()
    staff = staff_client(alice)
    assert staff.get(url).status_code == 200
    bad = staff.post(url, {"name": "Soirée", "game": "drumlin", "format": "swiss", "rounds": "zero"})
    assert bad.status_code == 400 and not Tournament.objects.exists()
    ok = staff.post(url, {"name": "Soirée", "game": "quatre-en-ligne", "format": "swiss", "rounds": "3",
                          "clock": "none", "guests": "on", "round_pause": "10"})
    t = Tournament.objects.get()
    assert ok.status_code == 302 and ok["Location"] == reverse("tournaments:screen", args=[t.pk])
    assert (t.rounds, t.round_pause, t.guests_allowed) == (3, 10, True)


def test_the_screen_shows_the_code_and_redraws_only_on_change(alice):
    t = tournament_with(alice, guests(2))
    page = staff_client(alice).get(reverse("tournaments:screen", args=[t.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert t.code in body and "data:image/svg+xml;base64," in body and "Joueur1" in body
    live = reverse("tournaments:live", args=[t.pk])
    t.refresh_from_db()
    assert Client().get(live, {"v": t.version}).status_code == 204
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    changed = Client().get(live, {"v": t.version - 1})
    assert changed.status_code == 200 and changed["X-Tournament-Version"] == str(t.version)
    assert b"data-pairings" in changed.content
    assert Client().get(reverse("tournaments:screen", args=[999999])).status_code == 404


def test_a_phone_joins_by_the_code_and_lands_on_its_page(alice):
    t = tournament_with(alice, [])
    phone = Client(REMOTE_ADDR="203.0.113.20")
    url = reverse("tournaments:code", args=[t.code])
    assert phone.get(url).status_code == 200
    assert phone.post(url, {"name": " "}).status_code == 400
    joined = phone.post(url, {"name": "Zoé"})
    assert joined.status_code == 302 and joined["Location"] == reverse("tournaments:player", args=[t.pk])
    assert Entrant.objects.filter(tournament=t, name="Zoé").count() == 1
    assert phone.get(url).status_code == 302  # back to its page: already in
    assert phone.post(url, {"name": "Zoé"}).status_code == 302
    assert Entrant.objects.filter(tournament=t).count() == 1


def test_joining_after_the_start_is_refused_with_a_message(alice):
    t = tournament_with(alice, guests(2))
    services.start(t.pk, host(alice))
    late = Client(REMOTE_ADDR="203.0.113.21")
    page = late.post(reverse("tournaments:code", args=[t.code]), {"name": "Tardif"})
    assert page.status_code in (200, 409)
    assert not Entrant.objects.filter(name="Tardif").exists()


def test_codes_cannot_be_enumerated(alice):
    t = tournament_with(alice, [])
    prober = Client(REMOTE_ADDR="203.0.113.22")
    for i in range(codes.TRIES):
        assert prober.get(reverse("tournaments:code", args=[f"AAAA{codes.ALPHABET[i % 16]}"])).status_code == 404
    limited = prober.get(reverse("tournaments:code", args=[t.code]))
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0


def test_the_player_json_says_where_to_sit(alice):
    t = tournament_with(alice, [])
    phones = []
    for name in ("Ana", "Ben"):
        phone = Client()
        phone.post(reverse("tournaments:code", args=[t.code]), {"name": name})
        phones.append(phone)
    me = reverse("tournaments:me", args=[t.pk])
    assert phones[0].get(me).json()["table"] is None
    services.start(t.pk, host(alice))
    answers = [p.get(me).json() for p in phones]
    assert answers[0]["table"] == answers[1]["table"] is not None
    assert answers[0]["table_url"] == reverse("games:table", args=[answers[0]["table"]])
    assert {a["seat"] for a in answers} == {0, 1}
    stranger = Client().get(me).json()
    assert stranger["entered"] is False and stranger["table"] is None
    # The table's page follows the tournament: its script knows where to ask.
    table_page = phones[0].get(answers[0]["table_url"])
    assert me.encode() in table_page.content and b"data-tournament-follow" in table_page.content
    assert phones[0].get(reverse("tournaments:player", args=[t.pk])).status_code == 200


def test_buttons_do_only_what_the_person_may(alice):
    t = tournament_with(alice, [])
    act = reverse("tournaments:act", args=[t.pk])
    phone = Client()
    phone.post(reverse("tournaments:code", args=[t.code]), {"name": "Ana"})
    phone.post(act, {"action": "start"})  # not a host
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.OPEN
    assert phone.post(act, {"action": "explode"}).status_code == 400
    assert phone.get(act).status_code == 405
    staff = staff_client(alice)
    staff.post(reverse("tournaments:code", args=[t.code]), {})  # the host plays too
    staff.post(act, {"action": "start"})
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    phone.post(act, {"action": "pause"})
    assert Entrant.objects.get(name="Ana").status == Entrant.Status.PAUSED
    staff.post(act, {"action": "next", "round": "0"})  # a stale page: refused, nothing paired
    assert Tournament.objects.get(pk=t.pk).current_round == 1
    staff.post(act, {"action": "cancel"})
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.CANCELLED


def test_the_living_room_page_links_to_tournaments(alice):
    page = Client().get(reverse("living:join"))
    assert reverse("tournaments:join").encode() in page.content
    tournament_with(alice, [])
    listing = Client().get(reverse("tournaments:join"))
    assert b"data-live-tournaments" in listing.content


def test_strangers_see_initials_the_room_sees_names(alice):
    """tournaments.privacy: hosts, entrants and phones that opened the code see
    the names; a stranger at the public address sees initials, no table links."""
    people = guests(4)
    t = tournament_with(alice, people)
    services.start(t.pk, host(alice))
    screen = reverse("tournaments:screen", args=[t.pk])
    stranger = Client().get(screen).content.decode()
    assert "Joueur1" not in stranger and ">J.<" in stranger.replace("</td>", "<")
    assert "data-mini-board" not in stranger and "/tables/" not in stranger.split("data-pairings")[1]
    room = Client()
    room.get(reverse("tournaments:code", args=[t.code]))  # scanned the QR, did not join (entries closed)
    assert "Joueur1" in room.get(screen).content.decode()
    staff = staff_client(alice).get(screen).content.decode()
    assert "Joueur1" in staff and "data-mini-board" in staff
    for answer in (Client().get(reverse("tournaments:results", args=[t.pk])),
                   Client().get(reverse("tournaments:live", args=[t.pk]))):
        assert answer.status_code == 200 and "Joueur1" not in answer.content.decode()


def test_the_final_table_is_kept_on_its_own_page(alice):
    people = guests(3)
    t = tournament_with(alice, people, rounds=2)
    services.start(t.pk, host(alice))
    for _ in range(2):
        play_round(t, people)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.code is None
    page = staff_client(alice).get(reverse("tournaments:results", args=[t.pk])).content.decode()
    assert "data-final-standings" in page and "t-podium" in page and page.count("<h3>") == 2
    assert all(w.name in page for w in people)
    screen = staff_client(alice).get(reverse("tournaments:screen", args=[t.pk])).content.decode()
    assert reverse("tournaments:results", args=[t.pk]) in screen
    assert Client().get(reverse("tournaments:results", args=[999999])).status_code == 404
