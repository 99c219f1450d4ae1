"""Worker bulkhead for the text extraction of scans (issue 29, finding 2): the
oldest waiting document cannot be claimed (its row cannot be written, as a
damaged page would leave it); the scans uploaded after it are read all the
same, and it is set aside for a host after LUDO_WORKER_ROW_FAILURES tries."""

from __future__ import annotations

import pytest

from catalog.rulebooks import services
from catalog.rulebooks.models import Document
from catalog.rulebooks.uploads import Upload
from ludo import worker
from ludo.bulkheads.models import JobFailure
from tests.catalog.test_ocr import born_digital_pdf
from tests.ludo.poison import unwritable_row

pytestmark = [pytest.mark.django_db(transaction=True)]
ROUNDS = 3


def add(game, name: str) -> Document:
    return services.add_scanned_document(game, [Upload(name, born_digital_pdf("x" * 60))], title=name,
                                         language="fr")


def test_the_scans_after_one_that_cannot_be_claimed_are_read(drumlin, settings):
    settings.LUDO_WORKER_ROW_FAILURES = ROUNDS
    settings.LUDO_WORKER_ROW_RETRY_SECONDS = 0
    stuck, good = add(drumlin, "stuck.pdf"), add(drumlin, "good.pdf")
    with unwritable_row(Document, stuck.pk):
        for _ in range(ROUNDS + 2):
            worker.run_once(["catalog.extract_text"])
    good.refresh_from_db()
    stuck.refresh_from_db()
    assert good.status == Document.Status.DONE, good.status_error
    assert stuck.status == Document.Status.PENDING
    record = JobFailure.objects.get(job="catalog.extract_text", row=str(stuck.pk))
    assert record.set_aside and record.failures == ROUNDS and "disk fault" in record.error
