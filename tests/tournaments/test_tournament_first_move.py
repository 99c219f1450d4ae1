"""The pairings decide who moves first (the colours: FIDE's rules in a Swiss, the
Berger tables' in a round robin): the tournament's tables of the Karo box's games
start with seat 0 to move (their tables otherwise draw the first player from
their seed, so the colours were a coin toss); and each phone is told who really
starts, the game's first seat (Drumlin's pink is seat 1), or nobody when all act
at once at the start (Drekki's bids)."""

from __future__ import annotations

import pytest

from games import engines
from games.models import Table
from tests.tournaments.helpers import guests, host, tournament_with
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

GAMES = ("quatre-en-ligne", "rampants-sauteurs", "eclaircissement")


@pytest.mark.parametrize("game", GAMES)
def test_seat_0_moves_first_at_every_karo_table(alice, game):
    t = tournament_with(alice, guests(8), game=game, name=f"Soirée {game}")
    services.start(t.pk, host(alice))
    tables = [p.table for p in Pairing.objects.filter(round__tournament=t).select_related("table")]
    assert len(tables) == 4
    rules = engines.get(game)
    for table in tables:
        assert table.status == Table.Status.RUNNING
        state = rules.load(table.state)
        while len(rules.to_act(state)) > 1:  # Rampants et Sauteurs: both lay out their pieces first
            for seat in rules.to_act(state):
                state = rules.play(state, seat, "JCJ/CJC")
        assert tuple(rules.to_act(state)) == (0,), (game, table.pk, table.options)


def test_a_table_of_the_lobby_still_draws_its_first_player(alice):
    """Outside tournaments the game's own option stays: drawn from the seed by default."""
    from games import services as tables
    from tests.games.tables_helpers import guest

    firsts = set()
    for i in range(12):
        table = tables.create_table(guest(f"Hôte{i}"), "quatre-en-ligne", 2, waiting=False)
        firsts.add(engines.get("quatre-en-ligne").validate_options(table.options)["first_player"])
    assert firsts == {"random"}


def test_each_phone_is_told_who_really_starts(alice):
    from django.test import Client
    from django.urls import reverse

    t = services.create_tournament(host(alice), name="Drumlin", game="drumlin", rounds=1, round_pause=0)
    phones = {}
    for name in ("Ana", "Ben"):
        phone = Client()
        phone.post(reverse("tournaments:code", args=[t.code]), {"name": name})
        phones[name] = phone
    services.start(t.pk, host(alice))
    answers = {name: p.get(reverse("tournaments:me", args=[t.pk])).json() for name, p in phones.items()}
    table = Table.objects.get(pk=answers["Ana"]["table"])
    rules = engines.get("drumlin")
    starter = rules.to_act(rules.load(table.state))[0]  # pink, seat 1
    assert starter == 1
    for name, answer in answers.items():
        other = "Ben" if name == "Ana" else "Ana"
        if answer["seat"] == starter:
            assert answer["text"].endswith("vous commencez"), answer
        else:
            assert answer["text"].endswith(f"{other} commence"), answer


def test_nobody_is_said_to_start_when_all_act_at_once(alice):
    t = tournament_with(alice, guests(3), game="drekki", name="Drekki", table_size=3)
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    answers = [services.current_table(t, who) for who in guests(3)]
    assert all(a["entered"] for a in answers), answers
    texts = {a["text"] for a in answers}
    assert len(texts) == 3 and not any("commence" in text for text in texts), texts
