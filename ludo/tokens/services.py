"""One function per action on tokens, and the lookup that turns a token into a person.

Tokens carry 238 random bits, so a plain SHA-256 digest is enough to store
them (as GitHub does): nobody can search that space, and checking a token
costs one indexed query. The lookup finds rows by the token's prefix, then
compares digests with ``hmac.compare_digest``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.services import Who
from ludo.accounts import GUEST_NAME_KEY, NameTaken, clean_guest_name
from ludo.guests import GUEST_ID_KEY
from ludo.signals import send_credentials_changed
from ludo.tokens.models import GuestToken, PersonalToken

ALPHABET = string.ascii_letters + string.digits
SECRET_LENGTH = 40  # 40 base62 characters: 238 bits
PREFIX_LENGTH = 8
NAME_MAX = 60
# A person's token is marked as used at most this often (one write per minute, not per request).
TOUCH_EVERY = timedelta(seconds=60)
KINDS = {PersonalToken.MARKER: PersonalToken, GuestToken.MARKER: GuestToken}


class TokenError(ValueError):
    """A refused token action; ``code`` is stable, the message is for people."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


def _new_secret(marker: str) -> tuple[str, str, str]:
    """(token, prefix, digest) for a new token of the kind ``marker`` names."""
    body = "".join(secrets.choice(ALPHABET) for _ in range(SECRET_LENGTH))
    token = marker + body
    return token, body[:PREFIX_LENGTH], digest(token)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def looks_like_token(token: str) -> bool:
    """The shape of a token (marker, 40 base62 characters), before any lookup."""
    marker = token[:9]
    body = token[9:]
    return marker in KINDS and len(body) == SECRET_LENGTH and all(c in ALPHABET for c in body)


# -- guests -----------------------------------------------------------------------------------

def guest_idle_days() -> int:
    return int(getattr(settings, "LUDO_GUEST_TOKEN_IDLE_DAYS", 30))


@transaction.atomic
def create_guest_token(raw_name: Any, address: str | None = None) -> tuple[GuestToken, str]:
    """A fresh guest identity with a display name (checked like the guest form's) and its token.

    The identity is a random key of its own, never a session's: a session
    guest's starts with ``g:``, a token guest's with ``t:``.
    """
    if not isinstance(raw_name, str):
        raise TokenError("bad_name", "name must be a string")
    try:
        name = clean_guest_name(raw_name)
    except NameTaken as exc:
        raise TokenError("name_taken", str(exc)) from None
    except ValueError as exc:
        raise TokenError("bad_name", str(exc)) from None
    token, prefix, hashed = _new_secret(GuestToken.MARKER)
    row = GuestToken.objects.create(prefix=prefix, digest=hashed, guest_key="t:" + secrets.token_hex(16),
                                    display_name=name, address=address or None)
    return row, token


def clear_idle_guest_tokens(now: Any = None) -> int:
    """Delete the guest tokens nobody used for LUDO_GUEST_TOKEN_IDLE_DAYS; how many."""
    horizon = (now or timezone.now()) - timedelta(days=guest_idle_days())
    idle = GuestToken.objects.alias(seen=Coalesce("last_used_at", "created_at")).filter(seen__lt=horizon)
    count, _ = idle.delete()
    return count


# -- accounts ---------------------------------------------------------------------------------

def max_personal_tokens() -> int:
    return int(getattr(settings, "LUDO_MAX_PERSONAL_TOKENS", 20))


def clean_token_name(raw: Any) -> str:
    name = " ".join(raw.split()) if isinstance(raw, str) else ""
    if not 1 <= len(name) <= NAME_MAX:
        raise TokenError("bad_name", f"a token's name needs 1 to {NAME_MAX} characters")
    if not name.isprintable():
        raise TokenError("bad_name", "a token's name cannot hold control characters")
    return name


@transaction.atomic
def create_personal_token(user: Any, raw_name: Any) -> tuple[PersonalToken, str]:
    """A new personal token for ``user``; the token text is returned once and never stored."""
    name = clean_token_name(raw_name)
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one creation at a time per account
    if PersonalToken.objects.filter(user=user, revoked_at__isnull=True).count() >= max_personal_tokens():
        raise TokenError("too_many_tokens", f"an account holds at most {max_personal_tokens()} tokens")
    token, prefix, hashed = _new_secret(PersonalToken.MARKER)
    row = PersonalToken.objects.create(user=user, name=name, prefix=prefix, digest=hashed)
    return row, token


