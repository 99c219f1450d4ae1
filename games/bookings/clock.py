"""Wall-clock times at the house, and the nights the clocks change.

Pure Python (zoneinfo only). Sessions are stored as UTC instants; people think
in Paris wall-clock time. Twice a year a wall-clock time is not one instant:

- the last Sunday of March, 02:00-02:59 does not exist (clocks jump from 02:00
  to 03:00): :class:`NonExistentTime`;
- the last Sunday of October, 02:00-02:59 happens twice (first in summer time,
  CEST +02:00, then in winter time, CET +01:00): :class:`AmbiguousTime`, unless
  the caller says which one it means ("earlier" or "later").

Nothing here shifts a time by an hour without saying so: a caller either gets
the exact instant of the wall-clock time it asked for, or an error it must
handle (a form shows it, a recurring rule reports the date it skipped).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

PARIS = ZoneInfo("Europe/Paris")
Ambiguity = Literal["raise", "earlier", "later"]
MAX_OCCURRENCES = 200
MAX_SPAN_DAYS = 2 * 366


class LocalTimeError(ValueError):
    def __init__(self, day: date, at: time, message: str) -> None:
        super().__init__(message)
        self.day = day
        self.at = at


class NonExistentTime(LocalTimeError):
    """The wall-clock time falls in the hour skipped when clocks go forward."""

    def __init__(self, day: date, at: time) -> None:
        super().__init__(day, at, f"{day} {at:%H:%M} does not exist in this time zone (clocks go forward)")


class AmbiguousTime(LocalTimeError):
    """The wall-clock time happens twice, the night clocks go back."""

    def __init__(self, day: date, at: time) -> None:
        super().__init__(day, at, f"{day} {at:%H:%M} happens twice in this time zone (clocks go back)")


def _candidates(day: date, at: time, tz: ZoneInfo) -> tuple[datetime, datetime]:
    naive = datetime.combine(day, at.replace(tzinfo=None, fold=0))
    return naive.replace(tzinfo=tz, fold=0), naive.replace(tzinfo=tz, fold=1)


def exists(day: date, at: time, tz: ZoneInfo = PARIS) -> bool:
    first, _ = _candidates(day, at, tz)
    back = first.astimezone(UTC).astimezone(tz)
    return back.replace(tzinfo=None, fold=0) == first.replace(tzinfo=None)


def is_ambiguous(day: date, at: time, tz: ZoneInfo = PARIS) -> bool:
    first, second = _candidates(day, at, tz)
    return exists(day, at, tz) and first.utcoffset() != second.utcoffset()


def to_utc(day: date, at: time, tz: ZoneInfo = PARIS, ambiguous: Ambiguity = "raise") -> datetime:
    """The UTC instant of a wall-clock time, or an error saying why there is none.

    ``ambiguous`` decides the October night: "earlier" is the first 02:30
    (summer time), "later" the second (winter time); "raise" refuses to guess.
    """
    if not exists(day, at, tz):
        raise NonExistentTime(day, at)
    first, second = _candidates(day, at, tz)
    if first.utcoffset() != second.utcoffset():
        if ambiguous == "raise":
            raise AmbiguousTime(day, at)
        chosen = first if ambiguous == "earlier" else second
        return chosen.astimezone(UTC)
    return first.astimezone(UTC)


def local(instant: datetime, tz: ZoneInfo = PARIS) -> datetime:
    """The wall-clock time of an aware instant (``fold`` tells the two 02:30s apart)."""
    if instant.tzinfo is None:
        raise ValueError("a naive datetime is not an instant")
    return instant.astimezone(tz)


def local_is_ambiguous(instant: datetime, tz: ZoneInfo = PARIS) -> bool:
    """True when the wall-clock time of this instant also names another instant."""
    wall = local(instant, tz)
    return is_ambiguous(wall.date(), wall.time(), tz)


def offset_change(start: datetime, end: datetime, tz: ZoneInfo = PARIS) -> timedelta:
    """How far the clocks move between two instants (+1 h in March, -1 h in October, else 0)."""
    return local(end, tz).utcoffset() - local(start, tz).utcoffset()


@dataclass(frozen=True)
class Occurrence:
    """One date of a recurring rule. ``starts_at`` and ``ends_at`` are UTC, or
    None when the date was skipped; ``problem`` says what was special."""

    day: date
    starts_at: datetime | None
    ends_at: datetime | None
    problem: str = ""  # "", "start-missing", "end-missing", "start-twice", "end-twice"
    resolution: str = ""  # "", "skipped", "earlier", "later"

    @property
    def skipped(self) -> bool:
        return self.starts_at is None


def span(day: date, start: time, end: time, tz: ZoneInfo = PARIS,
         ambiguous: Ambiguity = "raise") -> tuple[datetime, datetime]:
    """The UTC instants of a session from ``start`` to ``end`` wall-clock on
    ``day``; an end at or before the start is on the next day (21:00-01:00)."""
    end_day = day if end > start else day + timedelta(days=1)
    return to_utc(day, start, tz, ambiguous), to_utc(end_day, end, tz, ambiguous)


def weekly(first: date, start: time, end: time, *, until: date | None = None, count: int | None = None,
           tz: ZoneInfo = PARIS, ambiguous: Literal["earlier", "later"] = "earlier") -> list[Occurrence]:
    """Every week from ``first`` (its weekday is the rule's), at the same
    wall-clock times, until a date (inclusive) or for ``count`` dates.

    A date whose start or end does not exist (the March night) is skipped and
    reported; a time that happens twice (the October night) takes the
    ``ambiguous`` one and is reported. Skipped dates count towards ``count``:
    the rule has that many dates, some of which may hold no session.
    """
    if (until is None) == (count is None):
        raise ValueError("give either an end date or a number of occurrences")
    if count is not None and not 1 <= count <= MAX_OCCURRENCES:
        raise ValueError(f"the number of occurrences must be 1 to {MAX_OCCURRENCES}")
    if until is not None:
        if until < first:
            raise ValueError("the end date is before the first date")
        if (until - first).days > MAX_SPAN_DAYS:
            raise ValueError("a recurring rule spans at most two years")
    if start == end:
        raise ValueError("a session cannot end when it starts")
    out: list[Occurrence] = []
    day = first
    while (count is not None and len(out) < count) or (until is not None and day <= until):
        end_day = day if end > start else day + timedelta(days=1)
        problem = resolution = ""
        if not exists(day, start, tz):
            problem, resolution = "start-missing", "skipped"
        elif not exists(end_day, end, tz):
            problem, resolution = "end-missing", "skipped"
        elif is_ambiguous(day, start, tz):
            problem, resolution = "start-twice", ambiguous
        elif is_ambiguous(end_day, end, tz):
            problem, resolution = "end-twice", ambiguous
        if resolution == "skipped":
            out.append(Occurrence(day, None, None, problem, resolution))
        else:
            begin, finish = span(day, start, end, tz, ambiguous)
            if finish <= begin:
                # 02:30 (second, winter) to 02:45 (first, summer) and such: no session.
                out.append(Occurrence(day, None, None, "end-before-start", "skipped"))
            else:
                out.append(Occurrence(day, begin, finish, problem, resolution))
        day += timedelta(days=7)
    return out
