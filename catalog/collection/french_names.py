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
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from catalog import text as textlib
from catalog.collection.models import Game, GameName, refresh_titles
from catalog.errors import CatalogError
from ludo.accounts import has_hidden_characters

NAME_MAX = 200
# What a host may say a name comes from: never "unknown" (the form asks).
HOST_SOURCES = [
    GameName.Source.EDITION, GameName.Source.PUBLISHER, GameName.Source.LIBRARY, GameName.Source.TRADITIONAL,
]


def without_french_name() -> QuerySet[Game]:
    """The games with no current French name, most owned first."""
    french = GameName.objects.filter(game=OuterRef("pk"), language="fr", kind=GameName.Kind.CURRENT)
    return Game.objects.filter(~Exists(french)).order_by("-owned_count", "id")


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
