"""Who may play rated games: accounts whose current email address is
confirmed (``ludo.accounts.is_confirmed``: a confirmation link followed, or
one of the house's hosts).

Checked three times: when a rated table is created, when someone takes a seat
at one (and for a rematch of one), and when the game is rated. Without it, an
account made in a second with any address could sit down, make two moves and
resign: a free win for whoever they play (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model

from games.protocol import TableError
from ludo.accounts import is_confirmed

if TYPE_CHECKING:
    from games.services.who import Who


def check_rated_player(who: Who) -> None:
    """Refuse a seat at a rated table to a guest (``account_required``) and to
    an account whose email address is not confirmed (``unconfirmed_account``)."""
    if who.user_id is None:
        raise TableError("account_required")
    if unconfirmed([who.user_id]):
        raise TableError("unconfirmed_account")


def unconfirmed(user_ids: Iterable[int]) -> set[int]:
    """The accounts among ``user_ids`` that may not play rated games now
    (unconfirmed, deactivated or gone)."""
    wanted = set(user_ids)
    found = {user.pk: user for user in get_user_model().objects.filter(pk__in=wanted)}
    return {pk for pk in wanted if not is_confirmed(found.get(pk))}
