"""The people a play form proposes: the one logging it, the people of the
booking or session it is logged for, and the people of their earlier plays.

A proposed person may carry an account: a player whose name is typed as
proposed gets that account. Only the people the author could see anyway are
proposed: the author, their own bookings, the players of their own earlier
plays; the names of the other bookings of a session only to the hosts (nobody
sees another's bookings).
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.playlog.models import Player
from catalog.playlog.rules import name_key
from catalog.playlog.services import Author
from games.bookings.models import Booking, Session

EARLIER = 30


@dataclass(frozen=True)
class Person:
    name: str
    user_id: int | None = None


def account_name(user) -> str:
    return (user.get_full_name() or user.get_username())[:60]


def proposed(author: Author, session: Session | None) -> list[Person]:
    """Distinct by folded name and by account, the first met kept: the booking's
    and the session's people (as booked), the author, then earlier players."""
    people = [Person(b.name, b.user_id) for b in _bookings(author, session)]
    if author.user is not None:
        people.append(Person(account_name(author.user), author.user.pk))
    earlier = Player.objects.none()
    if author.user is not None:
        earlier = Player.objects.filter(play__logged_by=author.user)
    elif author.booking is not None:
        earlier = Player.objects.filter(play__booking=author.booking)
    people += [Person(name, user_id) for name, user_id in
               earlier.order_by("-play__played_on", "-play_id", "position").values_list("name", "user_id")[:EARLIER * 4]]
    seen: set[str] = set()
    accounts: set[int] = set()
    distinct = []
    for person in people:
        key = name_key(person.name)
        if key and key not in seen and person.user_id not in accounts:
            seen.add(key)
            if person.user_id is not None:
                accounts.add(person.user_id)
            distinct.append(person)
    return distinct[:EARLIER + 15]


def _bookings(author: Author, session: Session | None) -> list[Booking]:
    """The bookings whose people the author may see: their own (the link's, or
    the account's confirmed ones in the session); for the hosts, every confirmed
    booking of the session (but those marked as not come)."""
    if author.booking is not None:
        return [author.booking]
    if session is None:
        return []
    bookings = session.bookings.filter(status=Booking.Status.CONFIRMED).exclude(attended=False)
    if not author.is_host:
        bookings = bookings.filter(user=author.user)
    return list(bookings.order_by("created_at", "id"))


def session_people(author: Author, session: Session | None) -> list[Person]:
    """Who the rows start with: each visible booking's name and as many empty
    seats as it holds beyond the first; else the one logging."""
    people: list[Person] = []
    for b in _bookings(author, session):
        people.append(Person(b.name, b.user_id))
        people += [Person("")] * (b.seats - 1)
    if not people and author.user is not None:
        people.append(Person(account_name(author.user), author.user.pk))
    return people


def account_for(name: str, people: list[Person]) -> int | None:
    """The account of the proposed person of that (folded) name, if exactly one."""
    key = name_key(name)
    found = {p.user_id for p in people if p.user_id is not None and name_key(p.name) == key}
    return found.pop() if len(found) == 1 else None
