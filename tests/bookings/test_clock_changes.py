"""Sessions keep their wall-clock time at the house across the clock
changes, and the two nights a year a wall-clock time is not one instant are
handled out loud: a time that does not exist is refused (or, in a recurring
rule, that date is skipped and reported); a time that happens twice is
refused unless the host says which one."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import icalendar
import pytest
from django.template import Context, Template
from django.urls import reverse

from games.bookings import clock, emails, ics, services
from games.bookings.errors import BookingError
from tests.bookings.conftest import PARIS, at, guest, last_sunday

YEAR = 2031
SPRING = last_sunday(YEAR, 3)   # 2031-03-30: 02:00 -> 03:00
AUTUMN = last_sunday(YEAR, 10)  # 2031-10-26: 03:00 -> 02:00


def utc(*args):
    return datetime(*args, tzinfo=UTC)


def test_the_nights_are_the_right_ones():
    assert (SPRING, AUTUMN) == (date(2031, 3, 30), date(2031, 10, 26))


class TestWallClock:
    def test_a_time_in_the_skipped_hour_does_not_exist(self):
        assert not clock.exists(SPRING, time(2, 30), PARIS)
        with pytest.raises(clock.NonExistentTime):
            clock.to_utc(SPRING, time(2, 30), PARIS, ambiguous="earlier")

    def test_a_time_in_the_repeated_hour_needs_a_choice(self):
        assert clock.is_ambiguous(AUTUMN, time(2, 30), PARIS)
        with pytest.raises(clock.AmbiguousTime):
            clock.to_utc(AUTUMN, time(2, 30), PARIS)
        assert clock.to_utc(AUTUMN, time(2, 30), PARIS, "earlier") == utc(2031, 10, 26, 0, 30)
        assert clock.to_utc(AUTUMN, time(2, 30), PARIS, "later") == utc(2031, 10, 26, 1, 30)

    def test_ordinary_times_are_exact(self):
        assert clock.to_utc(SPRING, time(1, 59), PARIS) == utc(2031, 3, 30, 0, 59)
        assert clock.to_utc(SPRING, time(3, 0), PARIS) == utc(2031, 3, 30, 1, 0)
        assert clock.to_utc(date(2031, 7, 14), time(21, 0), PARIS) == utc(2031, 7, 14, 19, 0)


def test_a_session_on_the_spring_night_keeps_its_wall_clock_and_lasts_one_hour(alice):
    start, end = services.local_span(SPRING, time(1, 30), time(3, 30))
    assert (start, end) == (utc(2031, 3, 30, 0, 30), utc(2031, 3, 30, 1, 30))
    session = services.create_session(alice, starts_at=start, ends_at=end, capacity=6, title="Nuit blanche",
                                       now=at(date(2031, 3, 1), 12))
    session.refresh_from_db()
    assert (session.local_start.hour, session.local_start.minute) == (1, 30)
    assert (session.local_end.hour, session.local_end.minute) == (3, 30)
    assert session.duration == timedelta(hours=1)
    assert session.clock_change_minutes() == 60
    rendered = Template("{% load bookings_tags %}{% session_when s %}|{% clock_note s %}").render(Context({"s": session}))
    assert "01:30–03:30" in rendered and "1 h" in rendered


def test_a_session_on_the_autumn_night_keeps_its_wall_clock_and_lasts_three_hours(alice):
    start, end = services.local_span(AUTUMN, time(1, 30), time(3, 30))
    assert (start, end) == (utc(2031, 10, 25, 23, 30), utc(2031, 10, 26, 2, 30))
    session = services.create_session(alice, starts_at=start, ends_at=end, capacity=6, title="Nuit longue",
                                       now=at(date(2031, 10, 1), 12))
    assert session.duration == timedelta(hours=3)
    assert session.clock_change_minutes() == -60
    assert (session.local_start.hour, session.local_end.hour) == (1, 3)


def test_a_host_is_told_why_a_time_is_refused(db):
    with pytest.raises(BookingError) as exc:
        services.local_span(SPRING, time(2, 30), time(4, 0))
    assert exc.value.code == "time_missing" and "2031-03-30" in exc.value.message
    with pytest.raises(BookingError) as exc:
        services.local_span(AUTUMN, time(2, 30), time(4, 0))
    assert exc.value.code == "time_twice"
    assert services.local_span(AUTUMN, time(2, 30), time(4, 0), "later")[0] == utc(2031, 10, 26, 1, 30)


def test_the_two_0230s_are_told_apart_on_the_pages(alice):
    first = services.create_session(
        alice, starts_at=utc(2031, 10, 26, 0, 30), ends_at=utc(2031, 10, 26, 0, 45), capacity=2,
        now=at(date(2031, 10, 1), 12))
    second = services.create_session(
        alice, starts_at=utc(2031, 10, 26, 1, 30), ends_at=utc(2031, 10, 26, 1, 45), capacity=2,
        now=at(date(2031, 10, 1), 12))
    show = Template("{% load bookings_tags %}{{ s.starts_at|wallclock }}")
    assert show.render(Context({"s": first})) == "02:30 CEST"
    assert show.render(Context({"s": second})) == "02:30 CET"
    assert first.start_is_ambiguous() and second.start_is_ambiguous()


def test_the_ics_of_a_session_on_the_spring_night_has_the_right_instants(alice, mailoutbox, on_commit):
    start, end = services.local_span(SPRING, time(1, 30), time(3, 30))
    now = at(date(2031, 3, 1), 12)
    session = services.create_session(alice, starts_at=start, ends_at=end, capacity=6, now=now)
    booking = services.book(session.pk, seats=1, now=now, **guest(1))
    message = emails.build("confirmed", booking)
    cal = icalendar.Calendar.from_ical(message.attachments[0][1])
    [event] = cal.walk("VEVENT")
    assert event.decoded("dtstart") == utc(2031, 3, 30, 0, 30)
    assert event.decoded("dtend") == utc(2031, 3, 30, 1, 30)
    # Read back in Paris: 01:30 winter time to 03:30 summer time.
    assert event.decoded("dtstart").astimezone(PARIS).strftime("%H:%M %Z") == "01:30 CET"
    assert event.decoded("dtend").astimezone(PARIS).strftime("%H:%M %Z") == "03:30 CEST"
    assert "CET/CEST" in str(event["description"])


def test_the_reminder_keeps_the_wall_clock_across_a_change(alice):
    # Sunday 20:00 on the spring day: the reminder is Saturday 20:00, 23 hours before.
    start, end = services.local_span(SPRING, time(20, 0), time(23, 0))
    session = services.create_session(alice, starts_at=start, ends_at=end, capacity=6, now=at(date(2031, 3, 1), 12))
    assert session.remind_at.astimezone(PARIS).replace(tzinfo=None) == datetime(2031, 3, 29, 20, 0)
    assert session.starts_at - session.remind_at == timedelta(hours=23)


class TestTheHostForm:
    def test_a_missing_time_is_refused_with_its_reason(self, client, alice):
        client.force_login(alice)
        response = client.post(reverse("bookings:new_session"), {
            "day": SPRING.isoformat(), "start": "02:30", "end": "04:00", "ambiguous": "earlier", "capacity": 6,
            "waiting_list_size": 10, "offer_minutes": 60, "cancel_notice_hours": 24, "max_changes": 3,
            "visibility": "public",
        })
        assert response.status_code == 400
        assert "n’existe pas à Paris" in response.content.decode()

    def test_a_repeated_time_needs_a_choice(self, client, alice):
        client.force_login(alice)
        data = {
            "day": AUTUMN.isoformat(), "start": "02:30", "end": "04:00", "ambiguous": "raise", "capacity": 6,
            "waiting_list_size": 10, "offer_minutes": 60, "cancel_notice_hours": 24, "max_changes": 3,
            "visibility": "public", "title": "Deux fois",
        }
        response = client.post(reverse("bookings:new_session"), data)
        assert response.status_code == 400 and "arrive deux fois" in response.content.decode()
        response = client.post(reverse("bookings:new_session"), {**data, "ambiguous": "later"})
        assert response.status_code == 302
        from games.bookings.models import Session

        assert Session.objects.get(title="Deux fois").starts_at == utc(2031, 10, 26, 1, 30)
