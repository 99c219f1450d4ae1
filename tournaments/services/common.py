"""What every tournament action shares: the lock, the host check, the version."""

from __future__ import annotations

from typing import Any

from games.services.store import _transaction
from games.services.who import Who
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Tournament

transaction = _transaction  # the tables' own: on SQLite, one writer at a time (re-entrant)


def lock(tournament_id: Any) -> Tournament:
    try:
        pk = int(tournament_id)
    except (TypeError, ValueError):
        raise TournamentError("not_found") from None
    found = Tournament.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise TournamentError("not_found")
    return found


MAX_ID = 2**31 - 1


def row_id(raw: Any) -> int:
    """A row's id from a form: a whole number a database column can hold, else ValueError."""
    value = int(raw)
    if not 0 < value <= MAX_ID:
        raise ValueError(raw)
    return value


def check_host(who: Who) -> None:
    """The hosts of the house run tournaments (staff accounts)."""
    if not who.is_staff:
        raise TournamentError("staff_only")


def bump(tournament: Tournament, *fields: str) -> None:
    tournament.version += 1
    tournament.save(update_fields=["version", *fields])


def entrant_of(tournament: Tournament, who: Who) -> Entrant | None:
    person = who.person
    if person.user_id is not None:
        return tournament.entrants.filter(user_id=person.user_id).first()
    if person.guest_key:
        return tournament.entrants.filter(user__isnull=True, guest_key=person.guest_key).first()
    return None


def person_of(entrant: Entrant) -> Who:
    if entrant.user_id is not None:
        return Who(user_id=entrant.user_id, name=entrant.name)
    return Who(guest_key=entrant.guest_key, name=entrant.name)
