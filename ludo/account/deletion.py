"""Deleting an account: what the person leaves behind is kept, anonymised.

Decision: the user row is kept as an empty shell (inactive, renamed
``deleted-<id>``, no email nor name, an unusable password, no groups or
permissions) rather than deleted. Why: seats, chat lines, tables and
bookings point at it, and a seat whose account row disappeared would read
as an *empty* seat (``Seat.is_empty``: no account, no guest, no bot), which
another player could then take in a running game, and a finished game would
lose who sat there; ratings against this player stay consistent for the
others. Nothing personal is left in the row, and it can never log in again
(inactive, no password; its API tokens are deleted, its sessions die with
the password change).

In order:
1. the account's live bookings of sessions to come are cancelled through the
   bookings service (each in its own transaction, so the cancellation email
   still reaches the person); one the service refuses (inside the session's
   minimum notice) stays, anonymised, for the hosts to see;
2. it leaves the tables that have not started, and resigns the games in
   play, through the tables' services;
3. in one transaction: names become "Compte supprimé" (the house's
   language: the rows are shared with other people), emails and notes are
   removed, tokens, profile and presence rows deleted, the row emptied.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import CharField, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games import services as tables
from games.bookings import services as bookings
from games.bookings.errors import BookingError
from games.bookings.models import Booking, HostFeed, Proposal
from games.models import ChatMessage, Connection, Seat, Table
from games.protocol import TableError
from ludo.models import Profile
from ludo.tokens.models import PersonalToken

log = logging.getLogger(__name__)

DELETED_NAME = _("Deleted account")


def deleted_name() -> str:
    """The name left in the account's place, in the house's language (rows are shared)."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(DELETED_NAME)


def _cancel_future_bookings(user: Any, now: Any) -> None:
    for booking_id in Booking.objects.filter(user=user, status__in=Booking.ACTIVE,
                                             session__ends_at__gt=now).values_list("pk", flat=True):
        try:
            bookings.cancel(booking_id, now=now)
        except BookingError as exc:
            log.info("account %s deleted: booking %s kept (%s)", user.pk, booking_id, exc.code)


def _leave_tables(user: Any) -> None:
    who = tables.Who(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))
    playing = Seat.objects.filter(user=user, resigned=False,
                                  table__status__in=(Table.Status.OPEN, Table.Status.RUNNING))
    for table_id, status in playing.values_list("table_id", "table__status"):
        try:
            if status == Table.Status.OPEN:
                tables.leave_table(table_id, who)
            else:
                tables.resign(table_id, who)
        except TableError as exc:
            log.info("account %s deleted: table %s left as it is (%s)", user.pk, table_id, exc.code)


@transaction.atomic
def _anonymise(user: Any) -> None:
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    name = deleted_name()
    # An address per booking, in the reserved .invalid domain: a session allows one live
    # booking per address, and two deleted accounts may have sat at the same one.
    Booking.objects.filter(user=user).update(
        name=name, note="",
        email=Concat(Value("deleted-"), Cast("id", CharField()), Value("@invalid"), output_field=CharField()),
    )
    Proposal.objects.filter(user=user).update(name=name, email="", message="")
    Seat.objects.filter(user=user).update(name=name)
    ChatMessage.objects.filter(user=user).update(name=name)
    Table.objects.filter(created_by=user).update(creator_name=name)
    Connection.objects.filter(user=user).delete()
    PersonalToken.objects.filter(user=user).delete()
    HostFeed.objects.filter(user=user).delete()
    Profile.objects.filter(user=user).delete()
    user.username = f"deleted-{user.pk}"
    user.email = user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def delete_account(user: Any, now: Any = None) -> None:
    """Delete ``user``'s account as the module says. Safe to run twice.

    Runs outside any transaction: each cancellation commits (and mails the
    person at their real address) before the addresses are removed.
    """
    if transaction.get_connection().in_atomic_block:
        raise RuntimeError("delete_account() must run outside a transaction (see its docstring)")
    now = now or timezone.now()
    _cancel_future_bookings(user, now)
    _leave_tables(user)
    _anonymise(user)
