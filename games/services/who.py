"""Who is asking: the person behind a request or a socket."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.models import ChatMessage, Connection, Seat


@dataclass(frozen=True)
class Who:
    """The person behind a request or a socket: an account, a guest session
    (with or without a display name), or nobody in particular."""

    user_id: int | None = None
    guest_key: str = ""
    name: str = ""
    is_staff: bool = False

    @property
    def can_sit(self) -> bool:
        return self.user_id is not None or bool(self.guest_key and self.name)

    def holds(self, seat: Seat | Connection | ChatMessage | None) -> bool:
        if seat is None:
            return False
        if self.user_id is not None:
            return seat.user_id == self.user_id
        return bool(self.guest_key) and seat.guest_key == self.guest_key and seat.user_id is None

    @classmethod
    def from_user_and_session(cls, user: Any, session: Any) -> Who:
        from ludo.accounts import GUEST_NAME_KEY

        if user is not None and getattr(user, "is_authenticated", False):
            return cls(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))
        if session is None:
            return cls()
        name = session.get(GUEST_NAME_KEY) or ""
        return cls(guest_key=session.session_key or "", name=name if session.session_key else "")

    @classmethod
    def from_request(cls, request: Any) -> Who:
        return cls.from_user_and_session(getattr(request, "user", None), getattr(request, "session", None))

    @classmethod
    def from_scope(cls, scope: Any) -> Who:
        """Reads the session: call it where the ORM may be used (a sync thread)."""
        return cls.from_user_and_session(scope.get("user"), scope.get("session"))


SYSTEM = Who(name="system")
