"""Creating a tournament: its game, format, time control and who may join."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils import timezone

from games import engines
from games.living import codes
from games.protocol import TableError
from games.services.clocks import parse_clock
from games.services.play import BOT_LEVELS
from games.services.who import Who
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Tournament
from tournaments.services.common import check_host, transaction

MAX_ROUNDS = 15
MAX_ARENA = 240  # minutes


@transaction
def create_tournament(who: Who, *, name: str, game: str, format: str = Tournament.Format.SWISS,
                      rounds: int = 3, clock: Any = None, rated: bool = False, guests_allowed: bool = True,
                      bye_bot: str = "", table_size: int = 2, starts_at: datetime | None = None,
                      round_pause: int = 30, session_id: int | None = None, duration: int = 0) -> Tournament:
    check_host(who)
    name = str(name or "").strip()
    if not 2 <= len(name) <= 80:
        raise TournamentError("bad_name")
    try:
        rules = engines.get(str(game))
    except KeyError:
        raise TournamentError("unknown_game") from None
    if format not in Tournament.Format.values:
        raise TournamentError("bad_format")
    if format == Tournament.Format.SWISS and (isinstance(rounds, bool) or not isinstance(rounds, int)
                                               or not 1 <= rounds <= MAX_ROUNDS):
        raise TournamentError("bad_rounds")
    arena = format == Tournament.Format.ARENA
    if arena and (isinstance(duration, bool) or not isinstance(duration, int) or not 1 <= duration <= MAX_ARENA):
        raise TournamentError("bad_duration")
    if isinstance(table_size, bool) or not isinstance(table_size, int):
        raise TournamentError("bad_table_size")
    if table_size == 2:
        low = high = 2
    else:  # several players a table: a Swiss by tables (Drekki), three to six
        low, high = max(3, rules.min_players), min(6, rules.max_players)
        if format != Tournament.Format.SWISS or not low <= table_size <= high:
            raise TournamentError("bad_table_size")
    try:
        rules.check_players(table_size)
    except Exception:
        raise TournamentError("bad_table_size") from None
    try:
        checked_clock = parse_clock(clock)
    except TableError:
        raise TournamentError("bad_clock") from None
    if bye_bot and bye_bot not in BOT_LEVELS:
        raise TournamentError("bad_level")
    if starts_at is not None and starts_at <= timezone.now():
        raise TournamentError("bad_start")
    if isinstance(round_pause, bool) or not isinstance(round_pause, int) or not 0 <= round_pause <= 3600:
        raise TournamentError("bad_start")
    tournament = Tournament(
        name=name, game=rules.slug, format=format,
        rounds=rounds if format == Tournament.Format.SWISS else 0, duration=duration if arena else 0,
        clock=checked_clock, rated=bool(rated), guests_allowed=bool(guests_allowed) and not rated,
        bye_bot=bye_bot, table_size=table_size, min_table=low, max_table=high, round_pause=round_pause,
        starts_at=starts_at, session_id=session_id, created_by_id=who.user_id,
    )
    if session_id is not None:
        from games.bookings.models import Session

        if not Session.objects.filter(pk=session_id).exists():
            raise TournamentError("bad_session")
    for _attempt in range(20):
        tournament.code = codes.new_code()
        try:
            with db_transaction.atomic():
                tournament.save()
            break
        except IntegrityError:
            continue
    else:
        raise RuntimeError("no free tournament code after 20 draws")
    if session_id is not None:
        _invite_session(tournament, session_id)
    return tournament


def _invite_session(tournament: Tournament, session_id: int) -> None:
    """A booked session's tournament: its confirmed bookings with an account
    are entered at once (they may leave before the start); guests without an
    account join by the code like anyone."""
    from games.bookings.models import Booking

    users = (Booking.objects.filter(session_id=session_id, status=Booking.Status.CONFIRMED, user__isnull=False,
                                    user__is_active=True).select_related("user").order_by("created_at"))
    seen: set[int] = set()
    for booking in users:
        if booking.user_id in seen:
            continue
        seen.add(booking.user_id)
        Entrant.objects.create(tournament=tournament, user_id=booking.user_id, name=booking.user.get_username())
