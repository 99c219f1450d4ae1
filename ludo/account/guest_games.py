"""A guest's finished games, carried into the account they create.

Someone plays as a guest (their seats name the guest identity kept in their session,
ludo.guests), then creates an account from the same browser: the finished games of
that identity become the account's (its profile, its account page). Only the session
doing the sign-up names the identity: nothing the visitor sends can name another one,
so another session's games cannot be claimed. It happens once: the seats lose the guest
identity as they gain the account, and the session forgets the identity.

Games still in play keep the guest identity: their sockets and clocks know the seat by
it until they end.
"""

from __future__ import annotations

from typing import Any

from games.services.adoption import adopt_guest_games
from ludo.guests import GUEST_ID_KEY


def carry_over(session: Any, user: Any) -> int:
    """Give ``user`` the finished games of the guest identity held in ``session`` (the
    sign-up's own session); forget that identity. Returns how many seats were carried."""
    key = session.get(GUEST_ID_KEY) or ""
    if not key.startswith("g:"):
        return 0
    carried, still_playing = adopt_guest_games(key, user)
    if not still_playing:
        # Nothing of the guest is left in play: the identity has served its time.
        session.pop(GUEST_ID_KEY, None)
    return carried
