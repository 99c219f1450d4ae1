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
import time

from django.core.cache import cache
from django.http import HttpRequest

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


def client_address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def check_rate(request: HttpRequest, now: float | None = None) -> int | None:
    """Count one code lookup from the request's address: None when allowed, else
    the seconds until the address may try again. A fixed window per address in
    the cache (shared by the server processes when the cache is)."""
    now = time.time() if now is None else now
    window = int(now // WINDOW)
    key = f"living-code:{client_address(request)}:{window}"
    cache.add(key, 0, WINDOW + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, WINDOW + 5)
        count = 1
    if count > TRIES:
        return int((window + 1) * WINDOW - now) + 1
    return None
