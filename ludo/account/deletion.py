"""Deleting an account: what the person leaves behind is kept, anonymised.

Decision: the user row is kept as an empty shell (inactive, renamed
``deleted:<id>``, no email nor name, an unusable password, no groups or
permissions) rather than deleted. Why: seats, chat lines, tables and
bookings point at it, and a seat whose account row disappeared would read
as an *empty* seat (``Seat.is_empty``: no account, no guest, no bot), which
another player could then take in a running game, and a finished game would
lose who sat there; ratings against this player stay consistent for the
others. Nothing personal is left in the row, and it can never log in again
(inactive, no password; its API tokens are deleted, its sessions die with
the password change).

The shell's name holds a colon, which no username can (sign-up, the admin
and createsuperuser all check Django's username characters): nobody can
take it beforehand and block the deletion. Names beginning with "deleted"
are also refused to people and guests (ludo.accounts.name_is_reserved).

All in one transaction, so that a failure leaves the account as it was:
1. the account's live bookings of sessions to come are cancelled through the
   bookings service (the cancellation email is an outbox row addressed
   before the address is removed; the worker sends it, then forgets the
   address); one the service refuses (inside the session's minimum notice)
   stays, anonymised, for the hosts to see;
2. it leaves the tables that have not started, and resigns the games in
   play, through the tables' services (each in a savepoint: a table that
   cannot be resigned is logged and left, it never blocks the deletion);
3. names become "Compte supprimé" (the house's language: the rows are
   shared with other people) at every table, with a new version so that no
   cached view shows the old name; emails and notes are removed from
   bookings, proposals, play-log entries, verified addresses, the outbox
   and the login throttle's rows; tokens, profile, privacy and presence rows
   deleted; the row emptied.

After the commit, ``credentials_changed(user, "deleted")`` tells the open
sockets to close.
"""

from __future__ import annotations

import logging
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import CharField, Q, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from catalog.playlog.models import Play, Player
from games import services as tables
from games.bookings import outbox
from games.bookings import services as bookings
from games.bookings.errors import BookingError
from games.bookings.models import Booking, HostFeed, Proposal, VerifiedAddress
from games.models import ChatMessage, Connection, Seat, Table
from games.protocol import TableError
from games.ratings.models import Privacy
from games.services.store import _transaction
from ludo.models import Profile
from ludo.signals import send_credentials_changed
from ludo.tokens.models import PersonalToken

log = logging.getLogger(__name__)

DELETED_NAME = _("Deleted account")
# Outside Django's username characters (letters, digits, @ . + - _): no account can hold it first.
SHELL_NAME = "deleted:{pk}"


def deleted_name() -> str:
    """The name left in the account's place, in the house's language (rows are shared)."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(DELETED_NAME)


def _cancel_future_bookings(user: Any, now: Any) -> None:
    for booking_id in Booking.objects.filter(user=user, status__in=Booking.ACTIVE,
                                             session__ends_at__gt=now).values_list("pk", flat=True):
        try:
            with transaction.atomic():
                bookings.cancel(booking_id, now=now)
        except BookingError as exc:
            log.info("account %s deleted: booking %s kept (%s)", user.pk, booking_id, exc.code)


def _leave_tables(user: Any) -> None:
    who = tables.Who(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))
    playing = Seat.objects.filter(user=user, resigned=False,
                                  table__status__in=(Table.Status.OPEN, Table.Status.RUNNING))
    for table_id, status in playing.values_list("table_id", "table__status"):
        try:
            with transaction.atomic():
                if status == Table.Status.OPEN:
                    tables.leave_table(table_id, who)
                else:
                    tables.resign(table_id, who)
        except TableError as exc:
            log.info("account %s deleted: table %s left as it is (%s)", user.pk, table_id, exc.code)
        except Exception:
            # A table its own code cannot finish (a broken state): the deletion goes on; the
            # seat is renamed below and the table is left to time out or to the hosts.
            log.exception("account %s deleted: table %s could not be left", user.pk, table_id)


def _own_addresses(user: Any) -> set[str]:
    """The addresses the account proved its own (an address merely typed may be someone else's)."""
    return set(VerifiedAddress.objects.filter(user=user).values_list("email", flat=True))


def _forget_outbox(user: Any, addresses: set[str]) -> None:
    """The account's emails (its bookings', proposals', its own, and any to an address
    it proved its own): sent (or dead) ones lose their address; those still to send
    (the cancellations just queued) keep it until the worker has sent them."""
    match = Q(booking__user=user) | Q(proposal__user=user) | Q(extra__user=user.pk)
    for address in addresses:
        match |= Q(to__iexact=address)
    rows = outbox.OutgoingEmail.objects.filter(match)
    rows.exclude(status=outbox.OutgoingEmail.Status.QUEUED).update(to=outbox.FORGOTTEN_ADDRESS, extra={}, once_key=None)
    for row in rows.filter(status=outbox.OutgoingEmail.Status.QUEUED):
        row.extra, row.once_key = {**row.extra, outbox.FORGET_AFTER_SENDING: True}, None
        row.save(update_fields=["extra", "once_key"])


def _forget_login_throttle(username: str) -> None:
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username__iexact=username).delete()


def _anonymise(user: Any) -> None:
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    name = deleted_name()
    old_username = user.get_username()
    _forget_outbox(user, _own_addresses(user))
    # An address per booking, in the reserved .invalid domain: a session allows one live
    # booking per address, and two deleted accounts may have sat at the same one.
    Booking.objects.filter(user=user).update(
        name=name, note="",
        email=Concat(Value("deleted-"), Cast("id", CharField()), Value("@invalid"), output_field=CharField()),
    )
    Proposal.objects.filter(user=user).update(name=name, email="", message="")
    tables.rename_account(user.pk, name, old_username)  # a new version per table: no cached view keeps the old name
    ChatMessage.objects.filter(user=user).update(name=name)
    # The play log: a name may appear once per play, so each player row gets a key of its own.
    Player.objects.filter(user=user).update(
        name=name, name_key=Concat(Value("deleted "), Cast("id", CharField()), output_field=CharField()))
    Play.objects.filter(logged_by=user).update(note="")
    Connection.objects.filter(user=user).delete()
    PersonalToken.objects.filter(user=user).delete()
    HostFeed.objects.filter(user=user).delete()
    VerifiedAddress.objects.filter(user=user).delete()
    Privacy.objects.filter(user=user).delete()
    Profile.objects.filter(user=user).delete()
    _forget_login_throttle(old_username)
    user.username = SHELL_NAME.format(pk=user.pk)
    user.email = user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


@_transaction  # the tables' own transaction: on SQLite, one writer lock taken first
def delete_account(user: Any, now: Any = None) -> None:
    """Delete ``user``'s account as the module says, in one transaction. Safe to run twice."""
    now = now or timezone.now()
    _cancel_future_bookings(user, now)
    _leave_tables(user)
    _anonymise(user)
    send_credentials_changed(user.pk, "deleted")
