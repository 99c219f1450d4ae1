"""Several hosts' phones in one shelf check at the same moment, each request
in its own thread and database connection: the same box scanned by six
phones is one sighting; six taps on the same correction make one correction
(and one record), the others are told; six "mark missing" taps, one."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db.models.signals import post_save

from boxes import shelfcheck
from boxes.errors import BoxError
from boxes.models import ShelfCorrection, ShelfScan
from catalog.shelves import services as shelves
from catalog.shelves.models import Copy
from tests.bookings.conftest import shared_database  # noqa: F401 (a fixture)
from tests.boxes.conftest import game
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 6


@pytest.fixture
def hosts(db):
    from ludo.accounts import create_staff_account

    return [create_staff_account(f"host{n}", f"host{n}@example.org", "a long password 1234").pk
            for n in range(PHONES)]


def host(pk):
    return get_user_model().objects.get(pk=pk)


def test_six_phones_scanning_one_box_at_once_make_one_sighting(shared_database, hosts, box):  # noqa: F811
    check = shelfcheck.start(host(hosts[0]), "D")
    results = race([lambda h=h: shelfcheck.scan(check.pk, host(h), str(box.pk), "D5").kind for h in hosts],
                   BoxError, told=lambda exc: (str(exc),))
    assert results == [("ok", "ok")] * PHONES, results
    row = ShelfScan.objects.get()
    assert (row.copy_id, row.shelf, row.times) == (box.pk, "D5", PHONES)


def test_six_taps_on_one_correction_make_one(shared_database, hosts, box):  # noqa: F811
    stray = shelves.add_copy(game("Karo", "karo"), "C2")
    check = shelfcheck.start(host(hosts[0]), "D")
    shelfcheck.scan(check.pk, host(hosts[0]), str(stray.pk), "D5")
    results = race([lambda h=h: shelfcheck.correct(check.pk, host(h), stray.pk, "move").kind for h in hosts],
                   BoxError, told=lambda exc: (str(exc),))
    assert not [r for r in results if r[0] == "crashed"], results
    assert sorted(r[0] for r in results) == ["ok"] + ["refused"] * (PHONES - 1)
    assert ShelfCorrection.objects.get().shelf_after == "D5"
    assert Copy.objects.get(pk=stray.pk).shelf == "D5"


def test_six_taps_on_mark_missing_make_one(shared_database, hosts, box):  # noqa: F811
    check = shelfcheck.start(host(hosts[0]), "D")
    results = race([lambda h=h: shelfcheck.mark_missing(check.pk, host(h), box.pk).kind for h in hosts],
                   BoxError, told=lambda exc: (str(exc),))
    assert not [r for r in results if r[0] == "crashed"], results
    assert sorted(r[0] for r in results) == ["ok"] + ["refused"] * (PHONES - 1)
    correction = ShelfCorrection.objects.get()
    assert (correction.kind, correction.status_before) == ("missing", "available")
    assert Copy.objects.get(pk=box.pk).status == Copy.Status.QUARANTINE


def test_a_box_scanned_while_another_host_marks_it_missing_is_not_left_in_quarantine(
        shared_database, hosts, box):  # noqa: F811
    """One phone scans the box while another host taps "mark missing" for it: the
    scan has recorded its sighting but not committed when the other looks for one.
    Whichever way they meet, the box seen on its shelf must not end in quarantine
    (on PostgreSQL the host's tap used to miss the uncommitted sighting, and the
    scan the uncommitted quarantine: a box seen, yet taken out of the sessions)."""
    check = shelfcheck.start(host(hosts[0]), "D")
    sighted, marking, scanned = threading.Event(), threading.Event(), threading.Event()

    def scan_seen(sender, instance, created, **kwargs):  # the scan, its sighting written
        if created:
            sighted.set()
            marking.wait(3)  # the other host's tap, if it can go on meanwhile, goes first

    def missing_written(sender, instance, created, **kwargs):  # the tap, its quarantine written
        if created and instance.kind == ShelfCorrection.Kind.MISSING:
            marking.set()
            scanned.wait(3)  # the scan goes on and commits before the tap does

    def scan():
        try:
            return shelfcheck.scan(check.pk, host(hosts[0]), str(box.pk), "D5").kind
        finally:
            scanned.set()

    def mark():
        sighted.wait(10)
        return shelfcheck.mark_missing(check.pk, host(hosts[1]), box.pk).kind

    post_save.connect(scan_seen, sender=ShelfScan)
    post_save.connect(missing_written, sender=ShelfCorrection)
    try:
        results = race([scan, mark], BoxError, told=lambda exc: (str(exc),))
    finally:
        post_save.disconnect(scan_seen, sender=ShelfScan)
        post_save.disconnect(missing_written, sender=ShelfCorrection)
    assert not [r for r in results if r[0] == "crashed"], results
    assert results[0] == ("ok", "ok"), results
    assert ShelfScan.objects.filter(copy=box).exists()
    assert Copy.objects.get(pk=box.pk).status == Copy.Status.AVAILABLE, results
    assert not ShelfCorrection.objects.exists()
