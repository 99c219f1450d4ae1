"""The hosts' work list of French names: the most-owned games that have none yet,
and adding one in one step (the name as printed on the French box, and where it
comes from).

A French name added here is the game's primary French name when the game has none
(the one the site shows in French), else one more name search finds it by. It is
refused, with the reason and nothing changed, when it is empty, too long, holds no
letter or digit, holds invisible or control characters, or is one the game already
has in French (case, accents and punctuation aside). Two hosts adding a name to the
same game at the same moment are taken one after the other (the game's row is
locked): the second sees the first's name.

Beside each game, the list shows what the look-ups of public pages found
(``catalog/data/names-fr-research.csv``: bgg_id, the outcome, the title seen, the
page, a note): a French title a page suggested but that was not taken (for a host
who holds the box to check; never filled in for them), a French edition whose box
title no page showed, a page saying there was never one, or nothing found.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from catalog import text as textlib
from catalog.collection import csv_rows
from catalog.collection.models import Game, GameName, refresh_titles
from catalog.errors import CatalogError
from ludo.accounts import has_hidden_characters

NAME_MAX = 200
# What a host may say a name comes from: never "unknown" (the form asks).
HOST_SOURCES = [
    GameName.Source.EDITION, GameName.Source.PUBLISHER, GameName.Source.LIBRARY, GameName.Source.TRADITIONAL,
]


RESEARCH = Path(__file__).resolve().parents[1] / "data" / "names-fr-research.csv"
# What the research log can tell a host about a game: a French title a page suggested
# but that was not taken (a doubt on the words of the box, the edition or the page);
# a French edition that exists, its box title not seen; a page saying there never was
# one; nothing found. The log holds one look-up per game (a second look replaces the
# first), and a former title's line is not a lead.
SUGGESTED, EXISTS, NEVER, NOTHING = "suggested", "exists", "never", "nothing"
OUTCOMES = {"left out": SUGGESTED, "unsure": SUGGESTED, "none": NEVER, "unknown": NOTHING}


@dataclass(frozen=True)
class Lead:
    outcome: str  # SUGGESTED, EXISTS, NEVER or NOTHING
    title: str  # the French title a page suggested (SUGGESTED only)
    page: str  # an http(s) address, or ""
    note: str  # in English, as the look-up wrote it


def _lead(row: dict) -> Lead | None:
    status = (row.get("status") or "").strip()
    outcome = OUTCOMES.get(status)
    if outcome is None or (row.get("kind") or "").strip() not in ("", "current"):
        return None
    title = " ".join((row.get("french_title") or "").split())[:NAME_MAX]
    if outcome == SUGGESTED and not title:
        if status != "unsure":  # a title left out, with no title: nothing to say
            return None
        outcome = EXISTS
    page = (row.get("page") or "").strip()
    return Lead(outcome, title if outcome == SUGGESTED else "",
                page if page.startswith(("https://", "http://")) and page.isprintable() else "",
                (row.get("note") or "").strip())


@cache
def leads() -> dict[int, Lead]:
    """What the look-ups found for each game: the last usable line of the game
    wins. A line that is not one (no id, another outcome, a suggestion with no
    title) gives no lead, a page that is not a web address no link."""
    found: dict[int, Lead] = {}
    for bgg_id, row in csv_rows.by_bgg_id(RESEARCH):
        lead = _lead(row)
        if lead is not None:
            found[bgg_id] = lead
    return found


def without_french_name(with_title_only: bool = False) -> QuerySet[Game]:
    """The games with no current French name, most owned first; only those a page
    suggested a French title for, with ``with_title_only``."""
    french = GameName.objects.filter(game=OuterRef("pk"), language="fr", kind=GameName.Kind.CURRENT)
    games = Game.objects.filter(~Exists(french)).order_by("-owned_count", "id")
    if with_title_only:
        games = games.filter(bgg_id__in=[i for i, lead in leads().items() if lead.outcome == SUGGESTED])
    return games


def clean_name(raw: str) -> str:
    """A name as typed, single-spaced; CatalogError when it cannot be one."""
    name = " ".join((raw or "").split())
    if not name:
        raise CatalogError(_("Write the name."))
    if len(name) > NAME_MAX:
        raise CatalogError(_("A name has at most %(n)d characters.") % {"n": NAME_MAX})
    if has_hidden_characters(name) or not name.isprintable():
        raise CatalogError(_("The name holds invisible or control characters."))
    if not textlib.fold_query(name):
        raise CatalogError(_("A name needs a letter or a digit."))
    return name


@transaction.atomic
def add_french_name(game_id: int, raw_name: str, source: str, user) -> GameName:
    """Add a French name to a game (see the module docstring)."""
    name = clean_name(raw_name)
    if source not in HOST_SOURCES:
        raise CatalogError(_("Say where the name comes from."))
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise CatalogError(_("This game is no longer in the catalogue."))
    french = list(GameName.objects.filter(game=game, language="fr"))
    key = textlib.fold_query(name)
    taken = _("%(game)s already has the French name %(name)s.") % {"game": game.title, "name": name}
    if any(textlib.fold_query(n.name) == key for n in french):
        raise CatalogError(taken)
    has_primary = any(n.primary for n in french)
    try:
        with transaction.atomic():
            added = GameName.objects.create(
                game=game, language="fr", name=name, primary=not has_primary, kind=GameName.Kind.CURRENT,
                source=source, added_by=user,
            )
    except IntegrityError:  # the same name in another spelling of case, added in between
        raise CatalogError(taken) from None
    refresh_titles([game])
    return added
