"""Worker bulkheads for the sessions' emails (issue 29, finding 2): an outbox
row that cannot be built (its stored data cut short, a kind this version no
longer knows) or cannot even be claimed (a row that cannot be written) never
keeps the other bookings' emails from going out; it is set aside for a host
after LUDO_WORKER_ROW_FAILURES tries, and logged once per failure."""

from __future__ import annotations

import logging

import pytest
from django.core import mail

from games.bookings import jobs, services
from games.bookings.outbox import OutgoingEmail
from ludo import worker
from ludo.bulkheads.models import JobFailure
from tests.bookings.conftest import guest
from tests.ludo.poison import failures_logged, unloadable_json, unwritable_row

pytestmark = [pytest.mark.django_db(transaction=True)]
ROUNDS = 3


@pytest.fixture(autouse=True)
def quick(settings):
    settings.LUDO_WORKER_ROW_FAILURES = ROUNDS
    settings.LUDO_WORKER_ROW_RETRY_SECONDS = 0


def send_round(unwritable: int) -> None:
    # The outbox's own pause after a failure (a minute, doubling) is the mail
    # server's; here every row is due again at each round.
    OutgoingEmail.objects.filter(status=OutgoingEmail.Status.QUEUED).exclude(pk=unwritable).update(
        next_attempt_at="2000-01-01T00:00Z")
    worker.run_once(["bookings.emails"])


def test_the_other_bookings_emails_go_out_around_rows_that_cannot_be_sent(soon, alice, caplog):
    caplog.set_level(logging.INFO, logger="ludo.worker")
    session = soon()
    bookings = [services.book(session.pk, seats=1, **guest(n)) for n in range(5)]
    rows = list(OutgoingEmail.objects.order_by("id"))
    assert len(rows) == 5
    cut_short, unknown_kind, unwritable = rows[0], rows[1], rows[2]
    unloadable_json(OutgoingEmail, cut_short.pk, "extra")
    OutgoingEmail.objects.filter(pk=unknown_kind.pk).update(kind="retired_kind")
    with unwritable_row(OutgoingEmail, unwritable.pk):
        for _ in range(ROUNDS + 1):
            send_round(unwritable.pk)
    sent = {m.to[0] for m in mail.outbox}
    assert sent == {bookings[3].email, bookings[4].email}
    for row in (cut_short, unknown_kind, unwritable):
        record = JobFailure.objects.get(job="bookings.emails", row=str(row.pk))
        assert record.set_aside and record.failures == ROUNDS
        lines = failures_logged(caplog, f"bookings.outgoingemail {row.pk}")
        assert len(lines) == ROUNDS + 1 and [bool(r.exc_info) for r in lines] == [True] + [False] * ROUNDS
    # The lane sleeps: the rows set aside do not make it spin on their due time.
    assert jobs.send_emails() > 0
