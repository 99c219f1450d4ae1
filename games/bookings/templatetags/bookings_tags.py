"""Wall-clock times at the house, said plainly (including the clock-change nights)."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.bookings import clock

register = template.Library()


@register.filter
def wallclock(value: datetime | None) -> str:
    """14:30, or 02:30 CEST / 02:30 CET the night that hour happens twice."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    text = date_format(local, "H:i")
    if clock.local_is_ambiguous(value, timezone.get_default_timezone()):
        text += f" {local.tzname()}"
    return text


@register.simple_tag
def session_when(session) -> str:
    """Friday 27 March 2026, 20:00–23:00 (the end date too when it is another day)."""
    start = timezone.localtime(session.starts_at)
    end = timezone.localtime(session.ends_at)
    day = date_format(start, "l j F Y")
    if end.date() == start.date():
        return f"{day}, {wallclock(session.starts_at)}–{wallclock(session.ends_at)}"
    return f"{day}, {wallclock(session.starts_at)} – {date_format(end, 'l j F')}, {wallclock(session.ends_at)}"


@register.simple_tag
def clock_note(session) -> str:
    """A warning when the clocks change during the session."""
    minutes = session.clock_change_minutes()
    if minutes > 0:
        return _("The clocks go forward one hour during this session (2:00 becomes 3:00): it lasts %(hours)s.") % {
            "hours": _hours(session)}
    if minutes < 0:
        return _("The clocks go back one hour during this session (3:00 becomes 2:00): it lasts %(hours)s.") % {
            "hours": _hours(session)}
    return ""


def _hours(session) -> str:
    total = int(session.duration.total_seconds() // 60)
    hours, minutes = divmod(total, 60)
    return f"{hours} h {minutes:02d}" if minutes else f"{hours} h"
