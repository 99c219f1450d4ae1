"""“À quoi on joue ?”: a ranked shortlist from the boxes on the shelves.

Hard limits first (a copy on the shelf, the number of players, time, the youngest
player's age), then a score with the reasons that earned it, so the page can say
why each game was picked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from catalog.models import Game

MOODS = {
    # mood: (ideal weight, tolerance)
    "light": (1.5, 0.7),
    "thinky": (3.3, 0.9),
    "anything": (None, None),
}
SHORTLIST = 10


@dataclass
class Pick:
    game: Game
    score: float
    reasons: list[str] = field(default_factory=list)


def pick(players: int, minutes: int, youngest: int, mood: str = "anything", limit: int = SHORTLIST) -> list[Pick]:
    candidates = (
        Game.objects.available_now()
        .filter(min_players__lte=players)
        .exclude(max_players__lt=players)
        .exclude(min_time__gt=minutes)
        .exclude(min_age__gt=youngest)
        .only(
            "id", "slug", "title", "title_fr", "title_de", "title_en", "min_players", "max_players",
            "best_min_players", "best_max_players", "min_time", "max_time", "min_age", "weight", "rating",
            "owned_count", "engine_slug",
        )
    )
    ideal, tolerance = MOODS.get(mood, MOODS["anything"])
    picks = []
    for game in candidates:
        score, reasons = 0.0, []
        if game.best_at(players):
            score += 3
            reasons.append(_("best at %(n)d players") % {"n": players})
        else:
            reasons.append(_("plays %(n)d (%(range)s players)") % {"n": players, "range": game.players_label})
        length = game.max_time or game.min_time
        if length and length <= minutes:
            score += 1 + length / minutes  # fills the evening without running over
            reasons.append(_("fits in %(m)d minutes (%(t)s min)") % {"m": minutes, "t": game.time_label})
        elif game.min_time:
            score += 0.5
            reasons.append(_("can fit in %(m)d minutes (%(t)s min)") % {"m": minutes, "t": game.time_label})
        else:
            reasons.append(_("playing time unknown"))
        if game.min_age:
            reasons.append(_("from %(age)d years") % {"age": game.min_age})
        if ideal is not None and game.weight is not None:
            distance = abs(float(game.weight) - ideal)
            if distance <= tolerance:
                score += 2 * (1 - distance / tolerance)
                reasons.append(_("light, as you wished") if mood == "light" else _("something to think about, as you wished"))
            else:
                score -= 1
        if game.rating:
            score += (game.rating - 6) / 2
            if game.rating >= 7:
                reasons.append(_("well liked (%(r).1f/10)") % {"r": game.rating})
        if game.engine_slug:
            reasons.append(_("its rules can be tried online here first"))
            score += 0.5
        picks.append(Pick(game, round(score, 3), reasons))
    picks.sort(key=lambda p: (-p.score, -p.game.owned_count, p.game.title))
    return picks[:limit]
