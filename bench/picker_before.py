"""The picker as it was before issue #25 (commit 992a4a2), kept so that bench/picker.py
can judge it beside today's, in the same process on the same data. Not used by the site.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from catalog import text as textlib
from catalog.collection import query as queries
from catalog.collection.models import Game

# mood: the weights that fit it, on BoardGameGeek's 1-5 scale.
LIGHT_UP_TO = 2.2
THINKY_FROM = 2.8
MOODS = ("anything", "light", "thinky")
SHORTLIST = 10
POPULARITY = 2.0  # points for the most owned game (log scale)
TRUSTED_RATINGS = 30  # ratings below which a game's average is not trusted
PER_TABLE = 3
SPLIT_FROM, SPLIT_UP_TO = 8, 15
SMALLEST_TABLE = 3

FITS, UNKNOWN, MISFITS = 0, 1, 2  # how a game's weight stands to the mood (sorted in this order)


@dataclass
class Pick:
    game: Game
    score: float
    reasons: list[str] = field(default_factory=list)
    fit: int = FITS


@dataclass
class Table:
    players: int
    picks: list[Pick]


@dataclass
class Split:
    tables: list[Table]

    @property
    def sizes(self) -> str:
        return " + ".join(str(t.players) for t in self.tables)


@dataclass
class Plan:
    players: int
    together: list[Pick]
    splits: list[Split] = field(default_factory=list)


def family(game: Game) -> str:
    """The box or family a game belongs to: its box for a game printed in another's
    box, the box's family; else the first significant word of its original name before any colon
    ("Ticket to Ride: Europe" and "Ticket to Ride"; "Pandemic Legacy" and "Pandemic")."""
    if game.kind != Game.Kind.STANDALONE and game.base_game_id:
        return family(game.base_game)
    words = queries.significant(textlib.fold_query(game.title.split(":")[0]).split())
    return f"name:{words[0]}" if words else f"game:{game.pk}"


def _candidates(players: int, minutes: int, youngest: int, smallest: int, exclude: frozenset[int] = frozenset()) -> list[Game]:
    return list(
        Game.objects.available_now()
        .exclude(kind=Game.Kind.EXPANSION)
        .exclude(id__in=exclude)
        .filter(min_players__lte=players, max_players__gte=smallest)
        .exclude(min_time__gt=minutes)
        .exclude(min_age__gt=youngest)
        .select_related("base_game")
        .only(
            "id", "slug", "title", "title_fr", "title_de", "title_en", "kind", "base_game_id", "min_players",
            "max_players", "best_min_players", "best_max_players", "min_time", "max_time", "min_age", "weight",
            "rating", "rating_count", "owned_count", "engine_slug", "base_game__id", "base_game__title", "base_game__kind",
            "base_game__base_game_id",
        )
    )


def _weight(game: Game, mood: str) -> tuple[int, float, str | None]:
    """How the game's weight stands to the mood: (fit, score, reason)."""
    if mood not in ("light", "thinky"):
        return FITS, 0.0, None
    if game.weight is None:
        return UNKNOWN, 0.0, _("weight unknown")
    weight = float(game.weight)
    if mood == "thinky":
        if weight >= THINKY_FROM:  # the heavier, the better
            return FITS, 1 + 2 * (weight - THINKY_FROM) / (5 - THINKY_FROM), _("something to think about, as you wished (weight %(w).1f)") % {"w": weight}
        return MISFITS, -1 - (THINKY_FROM - weight), _("lighter than you asked (weight %(w).1f): nothing weightier fits") % {"w": weight}
    if weight <= LIGHT_UP_TO:
        return FITS, 1 + (LIGHT_UP_TO - weight) / (LIGHT_UP_TO - 1), _("light, as you wished (weight %(w).1f)") % {"w": weight}
    return MISFITS, -1 - (weight - LIGHT_UP_TO), _("heavier than you asked (weight %(w).1f): nothing lighter fits") % {"w": weight}


