"""The shelf check (récolement): a host walks the shelves and scans each box's
label; each scan says at once whether the box stands where the catalogue says.

One function per action, each in a transaction; a refusal is a ``BoxError``
with the reason, and changes nothing.

- :func:`start`: a check of the whole library or of some shelves (``scope``).
- :func:`scan`: a box seen on the shelf the host stands at. One row per box
  and check: a second scan of the same box is the same sighting (the last
  shelf wins); two phones scanning the same box at once make one row (the
  unique constraint, then an update). What is no label of the house is kept
  as an unknown label.
- :func:`correct`: a box found on the wrong shelf: the catalogue's shelf moved
  to where it was found, or the box put back (the catalogue kept). One
  conditional UPDATE of the scan claims it: of two hosts tapping at once, one
  correction is made and recorded.
- :func:`mark_missing`: a box expected and not seen goes into quarantine (the
  catalogue's status that takes it out of the sessions), recorded with the
  status it had; scanning it later in the check puts it back on the shelf.
- :func:`finish`: the check becomes a record, read only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from boxes import labels
from boxes.errors import BoxError
from boxes.models import ShelfCheck, ShelfCorrection, ShelfScan, UnknownLabel
from catalog.shelves.models import Copy

_AISLE = re.compile(r"^[A-Z]{1,3}$")
_SHELF = re.compile(r"^[A-Z]{1,3}[0-9]{1,3}$")
MOST_PARTS = 30  # shelves or aisles named in one check


# -- where a check looks -----------------------------------------------------------------------

def parse_scope(text: str) -> list[str]:
    """Aisles ("D") and shelves ("E12") from what a host typed ("d, e12"), in order, once each."""
    parts: list[str] = []
    for raw in re.split(r"[\s,;]+", (text or "").upper()):
        part = raw.rstrip("#")
        if not part:
            continue
        if not (_AISLE.match(part) or _SHELF.match(part)):
            raise BoxError(_("“%(part)s” is neither an aisle (D) nor a shelf (D5).") % {"part": raw[:12]})
        if part not in parts:
            parts.append(part)
    if len(parts) > MOST_PARTS:
        raise BoxError(_("At most %(n)d shelves or aisles in one check.") % {"n": MOST_PARTS})
    return parts


def scope_filter(scope: str, field: str = "shelf") -> Q:
    """The copies a check of ``scope`` expects (every copy when it is empty).
    An aisle is every shelf of its letters (D: D1, D5#, not DA1); a shelf is
    itself and the boxes hidden behind it (D5: D5 and D5#)."""
    q = Q()
    for part in scope.split():
        if _AISLE.match(part):
            q |= Q(**{f"{field}__regex": rf"^{part}[0-9]"})
        else:
            q |= Q(**{f"{field}__in": [part, part + "#"]})
    return q


def in_scope(scope: str, shelf: str) -> bool:
    parts = scope.split()
    return not parts or any(shelf == p or (_AISLE.match(p) and re.match(rf"^{p}[0-9]", shelf)) for p in parts)


def standing_shelf(check: ShelfCheck, raw: str) -> str:
    """The shelf a host says they stand at, checked: a shelf code within the check."""
    shelf = (raw or "").strip().upper().rstrip("#")
    if not _SHELF.match(shelf):
        raise BoxError(_("Say which shelf you stand at, such as D5."))
    if not in_scope(check.scope, shelf):
        raise BoxError(_("Shelf %(shelf)s is not part of this check (%(scope)s).") % {
            "shelf": shelf, "scope": check.scope})
    return shelf


def base(shelf: str) -> str:
    """A copy's shelf as the host stands at it: D5# (hidden behind) is on D5."""
    return shelf.rstrip("#")


def expected(check: ShelfCheck):
    """The boxes the check expects to see: on its shelves, and on the shelf (not
    lent, being played or in quarantine)."""
    return Copy.objects.filter(scope_filter(check.scope), status=Copy.Status.AVAILABLE)


# -- actions ------------------------------------------------------------------------------------

@transaction.atomic
def start(user, scope_text: str, *, now: datetime | None = None) -> ShelfCheck:
    scope = " ".join(parse_scope(scope_text))
    return ShelfCheck.objects.create(scope=scope, started_by=user, started_at=now or timezone.now())


def _open(check_id: int) -> ShelfCheck:
    check = ShelfCheck.objects.filter(pk=check_id).first()
    if check is None:
        raise BoxError(_("No such shelf check."))
    if check.finished:
        raise BoxError(_("This shelf check is finished: start a new one."))
    return check


@dataclass
class Verdict:
    """What a scan answers, at once and in plain words."""

    kind: str  # "ok", "misplaced" or "unknown"
    message: str
    shelf: str
    title: str = ""
    belongs: str = ""
    copy_id: int | None = None
    again: bool = False
    note: str = ""
    tally: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"kind": self.kind, "message": self.message, "shelf": self.shelf, "title": self.title,
                "belongs": self.belongs, "copy": self.copy_id, "again": self.again, "note": self.note,
                "tally": self.tally}


def tally(check: ShelfCheck, shelf: str) -> dict:
    """Seen / expected on one shelf: the boxes of that shelf seen there, of those it should hold
    (a box the catalogue says is away, found there, is seen but not counted: never "2 of 1")."""
    here = [shelf, shelf + "#"]
    expected_here = expected(check).filter(shelf__in=here).count()
    seen_here = ShelfScan.objects.filter(walk=check, shelf=shelf, copy__shelf__in=here,
                                         copy__status=Copy.Status.AVAILABLE).count()
    return {"shelf": shelf, "seen": seen_here, "expected": expected_here}


@transaction.atomic
def scan(check_id: int, user, text: str, shelf: str, *, typed: bool = True,
         now: datetime | None = None) -> Verdict:
    """``text`` as the camera read it, or as the host ``typed`` it (then a box number will do)."""
    now = now or timezone.now()
    check = _open(check_id)
    shelf = standing_shelf(check, shelf)
    if not (text or "").strip():
        raise BoxError(_("Nothing was read: scan a label or type a box number."))
    reading = labels.read(text, typed)
    if reading.copy is None:
        _keep_unknown(check, reading, shelf, user, now)
        return Verdict("unknown", _("Unknown label"), shelf, note=reading.reason, tally=tally(check, shelf))
    copy = _lock(reading.copy.pk)
    if copy is None:  # removed from the catalogue this very moment
        raise BoxError(_("No box number %(n)s in the catalogue.") % {"n": reading.copy.pk})
    again = _sighting(check, copy, shelf, user, now)
    note = _back_from_missing(check, copy)
    if base(copy.shelf) == shelf:
        kind, message = "ok", _("%(shelf)s ✓") % {"shelf": copy.shelf}
    else:
        kind, message = "misplaced", _("Belongs in %(shelf)s") % {"shelf": copy.shelf}
    return Verdict(kind, message, shelf, title=copy.game.display_title, belongs=copy.shelf, copy_id=copy.pk,
                   again=again, note=note, tally=tally(check, shelf))


def _lock(copy_id: int) -> Copy | None:
    """The box, locked for the rest of the transaction: a scan, a correction and a
    "mark missing" of one box take it first, so each sees what the other did (a
    sighting not yet committed was missed by a tap on "mark missing", which then
    put a box just seen into quarantine)."""
    locked = Copy.objects.select_for_update(no_key=True, of=("self",))
    return locked.select_related("game").filter(pk=copy_id).first()


def _sighting(check: ShelfCheck, copy: Copy, shelf: str, user, now: datetime) -> bool:
    """Record that ``copy`` was seen on ``shelf``; True when it had been seen before in this check."""
    row = ShelfScan.objects.filter(walk=check, copy=copy).first()
    if row is None:
        try:
            with transaction.atomic():
                ShelfScan.objects.create(walk=check, copy=copy, shelf=shelf, scanned_at=now, scanned_by=user)
            return False
        except IntegrityError:  # another phone scanned it this very moment: one sighting
            row = ShelfScan.objects.get(walk=check, copy=copy)
    changes = {"scanned_at": now, "scanned_by": user, "times": F("times") + 1}
    if row.shelf != shelf:
        changes.update(shelf=shelf, resolution=ShelfScan.Resolution.NONE)  # seen elsewhere: judged anew
    ShelfScan.objects.filter(pk=row.pk).update(**changes)
    return True


def _keep_unknown(check: ShelfCheck, reading: labels.Reading, shelf: str, user, now: datetime) -> None:
    text = reading.text[:300]
    fields = {"why": reading.why, "why_args": reading.args, "reason": "", "shelf": shelf, "scanned_at": now,
              "scanned_by": user}
    if UnknownLabel.objects.filter(walk=check, text=text).update(**fields):
        return
    try:
        with transaction.atomic():
            UnknownLabel.objects.create(walk=check, text=text, **fields)
    except IntegrityError:  # the same unknown code from two phones at once
        UnknownLabel.objects.filter(walk=check, text=text).update(**fields)


def _back_from_missing(check: ShelfCheck, copy: Copy) -> str:
    """A box this check marked missing is seen after all: back to the status it had."""
    marked = ShelfCorrection.objects.filter(walk=check, copy=copy, kind=ShelfCorrection.Kind.MISSING).first()
    if marked is None:
        return ""
    back = Copy.objects.filter(pk=copy.pk, status=Copy.Status.QUARANTINE).update(
        status=marked.status_before or Copy.Status.AVAILABLE)
    marked.delete()
    return _("It had been marked missing: it is back on the shelf.") if back else ""


@transaction.atomic
def correct(check_id: int, user, copy_id: int, action: str, *, now: datetime | None = None) -> ShelfCorrection:
    """Settle a box found on the wrong shelf: ``move`` the catalogue's shelf to where
    it was found, or ``put_back`` (the box goes back, the catalogue is kept)."""
    if action not in ("move", "put_back"):
        raise BoxError(_("Move the catalogue's shelf or put the box back."))
    check = _open(check_id)
    _lock(copy_id)
    row = ShelfScan.objects.filter(walk=check, copy_id=copy_id).select_related("copy").first()
    if row is None:
        raise BoxError(_("This box was not seen in this check."))
    copy = row.copy
    if row.resolution:
        raise BoxError(_("This box was already corrected."))
    if base(copy.shelf) == row.shelf:
        raise BoxError(_("This box stands where the catalogue says."))
    kind = ShelfCorrection.Kind.MOVED if action == "move" else ShelfCorrection.Kind.PUT_BACK
    if not ShelfScan.objects.filter(pk=row.pk, shelf=row.shelf, resolution="").update(resolution=kind):
        raise BoxError(_("This box was already corrected."))
    after = row.shelf if action == "move" else copy.shelf
    if action == "move":
        Copy.objects.filter(pk=copy.pk).update(shelf=after)
    return ShelfCorrection.objects.create(walk=check, copy=copy, kind=kind, shelf_before=copy.shelf,
                                          shelf_after=after, made_by=user, made_at=now or timezone.now())


@transaction.atomic
def mark_missing(check_id: int, user, copy_id: int, *, now: datetime | None = None) -> ShelfCorrection:
    """A box the check expected and did not see: into quarantine, with its status kept."""
    check = _open(check_id)
    copy = expected(check).select_for_update(no_key=True).filter(pk=copy_id).first()  # locked as _lock does
    if copy is None:
        raise BoxError(_("This box is not expected on these shelves, or is already away."))
    if ShelfScan.objects.filter(walk=check, copy=copy).exists():
        raise BoxError(_("This box was seen in this check."))
    if not Copy.objects.filter(pk=copy.pk, status=copy.status).update(status=Copy.Status.QUARANTINE):
        raise BoxError(_("This box's status just changed: look again."))
    return ShelfCorrection.objects.create(walk=check, copy=copy, kind=ShelfCorrection.Kind.MISSING,
                                          shelf_before=copy.shelf, shelf_after=copy.shelf,
                                          status_before=copy.status, made_by=user, made_at=now or timezone.now())


@transaction.atomic
def finish(check_id: int, user, *, now: datetime | None = None) -> ShelfCheck:
    check = _open(check_id)
    ShelfCheck.objects.filter(pk=check.pk, state=ShelfCheck.State.IN_PROGRESS).update(
        state=ShelfCheck.State.FINISHED, finished_by=user, finished_at=now or timezone.now())
    check.refresh_from_db()
    return check