def revoke_personal_token(user: Any, token_id: int) -> PersonalToken:
    """Revoke one of ``user``'s own tokens; another account's is "not found", like an unknown one.
    Its open sockets are told (credentials_changed "token_revoked") once it commits."""
    with transaction.atomic():
        row = PersonalToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if row is None:
            raise TokenError("not_found", "no such token")
        if row.revoked_at is None:
            row.revoked_at = timezone.now()
            row.save(update_fields=["revoked_at"])
            send_credentials_changed(user.pk, "token_revoked", token_ids=[row.pk])
    return row


def _revoke_rows(rows: Any, now: Any) -> dict[int | None, list[int]]:
    """Revoke the active tokens among ``rows`` (personal or guest tokens); their ids
    by account (None: guest tokens). Inside a transaction."""
    account = "user_id" if rows.model is PersonalToken else None
    active = [(row[0], row[1] if account else None) for row in
              rows.model.objects.select_for_update().filter(pk__in=rows.values("pk"), revoked_at__isnull=True)
              .order_by("pk").values_list("pk", account or "pk")]
    rows.model.objects.filter(pk__in=[pk for pk, _ in active]).update(revoked_at=now)
    by_account: dict[int | None, list[int]] = {}
    for pk, user_id in active:
        by_account.setdefault(user_id, []).append(pk)
    return by_account


@transaction.atomic
def revoke(rows: Any) -> int:
    """Revoke every active token of a queryset (the admin's action); how many.
    The sockets on them are told once it commits (credentials_changed
    "token_revoked"; guest tokens' with user_id None)."""
    by_account = _revoke_rows(rows, timezone.now())
    for user_id, ids in by_account.items():
        send_credentials_changed(user_id, "token_revoked", token_ids=ids)
    return sum(len(ids) for ids in by_account.values())


def revoke_made_before(user: Any, moment: Any) -> list[int]:
    """Revoke ``user``'s tokens made up to ``moment`` (a password or address change:
    a token a thief made keeps nothing); their ids. Inside the change's transaction;
    the caller sends credentials_changed with them."""
    return _revoke_rows(PersonalToken.objects.filter(user=user, created_at__lte=moment), moment).get(user.pk, [])


# -- from a token to a person ------------------------------------------------------------------

@dataclass(frozen=True)
class Bearer:
    """The person a valid token stands for, and the token's row."""

    token: PersonalToken | GuestToken
    user: Any = None  # the account (personal tokens)

    @property
    def guest_session(self) -> GuestTokenSession | None:
        if isinstance(self.token, GuestToken):
            return GuestTokenSession(self.token.guest_key, self.token.display_name)
        return None

    def who(self) -> Who:
        """The same ``Who`` the pages build from a session (games.services)."""
        return Who.from_user_and_session(self.user, self.guest_session)


class GuestTokenSession(dict):
    """The part of a session that ``Who.from_user_and_session`` reads, for a
    guest token: its identity key and display name. Read-only, never saved."""

    def __init__(self, key: str, name: str) -> None:
        super().__init__({GUEST_NAME_KEY: name, GUEST_ID_KEY: key})

    def is_empty(self) -> bool:
        return False


def authenticate(token: str, now: Any = None) -> Bearer | None:
    """The person behind a token, or None: unknown, revoked, idle too long
    (guests), or an account that is no longer active. Marks it used."""
    if not looks_like_token(token):
        return None
    model = KINDS[token[:9]]
    hashed = digest(token)
    rows = model.objects.filter(prefix=token[9:9 + PREFIX_LENGTH])
    if model is PersonalToken:
        rows = rows.select_related("user")
    found = None
    for row in rows:
        if hmac.compare_digest(row.digest, hashed):
            found = row
    if found is None or found.revoked_at is not None:
        return None
    now = now or timezone.now()
    user = None
    if isinstance(found, PersonalToken):
        user = found.user
        if not user.is_active:
            return None
    elif (found.last_used_at or found.created_at) < now - timedelta(days=guest_idle_days()):
        return None
    if found.last_used_at is None or now - found.last_used_at >= TOUCH_EVERY:
        model.objects.filter(pk=found.pk).update(last_used_at=now)
        found.last_used_at = now
    return Bearer(found, user)


def still_valid(bearer: Bearer, now: Any = None) -> bool:
    """Whether the token of an open socket still stands (not revoked, its
    account active); marks it used. One query."""
    rows = type(bearer.token).objects.filter(pk=bearer.token.pk, revoked_at__isnull=True)
    if bearer.user is not None:
        rows = rows.filter(user__is_active=True)
    return rows.update(last_used_at=now or timezone.now()) == 1
