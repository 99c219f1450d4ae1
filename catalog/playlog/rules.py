"""What a play must be before it is saved, checked all at once so that the form
can say everything wrong in one go. No database here: the caller gives the
entry and today's date at the house.

The rules (also in docs/playlog.md):
- a game, and a day that is not after today;
- 1 to 30 players, each with a name of at most 60 characters; a name appears
  once per play (compared without case, accents or extra spaces), an account
  once; an empty row is ignored unless it holds a score or a win (then the
  winner or the score has no player: refused);
- scores are optional, but then every player has one: whole numbers from
  -9,999 to 9,999, below zero only when the play says the game's scores can go
  below zero;
- who won: one or several players, or "nobody won" (a cooperative game lost
  together), never both and never neither; when there are scores, every
  winner has the best score (the highest, or the lowest when the lowest wins).
  A player with the best score may still have lost (a tie broken by the game's
  own rule). With scores and no winner ticked, the best scores win.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from catalog import text as textlib

MAX_PLAYERS = 30
NAME_MAX = 60
NOTE_MAX = 1000
SCORE_LIMIT = 9999


@dataclass(frozen=True)
class Seat:
    name: str = ""
    score: int | None = None
    won: bool = False
    user_id: int | None = None

    @property
    def key(self) -> str:
        return name_key(self.name)

    @property
    def empty(self) -> bool:
        return not self.name and self.score is None and not self.won and self.user_id is None


@dataclass(frozen=True)
class Entry:
    game_id: int | None
    played_on: date | None
    seats: list[Seat] = field(default_factory=list)
    note: str = ""
    lowest_wins: bool = False
    negative_scores: bool = False
    nobody_won: bool = False


@dataclass(frozen=True)
class Problem:
    field: str  # "game", "played_on", "players", "note", or "player-<row>" (row from 0)
    message: str


class PlayRefused(ValueError):
    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


def name_key(name: str) -> str:
    return " ".join(textlib.fold(name).split())[:NAME_MAX]


def tidy(entry: Entry) -> Entry:
    """Names single-spaced and the note trimmed; the empty rows stay where they are
    (their position names them in messages) and are dropped by ``players``."""
    seats = [replace(s, name=" ".join((s.name or "").split())) for s in entry.seats]
    return replace(entry, seats=seats, note=(entry.note or "").strip())


def players(entry: Entry) -> list[Seat]:
    return [s for s in entry.seats if not s.empty]


def best_score(seats: list[Seat], lowest_wins: bool) -> int:
    scores = [s.score for s in seats if s.score is not None]
    return min(scores) if lowest_wins else max(scores)


def with_winners(entry: Entry) -> Entry:
    """With scores and nobody ticked (and not "nobody won"), the best scores win."""
    seats = players(entry)
    if (entry.nobody_won or not seats or any(s.won for s in seats) or any(s.score is None for s in seats)
            or any(not s.name for s in seats)):
        return entry
    best = best_score(seats, entry.lowest_wins)
    return replace(entry, seats=[replace(s, won=s.score == best) if not s.empty else s for s in entry.seats])


def problems(entry: Entry, today: date) -> list[Problem]:
    """Everything wrong with ``entry`` (tidied), in the form's order; [] when it can be saved."""
    found: list[Problem] = []
    if entry.game_id is None:
        found.append(Problem("game", _("Pick the game in the list.")))
    if entry.played_on is None:
        found.append(Problem("played_on", _("Give the day of the play.")))
    elif entry.played_on > today:
        found.append(Problem("played_on", _("A play cannot be in the future: today is %(today)s.")
                             % {"today": date_format(today, "DATE_FORMAT")}))
    found += _seat_problems(entry)
    if len(entry.note) > NOTE_MAX:
        found.append(Problem("note", _("The note is too long: at most %(n)s characters.") % {"n": NOTE_MAX}))
    return found


def _seat_problems(entry: Entry) -> list[Problem]:
    found: list[Problem] = []
    seen_names: dict[str, str] = {}
    seen_users: set[int] = set()
    for row, seat in enumerate(entry.seats):
        where = f"player-{row}"
        if seat.empty:
            continue
        if not seat.name:
            if seat.won:
                found.append(Problem(where, _("A winner must be one of the players: give their name.")))
            else:
                found.append(Problem(where, _("A score needs the name of the player who made it.")))
            continue
        if len(seat.name) > NAME_MAX:
            found.append(Problem(where, _("A name has at most %(n)s characters.") % {"n": NAME_MAX}))
        if seat.key in seen_names:
            found.append(Problem(where, _("%(name)s is named twice: each player once.") % {"name": seat.name}))
        seen_names.setdefault(seat.key, seat.name)
        if seat.user_id is not None:
            if seat.user_id in seen_users:
                found.append(Problem(where, _("%(name)s: this account already plays in this play.") % {"name": seat.name}))
            seen_users.add(seat.user_id)
        found += _score_problems(entry, seat, where)
    seats = players(entry)
    if not seats:
        found.append(Problem("players", _("Name at least one player.")))
        return found
    if len(seats) > MAX_PLAYERS:
        found.append(Problem("players", _("At most %(n)s players in one play.") % {"n": MAX_PLAYERS}))
    found += _winner_problems(entry, seats)
    return found


def _row_of(entry: Entry, seat: Seat) -> str:
    return f"player-{next(i for i, s in enumerate(entry.seats) if s is seat)}"


def _score_problems(entry: Entry, seat: Seat, where: str) -> list[Problem]:
    if seat.score is None:
        return []
    if abs(seat.score) > SCORE_LIMIT:
        return [Problem(where, _("%(name)s: %(score)s is not a score we can believe (from -%(limit)s to %(limit)s). A typo?")
                        % {"name": seat.name, "score": number_format(seat.score, force_grouping=True),
                           "limit": number_format(SCORE_LIMIT, force_grouping=True)})]
    if seat.score < 0 and not entry.negative_scores:
        return [Problem(where, _("%(name)s: a score below zero. If this game has them, tick “scores can go below zero”.")
                        % {"name": seat.name})]
    return []


def _winner_problems(entry: Entry, seats: list[Seat]) -> list[Problem]:
    winners = [s for s in seats if s.won and s.name]
    scored = [s for s in seats if s.score is not None]
    found: list[Problem] = []
    if scored and len(scored) != len(seats):
        found.append(Problem("players", _("Give a score to every player, or to none.")))
        return found
    if entry.nobody_won and winners:
        found.append(Problem("players", _("“Nobody won” is ticked, and so is a winner: choose one.")))
    elif not entry.nobody_won and not winners and not scored:
        found.append(Problem("players", _("Tick who won (several if they won together), or “nobody won”.")))
    if scored and winners:
        best = best_score(seats, entry.lowest_wins)
        for seat in winners:
            if seat.score != best:
                found.append(Problem(_row_of(entry, seat), _(
                    "%(name)s won with %(score)s, but the best score is %(best)s: with scores, a winner has the best score."
                ) % {"name": seat.name, "score": seat.score, "best": best}))
    return found
