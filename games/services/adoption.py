"""A guest's finished games given to the account that guest then creates.

Only finished tables move: a table still in play keeps the guest identity, which its
sockets and clocks know the seat by. The seats' names do not change (the guest chose
the name the table shows), so no new version is needed: the frames cached per version
stay true; what changes is whose profile and account page list the games.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Seat, Table


def adopt_guest_games(guest_key: str, user: Any) -> tuple[int, bool]:
    """The finished seats and tables of ``guest_key`` become ``user``'s. Returns how many
    seats moved, and whether anything of the guest is still in play."""
    with transaction.atomic():
        finished = Table.objects.filter(status=Table.Status.FINISHED)
        carried = Seat.objects.filter(guest_key=guest_key, user__isnull=True, table__in=finished).update(
            user=user, guest_key="")
        Table.objects.filter(creator_key=guest_key, created_by__isnull=True,
                             status=Table.Status.FINISHED).update(created_by=user, creator_key="")
    return carried, Seat.objects.filter(guest_key=guest_key).exists()
