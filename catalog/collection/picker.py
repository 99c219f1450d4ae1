"""“À quoi on joue ?”: a ranked shortlist from the boxes on the shelves, picked
as a host would.

Hard limits first, all in :func:`_candidates`: a copy on the shelf; a game for
one evening (no campaign, miniatures wargame or role-playing game unless the
group asks for one; never an expansion, an accessory or a rulebook: see
catalog/collection/box_kinds.py); the whole playing time range within the time
the group has (the longest game must end in time); the youngest player's age,
which must be known for a group with a child (under CHILD_BELOW); every option
the group ticked (co-operative, party, little to read: catalog/collection/
game_traits.py). Then the seats:
a maximum of 50 or more ("1-99", BoardGameGeek's "no limit") is not a capacity
unless the game is known to scale (party games, roll-and-writes: the reviewed
list); otherwise it says nothing of the game's real maximum, which is then
unknown: such a game is offered for its minimum only (as the catalogue's filter
does for an unknown maximum).

Then a score with the reasons that earned it. Sure picks come first: a known
weight within the mood's band, known playing times, and enough ratings to trust
the data (KNOWN_FROM). A doubtful pick (unknown weight or time, an obscure
game) comes after them, a pick outside the mood's band last and saying so; both
only fill a shortlist of fewer than MIN_SHOWN sure ones.

Weights: the data set's weights are BoardGameGeek's average weight rounded to a
whole number (1 = under 1.5, 2 = 1.5 to 2.5, 3 = 2.5 to 3.5, 4 = 3.5 to 4.5,
5 = above). A mood is a band: "light" is under 2.5 (whole weights 1 and 2),
"thinky" is 2.5 to 4.5 (3 and 4), best near 3.25: a thinky evening is a game to
think about, not the heaviest box on the shelf. Hand-entered weights (2.8, 3.4)
read the same way.

The shortlist holds at most one game per family (:func:`family`). For 8 to 15
players, the group may also split into two or three tables: each table gets its
own suggestions, no box used twice.

A box a count found not playable is ruled out (boxes.status); a pick whose only
playable boxes on the shelf are incomplete (missing parts the hosts said it can
do without) stays, and its card says so (:func:`_note_incomplete`, one query
for the whole answer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.db.models import FloatField, Q
from django.db.models.functions import Cast
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from catalog import text as textlib
from catalog.collection import box_kinds, game_traits
from catalog.collection import query as queries
from boxes.status import incomplete_only, unplayable_game_ids
from catalog.collection.models import Game, Term

LIGHT_BELOW = 2.5
THINKY_BAND = (2.5, 4.5)
THINKY_BEST = 3.25
MOODS = ("anything", "light", "thinky")
SHORTLIST = 10
MIN_SHOWN = 3  # doubtful or misfitting picks fill a shortlist up to this many
POPULARITY = 2.0  # points for the most owned game (log scale)
KNOWN_FROM = 200  # ratings from which a game's data is trusted
PRIOR_RATING, PRIOR_WEIGHT = 6.5, 200  # a rating is pulled towards 6.5 as if by 200 more people
OPEN_FROM = 50  # a maximum of players from which it means "no limit"
CHILD_BELOW = 14  # a youngest player under this age needs a known minimum age
MUCH_YOUNGER = 6  # a game made for children this much younger than the youngest is a poor pick
PER_TABLE = 3
SPLIT_FROM, SPLIT_UP_TO = 8, 15
SMALLEST_TABLE = 3

FITS, UNKNOWN, MISFITS = 0, 1, 2  # how sure a pick is (sorted in this order)
FIELDS = (
    "id", "title", "kind", "base_game_id", "base_game__title", "base_game__kind", "base_game__base_game_id",
    "bgg_id", "min_players", "max_players", "best_min_players", "best_max_players", "min_time", "max_time",
    "min_age", "weight_float", "rating", "rating_count", "owned_count", "engine_slug",
)


@dataclass(slots=True)
class Candidate:
    """What the picker reads of a game (thousands are ranked per request: plain
    rows, not model instances; the chosen ones become games at the end)."""

    id: int
    title: str
    kind: str
    base_game_id: int | None
    base_title: str | None
    base_kind: str | None
    base_base_id: int | None
    bgg_id: int | None
    min_players: int | None
    max_players: int | None
    best_min_players: int | None
    best_max_players: int | None
    min_time: int | None
    max_time: int | None
    min_age: int | None
    weight: float | None
    rating: float | None
    rating_count: int
    owned_count: int
    engine_slug: str
    tags: frozenset[str] = frozenset()
    capacity: int = 0  # the most players it seats, as the picker counts (see _capacity)
    traits: frozenset[str] = frozenset()  # those the group asked for (see _candidates)

    def best_at(self, players: int) -> bool:
        low, high = self.best_min_players, self.best_max_players or self.best_min_players
        return bool(low and low <= players <= high)

    @property
    def time_label(self) -> str:
        if self.min_time and self.max_time and self.min_time != self.max_time:
            return f"{self.min_time}–{self.max_time}"
        return str(self.min_time or self.max_time or "?")


@dataclass
class Pick:
    game: Game
    score: float
    reasons: list[str] = field(default_factory=list)
    fit: int = FITS
    line: str = ""  # the pick in one short line: "2–4 joueurs, 30–45 min, dès 8 ans"
    incomplete: int = 0  # its playable boxes on the shelf, when every one of them is incomplete


@dataclass
class _Ranked:
    row: Candidate
    score: float
    fit: int


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


def facts_line(row: Candidate) -> str:
    high = _capacity(row) or row.min_players or 0
    parts = [
        ngettext("%(range)s player", "%(range)s players", high) % {"range": players_label(row)},
        _("%(t)s min") % {"t": row.time_label},
    ]
    if row.min_age:
        parts.append(_("from %(age)d years") % {"age": row.min_age})
    return ", ".join(parts)


def family(game: Candidate) -> str:
    """The box or family a game belongs to: its box for a game printed in another's
    box, the box's family; else the first significant word of its original name
    before any colon, without a trailing number, and the next word too when the
    first is a number ("Ticket to Ride: Europe" and "Ticket to Ride"; "ICECOOL"
    and "ICECOOL2"; "7 Wonders" and "7 Wonders Duel", not "7 Ronin"; "Carcassonne
    Junior" and "My First Carcassonne")."""
    title = game.title
    if game.kind != Game.Kind.STANDALONE and game.base_game_id:
        if game.base_kind != Game.Kind.STANDALONE and game.base_base_id:
            return f"game:{game.base_base_id}"
        title = game.base_title or title
    words = queries.significant(textlib.fold_query(title.split(":")[0]).split())
    if words[:2] in (["my", "first"], ["mon", "premier"], ["ma", "premiere"]) and len(words) > 2:
        words = words[2:]
    if not words:
        return f"game:{game.id}"
    if words[0].isdigit() and len(words) > 1:
        return f"name:{words[0]} {words[1]}"
    return f"name:{words[0].rstrip('0123456789') or words[0]}"


def _capacity(row: Candidate) -> int:
    """The most players the game seats: an open maximum only for a game known to scale."""
    high = row.max_players or 0
    if high >= OPEN_FROM and not box_kinds.scales(row.bgg_id, row.tags):
        high = row.min_players or 0
    return high


def seats(row: Candidate, players: int) -> bool:
    return (row.min_players or 0) <= players <= row.capacity


def _box_tags() -> dict[int, frozenset[str]]:
    """The hosts' ``box-...`` and ``trait-...`` tags, by game (a handful of games: one
    small query)."""
    links = Game.terms.through.objects.filter(
        Q(term__slug__startswith=box_kinds.TAG_PREFIX) | Q(term__slug__startswith=game_traits.TAG_PREFIX),
        term__kind=Term.Kind.TAG,
    ).values_list("game_id", "term__slug")
    tags: dict[int, set[str]] = {}
    for game_id, slug in links:
        tags.setdefault(game_id, set()).add(slug)
    return {game_id: frozenset(slugs) for game_id, slugs in tags.items()}


def _candidates(players: int, minutes: int, youngest: int, smallest: int, exclude: frozenset[int] = frozenset(),
                asked: frozenset[str] = frozenset(), like: frozenset[str] = frozenset()) -> list[Candidate]:
    """The one place where games are ruled out: every game here could be played
    by some table of the group, in the time, by its youngest player, and has every
    trait the group asked for (``like``: catalog/collection/game_traits.py)."""
    games = (
        Game.objects.available_now()
        .exclude(kind=Game.Kind.EXPANSION)
        .exclude(id__in=exclude)
        .exclude(id__in=unplayable_game_ids())  # boxes a count found not playable (boxes.status)
        .filter(min_players__lte=players, max_players__gte=smallest)
        .filter(Q(max_time__lte=minutes) | Q(max_time__isnull=True, min_time__lte=minutes)
                | Q(max_time__isnull=True, min_time__isnull=True))
        .exclude(min_age__gt=youngest)
    )
    if youngest < CHILD_BELOW:
        games = games.filter(min_age__isnull=False)
    tags = _box_tags()
    # The weight as a float in SQL: no Decimal made for each of thousands of rows.
    games = games.annotate(weight_float=Cast("weight", FloatField()))
    rows = [Candidate(*values) for values in games.values_list(*FIELDS)]
    for row in rows:
        row.tags = tags.get(row.id, frozenset())
        row.capacity = _capacity(row)
    allowed = set(asked) & set(box_kinds.ASKABLE)
    rows = [
        row for row in rows
        if (kind := box_kinds.kind_of(row.title, row.bgg_id, row.tags)) == box_kinds.PLAIN or kind in allowed
    ]
    wanted = frozenset(like) & frozenset(game_traits.TRAITS)
    if not wanted:
        return rows
    for row in rows:
        row.traits = game_traits.traits_of(row.title, row.bgg_id, row.tags) & wanted
    return [row for row in rows if row.traits == wanted]


def _weight(row: Candidate, mood: str) -> tuple[int, float, str | None]:
    """How the game's weight stands to the mood: (fit, score, reason). The reason
    is a gettext message still to be filled with {"w": weight}."""
    if mood not in ("light", "thinky"):
        return FITS, 0.0, None
    if row.weight is None:
        return UNKNOWN, 0.0, gettext_noop("weight unknown")
    weight = row.weight
    heavier = gettext_noop("heavier than you asked (weight %(w)s/5): nothing lighter fits")
    if mood == "thinky":
        low, high = THINKY_BAND
        if low <= weight < high:
            fit = 2 - abs(weight - THINKY_BEST) / (high - low)
            return FITS, fit, gettext_noop("something to think about (weight %(w)s/5)")
        if weight < low:
            lighter = gettext_noop("lighter than you asked (weight %(w)s/5): nothing weightier fits")
            return MISFITS, -1 - (low - weight), lighter
        return MISFITS, -1 - (weight - high), heavier
    if weight < LIGHT_BELOW:
        return FITS, 1 + (LIGHT_BELOW - weight) / (LIGHT_BELOW - 1) / 2, gettext_noop("light (weight %(w)s/5)")
    return MISFITS, -1 - (weight - LIGHT_BELOW), heavier


def players_label(row: Candidate) -> str:
    """The players a game seats, as the picker counts them: "1+" for a game known
    to scale, "3" (not "3+") for an open maximum that is not a capacity."""
    high = _capacity(row)
    if high >= OPEN_FROM:
        return f"{row.min_players or 1}+"
    if row.min_players and high and row.min_players != high:
        return f"{row.min_players}–{high}"
    return str(row.min_players or high or "?")


def _rating(row: Candidate) -> float:
    """The average rating pulled towards PRIOR_RATING as if PRIOR_WEIGHT more people
    had rated it: a 9/10 from thirty people is no 8/10 from thousands."""
    n = row.rating_count or 0
    return ((row.rating or PRIOR_RATING) * n + PRIOR_RATING * PRIOR_WEIGHT) / (n + PRIOR_WEIGHT)


def _score(row: Candidate, minutes: int, youngest: int, mood: str) -> _Ranked:
    """The game's score for the request, whatever the table size (see _ranked)."""
    score = 0.0
    length = row.max_time or row.min_time
    score += length / minutes if length else 0.0  # fills the time without running over
    if row.min_age and row.min_age <= youngest - MUCH_YOUNGER:
        score -= 1  # made for children much younger than this group
    fit, weight_score, _reason = _weight(row, mood)
    score += weight_score
    score += POPULARITY * math.log10(1 + row.owned_count) / 5.3 + _rating(row) - PRIOR_RATING
    score += 0.5 if row.engine_slug else 0.0
    if fit == FITS and (not length or row.rating_count < KNOWN_FROM):
        fit = UNKNOWN
    return _Ranked(row, round(score, 3), fit)


TRAIT_REASONS = {
    game_traits.COOP: gettext_noop("co-operative: you win or lose together"),
    game_traits.PARTY: gettext_noop("a party game"),
    game_traits.LITTLE_READING: gettext_noop("little to read"),
}


def _reasons(row: Candidate, players: int, minutes: int, mood: str) -> list[str]:
    """What fit, in a few words each (the page's "Pourquoi"); the facts themselves
    (players, time, age) are the pick's line."""
    reasons = [
        _("best at %(n)d players") % {"n": players} if row.best_at(players)
        else ngettext("for %(n)d player", "for %(n)d players", players) % {"n": players}
    ]
    reasons += [_(TRAIT_REASONS[trait]) for trait in game_traits.TRAITS if trait in row.traits]
    if row.max_time or row.min_time:
        reasons.append(_("done within %(m)d min") % {"m": minutes})
    else:
        reasons.append(_("playing time unknown"))
    reason = _weight(row, mood)[2]
    if reason:
        reasons.append(_(reason) % {"w": f"{row.weight:g}" if row.weight is not None else ""})
    if row.rating_count < KNOWN_FROM:
        reasons.append(_("little known (%(n)d ratings)") % {"n": row.rating_count})
    elif _rating(row) >= 7:
        reasons.append(_("well liked (%(r).1f/10)") % {"r": row.rating})
    if (row.max_players or 0) >= OPEN_FROM and _capacity(row) >= OPEN_FROM:
        reasons.append(_("any number can join"))
    if row.engine_slug:
        reasons.append(_("its rules can be tried online here first"))
    return reasons


def _ranked(scored: list[_Ranked], players: int) -> list[_Ranked]:
    """Every game that seats ``players``, surest and best first (3 points for a
    game best at that count)."""
    return sorted(
        (_Ranked(r.row, r.score + 3, r.fit) if r.row.best_at(players) else r for r in scored if seats(r.row, players)),
        key=lambda r: (r.fit, -r.score, -r.row.owned_count, r.row.title),
    )


def _deal(rankings: list[list[_Ranked]], limit: int, taken: set[str]) -> list[list[_Ranked]]:
    """Up to ``limit`` picks for each ranking, dealt in turns (each table's best
    first, then each one's second...), one game per family over all of them; a
    doubtful or misfitting pick only while a ranking has fewer than MIN_SHOWN."""
    chosen: list[list[_Ranked]] = [[] for _ in rankings]
    positions = [0] * len(rankings)
    for _round in range(limit):
        for i, ranking in enumerate(rankings):
            while positions[i] < len(ranking):
                r = ranking[positions[i]]
                if r.fit != FITS and len(chosen[i]) >= MIN_SHOWN:
                    positions[i] = len(ranking)
                    break
                positions[i] += 1
                key = family(r.row)
                if key not in taken:
                    taken.add(key)
                    chosen[i].append(r)
                    break
    return chosen


def _picks(dealt: list[list[_Ranked]], sizes: list[int], minutes: int, mood: str) -> list[list[Pick]]:
    """The dealt rows as picks of games, with their reasons (read only for these few)."""
    games = Game.objects.select_related("base_game").in_bulk([r.row.id for ranking in dealt for r in ranking])
    return [
        [Pick(games[r.row.id], r.score, _reasons(r.row, players, minutes, mood), r.fit, facts_line(r.row))
         for r in ranking]
        for ranking, players in zip(dealt, sizes)
    ]


def _note_incomplete(picks: list[Pick]) -> None:
    """Mark the picks whose playable boxes on the shelf are all incomplete
    (boxes.status.incomplete_only), in one query for every pick of the answer."""
    counts = incomplete_only([p.game for p in picks])
    for p in picks:
        p.incomplete = counts.get(p.game.pk, 0)


def table_sizes(players: int, tables: int) -> list[int]:
    """``players`` shared as evenly as can be: 11 at 3 tables is 4 + 4 + 3."""
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def plan(players: int, minutes: int, youngest: int, mood: str = "anything", limit: int = SHORTLIST,
         exclude: frozenset[int] = frozenset(), also: frozenset[str] = frozenset(),
         like: frozenset[str] = frozenset()) -> Plan:
    """Games for everyone together, and from 8 players on, ways to split into two
    or three tables with suggestions for each; none of the games in ``exclude``
    (those a group has already played, for instance); campaigns, miniatures or
    role-playing games only when ``also`` asks for them; only games with every
    trait of ``like`` (co-operative, party, little to read)."""
    mood = mood if mood in MOODS else "anything"
    splitting = SPLIT_FROM <= players <= SPLIT_UP_TO
    rows = _candidates(players, minutes, youngest, SMALLEST_TABLE if splitting else players, frozenset(exclude),
                       frozenset(also), frozenset(like))
    scored = [_score(row, minutes, youngest, mood) for row in rows]
    rankings: dict[int, list[_Ranked]] = {}

    def ranked(size: int) -> list[_Ranked]:  # 12 players at 3 tables rank the games for 4 once
        if size not in rankings:
            rankings[size] = _ranked(scored, size)
        return rankings[size]

    together = _deal([ranked(players)], limit, set())
    result = Plan(players, _picks(together, [players], minutes, mood)[0])
    if splitting:
        for count in (2, 3):
            sizes = table_sizes(players, count)
            if min(sizes) < SMALLEST_TABLE:
                continue
            dealt = _deal([ranked(size) for size in sizes], PER_TABLE, set())
            if all(dealt):
                tables = _picks(dealt, sizes, minutes, mood)
                result.splits.append(Split([Table(size, picks) for size, picks in zip(sizes, tables)]))
    _note_incomplete(result.together + [p for split in result.splits for table in split.tables for p in table.picks])
    return result


def pick(players: int, minutes: int, youngest: int, mood: str = "anything", limit: int = SHORTLIST,
         like: frozenset[str] = frozenset()) -> list[Pick]:
    """The shortlist for everyone at one table."""
    mood = mood if mood in MOODS else "anything"
    rows = _candidates(players, minutes, youngest, players, like=frozenset(like))
    scored = [_score(row, minutes, youngest, mood) for row in rows]
    picks = _picks(_deal([_ranked(scored, players)], limit, set()), [players], minutes, mood)[0]
    _note_incomplete(picks)
    return picks