def _score(game: Game, players: int, minutes: int, mood: str) -> Pick:
    score, reasons = 0.0, []
    if game.best_at(players):
        score += 3
        reasons.append(_("best at %(n)d players") % {"n": players})
    else:
        reasons.append(_("plays %(n)d (%(range)s players)") % {"n": players, "range": game.players_label})
    length = game.max_time or game.min_time
    if length and length <= minutes:
        score += 1 + length / minutes  # fills the time without running over
        reasons.append(_("fits in %(m)d minutes (%(t)s min)") % {"m": minutes, "t": game.time_label})
    elif game.min_time:
        score += 0.5
        reasons.append(_("can fit in %(m)d minutes (%(t)s min)") % {"m": minutes, "t": game.time_label})
    else:
        reasons.append(_("playing time unknown"))
    if game.min_age:
        reasons.append(_("from %(age)d years") % {"age": game.min_age})
    fit, weight_score, weight_reason = _weight(game, mood)
    score += weight_score
    if weight_reason:
        reasons.append(weight_reason)
    # Known and liked: a rating counts for as many as rated it (a 9/10 from five
    # people is no 8/10 from thousands), and being widely owned counts too.
    score += POPULARITY * math.log10(1 + game.owned_count) / 5.3
    if game.rating and game.rating_count >= TRUSTED_RATINGS:
        score += (game.rating - 6) / 2
        if game.rating >= 7:
            reasons.append(_("well liked (%(r).1f/10)") % {"r": game.rating})
    if game.engine_slug:
        reasons.append(_("its rules can be tried online here first"))
        score += 0.5
    return Pick(game, round(score, 3), reasons, fit)


def _ranked(games: list[Game], players: int, minutes: int, mood: str) -> list[Pick]:
    """Every game that seats ``players``, best first."""
    fitting = [g for g in games if (g.min_players or 0) <= players <= (g.max_players or 0)]
    return sorted(
        (_score(g, players, minutes, mood) for g in fitting),
        key=lambda p: (p.fit, -p.score, -p.game.owned_count, p.game.title),
    )


def _shortlist(games: list[Game], players: int, minutes: int, mood: str, limit: int, taken: set[str]) -> list[Pick]:
    """The best ``limit`` games for ``players``, one per family, none of the
    families in ``taken`` (which the chosen ones join)."""
    return _deal([_ranked(games, players, minutes, mood)], limit, taken)[0]


def _deal(rankings: list[list[Pick]], limit: int, taken: set[str]) -> list[list[Pick]]:
    """Up to ``limit`` picks for each ranking, dealt in turns (each table's best
    first, then each one's second...), one game per family over all of them."""
    chosen: list[list[Pick]] = [[] for _ in rankings]
    positions = [0] * len(rankings)
    for _ in range(limit):
        for i, ranking in enumerate(rankings):
            while positions[i] < len(ranking):
                p = ranking[positions[i]]
                positions[i] += 1
                key = family(p.game)
                if key not in taken:
                    taken.add(key)
                    chosen[i].append(p)
                    break
    return chosen


def table_sizes(players: int, tables: int) -> list[int]:
    """``players`` shared as evenly as can be: 11 at 3 tables is 4 + 4 + 3."""
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def plan(players: int, minutes: int, youngest: int, mood: str = "anything", limit: int = SHORTLIST,
         exclude: frozenset[int] = frozenset()) -> Plan:
    """Games for everyone together, and from 8 players on, ways to split into two
    or three tables with suggestions for each; none of the games in ``exclude``
    (those a group has already played, for instance)."""
    mood = mood if mood in MOODS else "anything"
    splitting = SPLIT_FROM <= players <= SPLIT_UP_TO
    games = _candidates(players, minutes, youngest, SMALLEST_TABLE if splitting else players, frozenset(exclude))
    result = Plan(players, _shortlist(games, players, minutes, mood, limit, set()))
    if splitting:
        for count in (2, 3):
            sizes = table_sizes(players, count)
            if min(sizes) < SMALLEST_TABLE:
                continue
            rankings = [_ranked(games, size, minutes, mood) for size in sizes]
            tables = [Table(size, picks) for size, picks in zip(sizes, _deal(rankings, PER_TABLE, set()))]
            if all(t.picks for t in tables):
                result.splits.append(Split(tables))
    return result


def pick(players: int, minutes: int, youngest: int, mood: str = "anything", limit: int = SHORTLIST) -> list[Pick]:
    """The shortlist for everyone at one table."""
    mood = mood if mood in MOODS else "anything"
    games = _candidates(players, minutes, youngest, players)
    return _shortlist(games, players, minutes, mood, limit, set())
