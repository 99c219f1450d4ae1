"""A count of one copy: what each item showed, who counted, when.

The page carries the box's version; :func:`record_count` moves it on in one
conditional UPDATE (``version = v + 1 WHERE version = v``), the first statement
of its transaction: of two hosts counting the same box at once, the first to
save wins, the other gets :class:`StaleCount` (who counted, when) and nothing of
theirs is written. On PostgreSQL the second UPDATE waits for the first's
transaction and then finds the version moved; on SQLite writes are serial.

Per item, with ``expected`` the full count, ``open`` the pieces already known
missing and ``found`` what the host counted:

- found below ``expected - open``: a new loss, a catalogue missing part and a
  shortfall traced to the sessions and plays since the last complete count;
- found above it: pieces came back, the open shortfalls shrink or close
  (newest first, the piece most likely the one just lost);
- found above ``expected``: a surplus, kept on the count's line.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from boxes import contents, status, tracing
from boxes.errors import BoxError, StaleCount
from boxes.models import BoxState, Count, CountLine, Shortfall, StrayPiece
from catalog.collection.models import Game
from catalog.shelves.models import Copy, MissingPart

SURPLUS_AT_MOST = 100  # more than this above the expected count is a typing slip


@dataclass(frozen=True)
class Found:
    found: int | None
    note: str = ""


def begin(copy: Copy) -> BoxState:
    """The box's state as a count begins (its version goes into the page)."""
    return status.state_of(copy)


def _check(lines: list[contents.Line], found: dict[str, Found]) -> dict[str, str]:
    errors = {}
    known = {line.label for line in lines}
    for label in found:
        if label not in known:
            errors[label] = _("“%(label)s” is not in this box's contents (they changed: reload the page)") % {"label": label}
    for line in lines:
        entry = found.get(line.label)
        if entry is None or entry.found is None:
            errors[line.label] = _("say how many are there")
        elif not isinstance(entry.found, int) or entry.found < 0:
            errors[line.label] = _("a count cannot be below zero")
        elif entry.found > line.quantity + SURPLUS_AT_MOST:
            errors[line.label] = _("%(found)d is far more than the %(expected)d the box holds: a typing slip?") % {
                "found": entry.found, "expected": line.quantity}
        elif len(entry.note) > 200:
            errors[line.label] = _("a note of at most 200 characters")
    return errors


@transaction.atomic
def record_count(copy: Copy, by, version: int, found: dict[str, Found] | None, *, note: str = "",
                 condition: str | None = None, now: datetime | None = None) -> Count:
    """Record a count (``found`` None: "all there", every item at its expected count).
    Raises BoxError (bad counts, per item) or StaleCount; either way nothing is written."""
    now = now or timezone.now()
    lines = contents.contents_of(copy)
    if not lines:
        raise BoxError(_("This box has no contents list yet: write it first."))
    if found is None:
        found = {line.label: Found(line.quantity) for line in lines}
    errors = _check(lines, found)
    if condition is not None and condition not in Copy.Condition.values:
        errors["condition"] = _("unknown condition")
    note = (note or "").strip()
    if len(note) > 1000:
        errors["note"] = _("a note of at most 1,000 characters")
    if errors:
        raise BoxError(_("Nothing was saved: check the items marked."), errors)
    state = status.state_of(copy)
    moved = BoxState.objects.filter(pk=copy.pk, version=version).update(
        version=F("version") + 1, counted_at=now, counted_by=by)
    if not moved:
        state.refresh_from_db()
        who = state.counted_by.get_username() if state.counted_by else _("another host")
        when = formats.time_format(timezone.localtime(state.counted_at), "H:i") if state.counted_at else "?"
        raise StaleCount(_("%(who)s counted this box at %(when)s, while you were counting: nothing of yours was "
                           "saved. Look at their count, then count again if needed.") % {"who": who, "when": when})
    condition = condition or copy.condition
    count = Count.objects.create(copy=copy, counted_by=by, counted_at=now, condition=condition, note=note)
    CountLine.objects.bulk_create([
        CountLine(count=count, group=line.group, label=line.label, expected=line.quantity,
                  found=found[line.label].found, note=found[line.label].note.strip())
        for line in lines
    ])
    if condition != copy.condition:
        Copy.objects.filter(pk=copy.pk).update(condition=condition)
        copy.condition = condition
    sessions = plays = None  # traced once, for every new loss of this count
    for line in lines:
        counted = found[line.label].found
        open_ = list(Shortfall.objects.select_for_update().filter(copy=copy, label=line.label, open=True)
                     .order_by("-id"))
        missing = sum(s.quantity for s in open_)
        believed = line.quantity - missing
        if counted < believed:
            if sessions is None:
                sessions = tracing.sessions_between(copy, state.complete_at, now)
                plays = tracing.plays_between(copy, state.complete_at, now)
            _lose(copy, line, believed - counted, count, by, state.complete_at, sessions, plays, now)
        elif counted > believed:
            _recover(open_, counted - believed, now)
    state = status.refresh(copy)
    count.complete = not state.incomplete
    if count.complete:
        count.save(update_fields=["complete"])
        BoxState.objects.filter(pk=copy.pk).update(complete_at=now)
    return count


