"""Whose names a tournament's pages show, and to whom.

The screen is the living room's: the people in the room read each other's
names on it (they chose them, or they are usernames). But its address is
public and its numbers follow each other, and the page of a finished
tournament is kept: a stranger could read who spent which evening at the
house. So the full names are shown to the hosts, to the entrants
themselves (account or guest session), and to a phone that opened the
tournament's code (someone in the room, who scanned the QR); anyone else
sees initials ("A."), and neither the tables' links nor the live boards
(whose seats carry the names).

The tables themselves are private tables of the site (created so by
tournaments.services.seating): not in the lobby or its API, and their page,
JSON, chat, replay and export answer "private" to anyone but their players,
the hosts and whoever holds their key. The screen gives the key, in the
tables' links (:func:`table_links`), to those who see the names: the people
in the room may watch any table as spectators, a stranger cannot.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import reverse

from games.models import Table
from games.services.who import Who
from tournaments.models import Tournament
from tournaments.services.common import entrant_of

SEEN_KEY = "tournaments_seen"
REMEMBERED = 20


def remember(request: HttpRequest, tournament: Tournament) -> None:
    """This session opened the tournament's code (its last few are kept)."""
    seen = [pk for pk in request.session.get(SEEN_KEY, []) if pk != tournament.pk][-(REMEMBERED - 1):]
    request.session[SEEN_KEY] = [*seen, tournament.pk]


def sees_names(request: HttpRequest, tournament: Tournament) -> bool:
    if request.user.is_authenticated and request.user.is_staff:
        return True
    if tournament.pk in request.session.get(SEEN_KEY, []):
        return True
    return entrant_of(tournament, Who.from_request(request)) is not None


def initials(name: str) -> str:
    return f"{name.strip()[:1].upper()}." if name.strip() else "?"


def table_links(table: Table) -> dict[str, str]:
    """A tournament table's page and JSON with its key (for a viewer who :func:`sees_names`)."""
    key = urlencode({"invite": table.invite_token})
    return {"page": f"{reverse('games:table', args=[table.pk])}?{key}",
            "api": f"{reverse('games:api-table', args=[table.pk])}?{key}"}
