"""What a shelf check found: boxes not seen, boxes on the wrong shelf, unknown
labels, and the corrections made. A handful of queries whatever the library's
size: counts in the database, and only the rows shown fetched, with the few
columns the page shows (the boxes not seen are put in shelf order, A2 before
A10, from the count of boxes per shelf: a few hundred rows, not thousands)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, Q, Value
from django.db.models.functions import Concat

from boxes.models import ShelfCheck, ShelfCorrection, ShelfScan, UnknownLabel
from boxes.shelfcheck import expected, scope_filter
from catalog.shelves.labels import shelf_key
from catalog.shelves.models import Copy

SHOWN = 50  # rows of each list on the page (a phone shows ten); a shelf (?rayon=D5) narrows them


@dataclass
class Report:
    check: ShelfCheck
    expected: int = 0
    scanned: int = 0  # every box seen, expected here or not
    not_seen: int = 0
    misplaced: int = 0
    unknown: int = 0
    away: int = 0
    not_seen_rows: list = field(default_factory=list)
    misplaced_rows: list = field(default_factory=list)
    unknown_rows: list = field(default_factory=list)
    corrections: list = field(default_factory=list)

    @property
    def seen(self) -> int:
        """The expected boxes that were seen (where they belong or not)."""
        return self.expected - self.not_seen


def misplaced_q() -> Q:
    """A scan of a box on a shelf that is not the catalogue's (D5# is on D5)."""
    return ~Q(copy__shelf=F("shelf")) & ~Q(copy__shelf=Concat(F("shelf"), Value("#")))


def report(check: ShelfCheck, shelf: str = "", shown: int = SHOWN) -> Report:
    scans = ShelfScan.objects.filter(walk=check)
    waiting = expected(check).exclude(id__in=scans.values("copy_id"))
    wrong = scans.filter(misplaced_q(), resolution="")
    unknown = UnknownLabel.objects.filter(walk=check)
    on_shelf = Q(status=Copy.Status.AVAILABLE)
    copies = Copy.objects.filter(scope_filter(check.scope)).aggregate(
        expected=Count("id", filter=on_shelf), away=Count("id", filter=~on_shelf))
    seen = scans.aggregate(scanned=Count("id"), misplaced=Count("id", filter=misplaced_q() & Q(resolution="")))
    per_shelf = dict(waiting.order_by().values_list("shelf").annotate(n=Count("id")))  # boxes not seen, by shelf
    result = Report(check, expected=copies["expected"], away=copies["away"], scanned=seen["scanned"],
                    misplaced=seen["misplaced"], not_seen=sum(per_shelf.values()), unknown=unknown.count())
    if shelf:
        waiting = waiting.filter(shelf__startswith=shelf)
        per_shelf = {s: n for s, n in per_shelf.items() if s.startswith(shelf)}
        wrong = wrong.filter(Q(shelf__startswith=shelf) | Q(copy__shelf__startswith=shelf))
        unknown = unknown.filter(shelf__startswith=shelf)
    result.not_seen_rows = first_in_shelf_order(waiting.select_related("game").only("shelf", *_game("game")),
                                                per_shelf, shown)
    shown_wrong = wrong.select_related("copy__game").only("shelf", "copy_id", "copy__shelf", *_game("copy__game"))
    if result.misplaced > shown or shelf:  # the first ones by where they were seen, as for the boxes not seen
        wrong_per_shelf = dict(wrong.order_by().values_list("shelf").annotate(n=Count("id")))
        result.misplaced_rows = first_in_shelf_order(shown_wrong, wrong_per_shelf, shown, then="copy_id")
    else:  # all of them
        result.misplaced_rows = sorted(shown_wrong, key=lambda s: (shelf_key(s.shelf), s.copy_id))
    result.unknown_rows = list(unknown[:shown])
    result.corrections = list(ShelfCorrection.objects.filter(walk=check).select_related("copy__game", "made_by")
                              .only("kind", "shelf_before", "shelf_after", "made_at", "made_by__username",
                                    *_game("copy__game"))[:shown])
    return result


def _game(path: str) -> list[str]:
    """The columns of a game a list shows: its titles (``display_title``)."""
    return [f"{path}__{name}" for name in ("title", "title_fr", "title_de", "title_en")]


def first_in_shelf_order(rows, per_shelf: dict[str, int], shown: int, then: str = "id") -> list:
    """The first ``shown`` of ``rows`` (copies, or scans by where they were seen) in
    shelf order (A2 before A10, D5 before D5#), by ``then`` on a shelf: the shelves
    sorted from their counts (``per_shelf``), then only the rows of the first
    shelves read."""
    wanted, total = [], 0
    for shelf in sorted(per_shelf, key=shelf_key):
        if total >= shown:
            break
        wanted.append(shelf)
        total += per_shelf[shelf]
    return sorted(rows.filter(shelf__in=wanted), key=lambda r: (shelf_key(r.shelf), getattr(r, then)))[:shown]
