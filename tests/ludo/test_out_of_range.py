"""Out-of-range numbers and dates are a 4xx, never a 500, anywhere (issue 18, finding 9).

Walks every named URL of the project with huge, negative and garbage numbers
in its path and its query, as a superuser (past every permission check) and
anonymously, by GET and POST.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from games.routing import websocket_urlpatterns
from ludo.converters import NumberConverter

pytestmark = pytest.mark.django_db

SENTINEL = 7_654_321
HUGE = "9" * 23
PLACEHOLDERS = {"slug": "drumlin", "str": "approve", "path": "x"}
QUERIES = [
    {"page": HUGE}, {"page": "-1"}, {"since": HUGE}, {"since": "²"}, {"exemplaire": HUGE}, {"exemplaire": "²"},
    {"date": "99999-01-01"}, {"date": "0000-01-01"}, {"date": "2026-13-01"}, {"date": "9999-12-31"},
    {"date": "0001-01-01", "view": "month"}, {"number": HUGE}, {"pk": HUGE},
]


def _patterns(patterns, namespace=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _patterns(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", entry


def _converters(entry: URLPattern) -> dict:
    return getattr(entry.pattern, "converters", {})


def _urls() -> list[tuple[str, str]]:
    """(name, path) of every named URL that takes a number, with the number a sentinel."""
    out = []
    for name, entry in _patterns(get_resolver().url_patterns):
        converters = _converters(entry)
        if not any(isinstance(c, NumberConverter) for c in converters.values()):
            continue
        kwargs = {}
        for key, converter in converters.items():
            if isinstance(converter, NumberConverter):
                kwargs[key] = SENTINEL
            else:
                kwargs[key] = PLACEHOLDERS["slug" if converter.regex == "[-a-zA-Z0-9_]+" else "str"]
        if name.startswith("admin:"):
            continue
        out.append((name, reverse(name, kwargs=kwargs)))
    return out


def test_no_url_takes_an_unbounded_number():
    patterns = [entry for _, entry in _patterns(get_resolver().url_patterns) if not _.startswith("admin:")]
    patterns += list(websocket_urlpatterns)
    unbounded = [str(entry.pattern) for entry in patterns
                 if any(isinstance(c, IntConverter) for c in _converters(entry).values())]
    assert unbounded == []
    assert len(_urls()) > 30


def _walk(client, url: str) -> list[tuple[str, int]]:
    bad = []
    for value in (HUGE, str(10**17), "-1"):
        path = url.replace(str(SENTINEL), value)
        for method in (client.get, client.post):
            status = method(path).status_code
            if status >= 500:
                bad.append((method.__name__, path, status))
    return bad


def test_every_numbered_url_answers_4xx_to_huge_and_negative_numbers(client, admin_user):
    failures = []
    for who in ("anonymous", "superuser"):
        if who == "superuser":
            client.force_login(admin_user)
        for _name, url in _urls():
            failures += _walk(client, url)
    assert failures == []


def test_query_numbers_and_dates_out_of_range_are_4xx(client, admin_user):
    client.force_login(admin_user)
    failures = []
    for _name, url in _urls():
        url = url.replace(str(SENTINEL), "1")
        for query in QUERIES:
            status = client.get(url, query).status_code
            if status >= 500:
                failures.append((url, query, status))
    for path in ("/", "/catalogue/", reverse("bookings:calendar"), reverse("bookings:list"), "/api/tables/"):
        for query in QUERIES:
            status = client.get(path, query).status_code
            if status >= 500:
                failures.append((path, query, status))
    assert failures == []


def test_the_findings(client, admin_user):
    assert client.post("/api/tables/99999999999999999999999/join/").status_code == 404
    client.force_login(admin_user)
    calendar = reverse("bookings:calendar")
    for day in ("0000-01-01", "99999-01-01", "2026-13-01", "9999-12-31", "not-a-date"):
        for view in ("week", "month"):
            assert client.get(calendar, {"date": day, "view": view}).status_code == 400, day
    assert client.get(calendar, {"date": "2026-11-26", "view": "month"}).status_code == 200
