"""An arena of six: three phones (the JSON the player's page polls every 2 s, moves and
berserk through the site's HTTP endpoints, each with its own session) and
three players driven through the services, random legal moves (and, one turn
in ten, a resignation: random play of this game runs to some 150 moves); the worker's
steps run every simulated second. Nobody who finished waits more than 15 s for
a new pairing (while the arena still pairs), nobody sits at two tables at
once, every result is recorded, the standings are the games' points with the
streaks and berserk, and the arena ends with its last table.

The arena's clock is simulated (one worker pass a simulated second, the
service steps take ``now``): the waits are measured on it, not on the
machine's speed. The suite plays one minute of arena; ``make soak`` the
issue's ten."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engines
from games import services as tables
from games.models import Table
from tests.conftest import soak
from tests.tournaments.helpers import guests, host
from tournaments import history, services
from tournaments.models import Entrant, Pairing, PairingSeat, Tournament
from tournaments.pairing import arena as scoring

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MINUTES = soak(10, 1)
MAX_WAIT = 15
RESIGN = 0.1
ENDED = (Table.Status.FINISHED, Table.Status.ABORTED)


def test_six_players_in_an_arena_never_wait_more_than_15_seconds(alice, settings):
    # Simulated time runs about ten times faster than a real evening: the
    # phones' per-minute write budgets would count ten minutes' moves in one.
    settings.LUDO_RATE_LIMITS_ENABLED = False
    rng = random.Random(27)
    h = host(alice)
    t = services.create_tournament(h, name="Arène du soir", game="quatre-en-ligne", format="arena",
                                   duration=MINUTES, clock={"kind": "game", "base": 300, "increment": 0})
    phones = {}
    for name in ("Ana", "Ben", "Chloé"):
        phone = Client()
        assert phone.post(reverse("tournaments:code", args=[t.code]), {"name": name}).status_code == 302
        phones[name] = phone
    bots = {w.name: w for w in guests(3)}
    for who in bots.values():
        services.join(t.pk, who)
    entrants = {e.name: e for e in Entrant.objects.filter(tournament=t)}
    assert len(entrants) == 6
    start = timezone.now()
    services.start(t.pk, h, now=start)
    me_url = reverse("tournaments:me", args=[t.pk])
    known: dict[str, dict] = {}  # each phone's last answer from its page's JSON
    free_since: dict[int, float] = {}  # entrant -> simulated second their last game was recorded
    waits: list[float] = []
    seconds = 0
    limit = MINUTES * 60 + 600  # the end time, then the last games (a safety net, never reached)
    while seconds < limit:
        seconds += 1
        now = start + timedelta(seconds=seconds)
        # The phones ask where they sit (as their page does every 2 s), go berserk (Ana,
        # each game), and play a move when it is theirs, through the HTTP endpoints.
        for name, phone in phones.items():
            if seconds % 2 or name not in known:  # the page asks every 2 s
                known[name] = phone.get(me_url).json()
            me = known[name]
            if me.get("berserk") == "allowed" and name == "Ana":
                assert phone.post(me["berserk_url"]).status_code == 200
                me["berserk"] = "done"
            if me["table"] and not me["done"]:
                move = a_move(me["table"], me["seat"], rng)
                if move is not None:
                    endpoint = "games:api-resign" if move["move"] is None else "games:api-move"
                    answer = phone.post(reverse(endpoint, args=[me["table"]]), move,
                                        content_type="application/json")
                    assert answer.status_code == 200, answer.content
        # The others play through the services.
        for seat in PairingSeat.objects.filter(round__tournament=t, pairing__recorded_at__isnull=True,
                                               entrant__name__in=list(bots)).select_related("pairing", "entrant"):
            move = a_move(seat.pairing.table_id, seat.seat, rng)
            if move is None:
                continue
            if move["move"] is None:
                tables.resign(seat.pairing.table_id, bots[seat.entrant.name])
            else:
                tables.play_move(seat.pairing.table_id, bots[seat.entrant.name], move["move"], move["v"])
        # The worker's pass: results, then whoever waits is paired.
        for pk in Pairing.objects.filter(round__tournament=t, recorded_at__isnull=True,
                                         table__status__in=ENDED).values_list("pk", flat=True):
            assert services.record_result(pk, now=now)
        services.pair_arena(t.pk, now=now)
        busy = list(PairingSeat.objects.filter(round__tournament=t, pairing__recorded_at__isnull=True)
                    .values_list("entrant_id", flat=True))
        assert len(busy) == len(set(busy)), "someone sits at two tables at once"
        for pk in set(busy) & set(free_since):
            waits.append(seconds - free_since.pop(pk))
        for pk in set(entrants[n].pk for n in entrants) - set(busy) - set(free_since):
            free_since[pk] = seconds
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED:
            break
    assert t.status == Tournament.Status.FINISHED, "the arena did not end with its last table"
    end = MINUTES * 60
    # Waiting cut short by the end time (nobody is paired after it) is no wait for a pairing.
    still = [s for s in free_since.values() if s <= end - MAX_WAIT]
    print(f"arena of {MINUTES} min: {len(waits)} pairings after a game, longest wait {max(waits)} s, "
          f"{Pairing.objects.filter(round__tournament=t).count()} games")
    assert waits and max(waits) <= MAX_WAIT and not still
    assert not Pairing.objects.filter(round__tournament=t, recorded_at__isnull=True).exists()
    assert PairingSeat.objects.filter(round__tournament=t, entrant__name="Ana", berserk=True).exists()
    # The standings are each player's games scored again here: streaks and berserk.
    expected = {}
    for name, e in entrants.items():
        games = PairingSeat.objects.filter(entrant=e).order_by("round__number")
        expected[name] = scoring.score((s.points, s.berserk) for s in games).total
    assert {r.entrant.name: r.score for r in history.standings(t)} == expected


def a_move(table_id: int, seat: int, rng: random.Random) -> dict | None:
    """A random legal move for ``seat`` when it is theirs, with the table's version
    (the move None: they resign)."""
    table = Table.objects.get(pk=table_id)
    if table.status != Table.Status.RUNNING:
        return None
    rules = engines.get(table.game)
    state = rules.load(table.state)
    if seat not in rules.to_act(state):
        return None
    if rng.random() < RESIGN:
        return {"move": None, "v": table.version}
    return {"move": rng.choice(list(rules.legal_moves(state, seat))), "v": table.version}