def _lose(copy, line, quantity, count, by, since, sessions, plays, now) -> Shortfall:
    part = MissingPart.objects.create(copy=copy, description=f"{quantity} × {line.label}"[:300],
                                      reported_at=now, reported_by=by)
    shortfall = Shortfall.objects.create(part=part, copy=copy, label=line.label, quantity=quantity, count=count,
                                         blocking=line.essential, since=since)
    shortfall.sessions.set(sessions)
    shortfall.plays.set(plays)
    return shortfall


def _recover(open_: list[Shortfall], back: int, now: datetime) -> None:
    for shortfall in open_:
        if back <= 0:
            return
        taken = min(back, shortfall.quantity)
        back -= taken
        shortfall.quantity -= taken
        if shortfall.quantity == 0:
            shortfall.open = False
            MissingPart.objects.filter(pk=shortfall.part_id).update(found_at=now)
            shortfall.save(update_fields=["quantity", "open"])
        else:
            shortfall.save(update_fields=["quantity"])
            MissingPart.objects.filter(pk=shortfall.part_id).update(
                description=f"{shortfall.quantity} × {shortfall.label}"[:300])


def find_game(title: str) -> Game | None:
    """A game by its slug or one of its titles, exactly (case aside)."""
    title = " ".join((title or "").split())
    if not title:
        return None
    from django.db.models import Q

    matches = list(Game.objects.filter(Q(slug=title) | Q(title__iexact=title) | Q(title_fr__iexact=title)
                                       | Q(title_en__iexact=title) | Q(title_de__iexact=title))[:2])
    return matches[0] if len(matches) == 1 else None


@transaction.atomic
def record_stray(found_in: Copy | None, belongs_to: str, description: str, by) -> StrayPiece:
    """A piece found where it does not belong; ``belongs_to`` names its game."""
    description = " ".join((description or "").split())
    if not description:
        raise BoxError(_("Say what the piece is."))
    if len(description) > 300:
        raise BoxError(_("Describe the piece in at most 300 characters."))
    game = find_game(belongs_to)
    if game is None:
        raise BoxError(_("No game of the catalogue is called “%(title)s”: give its title as the catalogue "
                         "spells it.") % {"title": " ".join((belongs_to or "").split())[:80]})
    return StrayPiece.objects.create(found_in=found_in, belongs_to=game, description=description, found_by=by)


@transaction.atomic
def stray_returned(stray_id: int) -> StrayPiece:
    stray = StrayPiece.objects.select_for_update().get(pk=stray_id)
    if stray.returned_at is None:
        stray.returned_at = timezone.now()
        stray.save(update_fields=["returned_at"])
    return stray
