"""The tournaments a player took part in, for their profile page
(``{% player_tournaments player %}`` in templates/ratings/profile.html)."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Count, Q

from games import pages
from tournaments.models import Entrant, Tournament

register = template.Library()

SHOWN = 20


def tournaments_of(user: Any) -> list[dict[str, Any]]:
    """Their last tournaments that started (newest first): name, game, status,
    their final place out of how many, and whether they left."""
    titles = {g["slug"]: g["title"] for g in pages.games_info()}
    entries = (Entrant.objects.filter(user=user).exclude(tournament__status=Tournament.Status.OPEN)
               .select_related("tournament")
               .annotate(field=Count("tournament__entrants", filter=Q(tournament__entrants__rank__isnull=False)))
               .order_by("-tournament__started_at", "-pk")[:SHOWN])
    return [{"t": e.tournament, "entrant": e, "title": titles.get(e.tournament.game, e.tournament.game),
             "field": e.field} for e in entries]


@register.inclusion_tag("tournaments/_profile.html")
def player_tournaments(user: Any) -> dict[str, Any]:
    return {"items": tournaments_of(user)}
