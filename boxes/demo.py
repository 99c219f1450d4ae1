"""Demo contents: the five playable games' contents from their rulebooks
(boxes/data/contents.csv; Drumlin, Drekki, and the Karo box with its three games),
and, on the Drumlin box, a session it was set aside for and a count after it that
found a violet piece short; a shelf check of aisle D in progress: a few boxes
seen where they belong, the Karo box found on D5 (its shelf is K2#), and a label
of another library's. Idempotent: a second run adds nothing."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from boxes import counting, csvimport, shelfcheck, status
from boxes.models import ContentItem, Count, ShelfCheck
from catalog.shelves.models import Copy

CONTENTS = Path(__file__).parent / "data" / "contents.csv"


def load(stdout, host=None) -> None:
    if host is None:
        from django.contrib.auth import get_user_model

        host = get_user_model().objects.filter(is_staff=True, is_active=True).order_by("id").first()
    if not ContentItem.objects.filter(game__slug="drumlin").exists():
        stdout.write(csvimport.import_file(CONTENTS).summary())
    _count_with_a_shortfall(stdout, host)
    _shelf_check_in_progress(stdout, host)


@transaction.atomic
def _count_with_a_shortfall(stdout, host) -> None:
    copy = Copy.objects.filter(game__slug="drumlin").order_by("id").first()
    if copy is None or Count.objects.filter(copy=copy).exists():
        return
    from games.bookings.models import CopyReservation, Session

    now = timezone.now()
    start = (now - timedelta(days=2)).replace(hour=19, minute=0, second=0, microsecond=0)
    session = Session.objects.create(title="Soirée Drumlin", starts_at=start, ends_at=start + timedelta(hours=3),
                                     capacity=6, host=host)
    session.games.set([copy.game])
    from games.bookings import services as bookings

    for n, name in enumerate(["Ana", "Ben", "Chloé"]):  # booked the day before
        bookings.book(session.pk, name=name, email=f"demo-guest{n}@ludo.invalid", seats=1,
                      now=start - timedelta(days=1))
    CopyReservation.objects.create(session=session, copy=copy, created_by=host)
    state = counting.begin(copy)
    found = {line.label: counting.Found(line.quantity) for line in counting.contents.contents_of(copy)}
    found["pièces violettes"] = counting.Found(11, "sous la table ?")
    counting.record_count(copy, host, state.version, found, now=now - timedelta(days=1))
    status.refresh(copy)
    stdout.write("boxes: the Drumlin box counted after its session, a violet piece short")


@transaction.atomic
def _shelf_check_in_progress(stdout, host) -> None:
    drumlin = Copy.objects.filter(game__slug="drumlin").order_by("id").first()
    karo = Copy.objects.filter(game__slug="karo").order_by("id").first()
    if drumlin is None or karo is None or ShelfCheck.objects.exists():
        return
    aisle = drumlin.shelf.rstrip("#0123456789")
    check = shelfcheck.start(host, aisle, now=timezone.now() - timedelta(minutes=20))
    on_its_shelf = Copy.objects.filter(shelfcheck.scope_filter(aisle)).exclude(pk=drumlin.pk).order_by("id")[:4]
    for copy in [drumlin, *on_its_shelf]:
        shelfcheck.scan(check.pk, host, str(copy.pk), shelfcheck.base(copy.shelf))
    shelfcheck.scan(check.pk, host, str(karo.pk), shelfcheck.base(drumlin.shelf))  # on the wrong shelf
    shelfcheck.scan(check.pk, host, "https://ludotheque-voisine.example/pret?exemplaire=7",
                    shelfcheck.base(drumlin.shelf))
    stdout.write(f"boxes: a shelf check of aisle {aisle} in progress, the Karo box found on {drumlin.shelf}")
