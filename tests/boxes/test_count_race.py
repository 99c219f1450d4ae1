"""Hosts saving a count of the same box at the same moment, each from its own
thread and database connection, all from the same page version: exactly one
count is kept, every other host is told who counted, and nothing of theirs is
written (no second missing part, no second count)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from boxes import counting
from boxes.errors import StaleCount
from boxes.models import Count, CountLine, Shortfall
from catalog.shelves.models import MissingPart
from tests.bookings.conftest import shared_database  # noqa: F401 (a fixture)
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)

HOSTS = 6


def test_one_of_six_simultaneous_counts_wins(shared_database, box):  # noqa: F811
    from ludo.accounts import create_staff_account

    hosts = [create_staff_account(f"host{n}", f"host{n}@example.org", "a long password 1234") for n in range(HOSTS)]
    version = counting.begin(box).version

    def count(host):
        found = {"tablier de jeu": counting.Found(1), "pièces roses": counting.Found(12),
                 "pièces violettes": counting.Found(10), "Drumlin": counting.Found(1)}
        return counting.record_count(box, get_user_model().objects.get(pk=host.pk), version, found).pk

    results = race([lambda h=h: count(h) for h in hosts], StaleCount, told=lambda exc: (str(exc),))
    assert not [r for r in results if r[0] == "crashed"], results
    won = [r for r in results if r[0] == "ok"]
    told = [r for r in results if r[0] == "refused"]
    assert len(won) == 1 and len(told) == HOSTS - 1
    winner = Count.objects.get()
    assert all(r[1].startswith(f"{winner.counted_by.username} a compté cette boîte") for r in told)
    assert CountLine.objects.count() == 4
    assert MissingPart.objects.count() == 1 and Shortfall.objects.get().quantity == 2
