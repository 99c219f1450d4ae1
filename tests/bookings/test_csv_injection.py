"""The bookings export escapes every text cell, addresses included (issue 18, finding 9)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.bookings import services

pytestmark = pytest.mark.django_db


def test_an_address_or_a_name_starting_with_a_formula_sign_is_escaped(client, alice, soon):
    client.force_login(alice)
    session = soon(capacity=4)
    services.book(session.pk, seats=1, name="@SUM(1+1)", email="=cmd@example.org")
    services.book(session.pk, seats=1, name="Zoë", email="-2+3@example.org")
    response = client.get(reverse("bookings:export_csv", args=[session.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[1][:3] == ["'@SUM(1+1)", "'=cmd@example.org", "1"]
    assert rows[2][:3] == ["Zoë", "'-2+3@example.org", "1"]
