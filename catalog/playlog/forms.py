"""The play form: a game, a day, rows of players (name, score, won), a note.

Rows are plain fields ``player-<n>-name``, ``-score``, ``-won`` (``rows`` says
how many were sent; the page's script adds rows without a round trip). Reading
the form gives a ``rules.Entry`` and the problems of what could not even be
read (a score that is no number, a day that is no date); ``rules`` checks the
rest. Without the script, the game's name is searched on the server: one match
is taken, several are offered to choose from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _

from catalog.collection import search
from catalog.collection.models import Game
from catalog.playlog import rules
from catalog.playlog.people import Person, account_for
from catalog.playlog.rules import Entry, Problem, Seat

ROWS_MAX = rules.MAX_PLAYERS + 10
EXTRA_ROWS = 2
CANDIDATES = 6


@dataclass
class Row:
    index: int
    name: str = ""
    score: str = ""
    won: bool = False
    errors: list[str] = field(default_factory=list)


def _flag(data: Any, name: str) -> bool:
    return data.get(name) in ("on", "1", "true", "yes")


class PlayForm:
    def __init__(self, data: Any = None, *, entry: Entry | None = None, people: list[Person] = (),
                 game: Game | None = None):
        self.data = data
        self.people = list(people)
        self.errors: dict[str, list[str]] = {}
        self.candidates: list[Game] = []
        self.game = game
        self.entry: Entry | None = None
        if data is None:
            self._initial(entry or Entry(game.pk if game else None, None))
        else:
            self._read(data)

    # -- showing ------------------------------------------------------------------------

    def _initial(self, entry: Entry) -> None:
        self.played_on = entry.played_on.isoformat() if entry.played_on else ""
        self.note = entry.note
        self.lowest_wins, self.negative_scores, self.nobody_won = entry.lowest_wins, entry.negative_scores, entry.nobody_won
        seats = list(entry.seats)
        self.rows = [Row(i, s.name, "" if s.score is None else str(s.score), s.won) for i, s in enumerate(seats)]
        self._pad()
        self.game_query = self.game.display_title if self.game else ""

    def _pad(self) -> None:
        while len(self.rows) < max(len([r for r in self.rows if r.name]) + EXTRA_ROWS, 4):
            self.rows.append(Row(len(self.rows)))

    # -- reading ------------------------------------------------------------------------

    def _read(self, data: Any) -> None:
        problems: list[Problem] = []
        self.game_query = str(data.get("game_query", ""))[:200].strip()
        self.game = self._game(data.get("game"), problems)
        raw_day = str(data.get("played_on", "")).strip()
        self.played_on = raw_day[:20]
        day: date | None = None
        if raw_day:
            try:
                day = parse_date(raw_day)
            except ValueError:
                day = None
            if day is None:
                problems.append(Problem("played_on", _("This is not a date.")))
        self.note = str(data.get("note", ""))[:rules.NOTE_MAX + 100]
        self.lowest_wins = _flag(data, "lowest_wins")
        self.negative_scores = _flag(data, "negative_scores")
        self.nobody_won = _flag(data, "nobody_won")
        try:
            count = min(max(int(data.get("rows", 0)), 0), ROWS_MAX)
        except (TypeError, ValueError):
            count = 0
        self.rows, seats = [], []
        for i in range(count):
            name = " ".join(str(data.get(f"player-{i}-name", "")).split())
            raw_score = str(data.get(f"player-{i}-score", "")).strip()[:20]
            won = _flag(data, f"player-{i}-won")
            self.rows.append(Row(i, name, raw_score, won))
            score = None
            if raw_score:
                try:
                    score = int(raw_score.replace(" ", "").replace("\u202f", "").replace("\u2212", "-"))
                except ValueError:
                    problems.append(Problem(f"player-{i}", _("%(name)s: a score is a whole number.") % {"name": name or "?"}))
            seats.append(Seat(name, score, won, account_for(name, self.people) if name else None))
        if self.game is None and not any(p.field == "game" for p in problems):
            problems.append(Problem("game", _("Pick the game in the list.")))
        self.entry = Entry(self.game.pk if self.game else None, day, seats, self.note,
                           self.lowest_wins, self.negative_scores, self.nobody_won)
        self.add_problems(problems)
        self._pad()

    def _game(self, raw: Any, problems: list[Problem]) -> Game | None:
        if str(raw or "").isdigit():
            game = Game.objects.filter(pk=int(raw)).first()
            if game is not None:
                return game
        if not self.game_query:
            return None
        ids = search.search_games(self.game_query, limit=CANDIDATES)
        if len(ids) == 1:
            return Game.objects.get(pk=ids[0])
        found = Game.objects.in_bulk(ids)
        self.candidates = [found[i] for i in ids if i in found]
        problems.append(Problem("game", _("Several games have this name: pick one.") if self.candidates
                                else _("No game of the catalogue has this name.")))
        return None

    def add_problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            self.errors.setdefault(problem.field, []).append(problem.message)
            if problem.field.startswith("player-"):
                index = int(problem.field.split("-")[1])
                if index < len(self.rows):
                    self.rows[index].errors.append(problem.message)

    def is_valid(self) -> bool:
        return self.entry is not None and not self.errors
