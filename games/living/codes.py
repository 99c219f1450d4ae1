"""Join codes: short, read aloud and typed on a phone without confusion, and
guessed only slowly.

Letters only, without the ones people mistake for each other or for digits
(I, L, O, Q, U, V, B, S, Z, G): 16 letters, 5 of them, about a million codes.
A code opens only a table that is open or in play, and every address may try
only ``TRIES`` codes per ``WINDOW`` seconds (``check_rate``): finding one live
table among a few hundred takes days of trying, not seconds.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest

from ludo import limits

ALPHABET = "ACDEFHJKMNPRTWXY"
LENGTH = 5
TRIES = 20
WINDOW = 300  # seconds


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(text: str) -> str:
    """What a person typed, as a code: upper case, spaces and dashes dropped."""
    return "".join(ch for ch in str(text).upper() if ch.isalnum())[:20]


def is_well_formed(code: str) -> bool:
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)


OPENED_KEY = "living_codes"  # the codes this browser has opened (its session)


def check_rate(request: HttpRequest, code: str) -> int | None:
    """Count one code lookup from the request's address (the site's shared limiter):
    None when allowed, else the seconds until the address may try again. A code this
    browser already opened is not counted again (the name form's POST, a phone coming
    back), so a household behind one address spends one lookup per phone."""
    if code in request.session.get(OPENED_KEY, []):
        return None
    verdict = limits.allow("living-code", limits.client_address(request) or "unknown", (TRIES, WINDOW))
    return None if verdict.allowed else verdict.retry_seconds


def remember_opened(request: HttpRequest, code: str) -> None:
    opened = [c for c in request.session.get(OPENED_KEY, []) if c != code][-9:]
    request.session[OPENED_KEY] = [*opened, code]
