"""A pairing's live table: created by the tournament's host, each player
seated through the house's one-seat rule (games.services.tables.seat_person),
then started at once. Runs inside the pairing transaction.

The table is private (tournaments.privacy): out of the lobby, watched only
with its key, which the tournament's pages give to those they name in full."""

from __future__ import annotations

from games import engines
from games import services as tables
from games.bots.names import bot_name
from games.models import Table
from games.services.store import _lock, _record, _save, _seats
from games.services.tables import seat_person
from games.services.who import Who
from tournaments.models import Entrant, Tournament
from tournaments.services.common import person_of

# A player who does not come to their table is replaced by a bot after this
# long, so a round always ends (the grace period of any table).
ABSENT_BOT = "easy"
ABSENT_GRACE = 120


def host_of(tournament: Tournament) -> Who:
    """The tournament's creator, as the tables' host (a host of the house:
    LUDO_MAX_OPEN_TABLES does not count them)."""
    return Who(user_id=tournament.created_by_id, name="", is_staff=True).current()


def _options(game: str) -> dict[str, str] | None:
    """Seat 0 moves first: the pairings chose who has the first move (the colours);
    a game that would otherwise draw its first player (the Karo box's) is told so."""
    if any(option.name == "first_player" for option in engines.get(game).options):
        return {"first_player": "0"}
    return None


def starting_seat(game: str, players: int) -> int | None:
    """The seat that moves first at a tournament table of ``game``: 0 where the
    table fixes it (the Karo box's games, after any setup), else the game's own
    (Drumlin's pink, seat 1); None when everyone acts at the start and the first
    to move is drawn later (Drekki's bids)."""
    if _options(game):
        return 0
    rules = engines.get(game)
    acting = rules.to_act(rules.new_game(players, 0, None))
    return acting[0] if len(acting) == 1 else None


def open_table(tournament: Tournament, players: list[Entrant], bot_level: str = "") -> Table:
    """A started table with ``players`` in seat order (and a bot on the last
    seat when ``bot_level``: a bye's courtesy game, never rated)."""
    host = host_of(tournament)
    count = len(players) + (1 if bot_level else 0)
    table = tables.create_table(host, tournament.game, count, _options(tournament.game), clock=tournament.clock,
                                sit=False, private=True, absent_bot=ABSENT_BOT, absent_grace=ABSENT_GRACE,
                                waiting=False)
    table = _lock(table.pk)
    seats = _seats(table)
    for seat, entrant in zip(seats, players, strict=False):
        seat_person(table, seats, seat, person_of(entrant), name=entrant.name)
        _record(table, "join", seat.index, payload={"name": entrant.name, "tournament": tournament.pk})
    if bot_level:
        seats[-1].bot_level = bot_level
        seats[-1].name = bot_name(bot_level, seats[-1].index)
    table.rated = tournament.rated and not bot_level and all(e.user_id for e in players)
    _save(table, seats)
    tables.start_table(table.pk, host)
    return table
