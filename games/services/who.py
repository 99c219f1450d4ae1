"""Who is asking: the person behind a request or a socket."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.models import ChatMessage, Connection, Seat


@dataclass(frozen=True)
class Who:
    """The person behind a request or a socket: an account, a guest (its identity
    kept in the session, ``g:<hex>``, or a guest token's, ``t:<hex>``; never the
    session key), or nobody in particular."""

    user_id: int | None = None
    guest_key: str = ""
    name: str = ""
    is_staff: bool = False

    @property
    def person(self) -> Who:
        """The person behind this identity, however narrowed: itself here; a socket
        acting as one of several seats (games.services.living.AsSeat) widens back
        to its person. The one-seat rule (games.services.tables) asks the person."""
        return self

    @property
    def can_sit(self) -> bool:
        return self.user_id is not None or bool(self.guest_key and self.name)

    def holds(self, seat: Seat | Connection | ChatMessage | None) -> bool:
        if seat is None:
            return False
        if self.user_id is not None:
            return seat.user_id == self.user_id
        return bool(self.guest_key) and seat.guest_key == self.guest_key and seat.user_id is None

    def current(self) -> Who:
        """This person as the database says now: an account's name and staff flag
        read from its row (a socket's Who was built when it opened; the account
        may have been renamed or deleted since). A gone or inactive account
        cannot act under its old name (TableError "name_required")."""
        if self.user_id is None:
            return self
        from django.contrib.auth import get_user_model

        from games.protocol import TableError

        row = (get_user_model().objects.filter(pk=self.user_id, is_active=True)
               .values_list("username", "is_staff").first())
        if row is None:
            raise TableError("name_required")
        return replace(self, name=row[0], is_staff=bool(row[1]))

    @classmethod
    def from_user_and_session(cls, user: Any, session: Any) -> Who:
        """A named guest without an identity yet gets one in ``session`` (the
        caller saves it: the session middleware for a request)."""
        from ludo.accounts import GUEST_NAME_KEY
        from ludo.guests import guest_id

        if user is not None and getattr(user, "is_authenticated", False):
            return cls(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))
        if session is None:
            return cls()
        name = session.get(GUEST_NAME_KEY) or ""
        key = guest_id(session, create=bool(name))
        return cls(guest_key=key, name=name if key else "")

    @classmethod
    def from_request(cls, request: Any) -> Who:
        return cls.from_user_and_session(getattr(request, "user", None), getattr(request, "session", None))

    @classmethod
    def from_scope(cls, scope: Any) -> Who:
        """Reads the session (and saves a new guest identity in it): call it where
        the ORM may be used (a sync thread)."""
        session = scope.get("session")
        who = cls.from_user_and_session(scope.get("user"), session)
        if getattr(session, "modified", False) and getattr(session, "session_key", None):
            session.save()
        return who


SYSTEM = Who(name="system")
