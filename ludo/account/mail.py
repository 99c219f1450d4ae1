"""The account's emails that go through the outbox (games.bookings.outbox):
the link confirming the address, the notice that the password changed, and the
two emails of an address change (the link to the new address, the notice to
the old one: ludo.account.email_change).

Rows hold only the account's id (``extra["user"]``) and the address; the
worker builds each email as things are when it sends it (a fresh link, in
the row's language), or nothing when there is nothing to say any more.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.bookings import outbox

CONFIRM = "account_confirm"
PASSWORD_CHANGED = "account_password_changed"
EMAIL_CHANGE = "account_email_change"
EMAIL_CHANGED = "account_email_changed"
KINDS = (CONFIRM, PASSWORD_CHANGED, EMAIL_CHANGE, EMAIL_CHANGED)


def queue_password_notice(user: Any, language: str) -> None:
    """Tell the account's address that its password changed (inside the change's transaction)."""
    if user.email:
        outbox.enqueue(PASSWORD_CHANGED, user.email, language=language, extra={"user": user.pk})


def queue_email_change(user: Any, new_email: str, *, old_email: str, language: str) -> None:
    """The link to a new address (inside the caller's transaction); built when sent, for
    the account's address as it is then (none if it changed meanwhile)."""
    outbox.enqueue(EMAIL_CHANGE, new_email, language=language, extra={"user": user.pk, "old": old_email})


def queue_change_notice(user: Any, old_email: str, new_email: str, *, language: str) -> None:
    """Tell the old address that the account moved (inside the change's transaction)."""
    outbox.enqueue(EMAIL_CHANGED, old_email, language=language, extra={"user": user.pk, "new": new_email})


def _email_change(row: outbox.OutgoingEmail, user: Any) -> tuple[str, str] | None:
    from ludo.account import email_change

    if row.kind == EMAIL_CHANGED:
        return email_change.notice_message(user, str(row.extra.get("new", "")))
    # The link stands for the address the account had when asked: none once it changed,
    # nor once another account took the new address meanwhile.
    if (user.email or "") != str(row.extra.get("old", "")) or email_change.address_taken(row.to, user):
        return None
    return email_change.confirmation_message(user, row.to)


def _account(row: outbox.OutgoingEmail) -> Any:
    try:
        return get_user_model().objects.filter(pk=int(row.extra.get("user")), is_active=True).first()
    except (TypeError, ValueError):
        return None


def message_for(row: outbox.OutgoingEmail) -> EmailMessage | None:
    """The email of an account's outbox row, or None (nothing to send any more)."""
    from ludo.account import address
    from ludo.accounts import address_confirmed_elsewhere, is_confirmed

    user = _account(row)
    if user is None or row.kind not in KINDS:
        return None
    site = settings.SITE_URL.rstrip("/")
    with translation.override(row.language or settings.LANGUAGE_CODE):
        if row.kind in (EMAIL_CHANGE, EMAIL_CHANGED):
            built = _email_change(row, user)
            if built is None:
                return None
            return EmailMessage(built[0], built[1], from_email=settings.DEFAULT_FROM_EMAIL, to=[row.to])
        if row.kind == CONFIRM:
            # Only to the account's address as it is now, never one another account confirmed.
            if (user.email or "").lower() != row.to.lower() or is_confirmed(user):
                return None
            if address_confirmed_elsewhere(row.to, user):
                return None
            link = site + reverse("account:address_confirm", args=[address.make_token(user, row.to)])
            context = {"user": user, "link": link, "days": address.ADDRESS_LINK_MAX_AGE.days, "site_url": site}
            template = "account/email/address_confirm"
        else:
            context = {"user": user, "site_url": site, "reset": site + reverse("account:password_reset")}
            template = "account/email/password_changed"
        subject = render_to_string(f"{template}_subject.txt", context).strip()
        body = render_to_string(f"{template}.txt", context)
    return EmailMessage(subject, body, from_email=settings.DEFAULT_FROM_EMAIL, to=[row.to])
