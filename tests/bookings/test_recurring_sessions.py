"""Recurring sessions: a weekly rule generates concrete sessions, each
bookable on its own, all at the same wall-clock time across the clock
changes; the nights a time does not exist or happens twice are reported."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest
from django.urls import reverse

from games.bookings import clock, services
from games.bookings.errors import BookingError
from games.bookings.models import Session, SessionSeries
from tests.bookings.conftest import PARIS, at, guest, last_sunday

NOW = at(date(2031, 1, 6), 12)


def test_every_friday_evening_keeps_20_00_all_year(alice):
    result = services.create_series(alice, title="Vendredi jeux", first_date=date(2031, 1, 10), start_time=time(20),
                                    end_time=time(23, 30), until=date(2031, 12, 31), capacity=12, now=NOW)
    sessions = result.sessions
    assert len(sessions) == 51 and not result.skipped and not result.resolved
    for session in sessions:
        local = session.starts_at.astimezone(PARIS)
        assert (local.weekday(), local.hour, local.minute) == (4, 20, 0)
        assert session.ends_at.astimezone(PARIS).strftime("%H:%M") == "23:30"
        assert session.series == result.series and session.capacity == 12
    # The UTC hour moves with summer time; the wall clock does not.
    assert {s.starts_at.hour for s in sessions} == {18, 19}


def test_a_count_gives_that_many_dates(alice):
    result = services.create_series(alice, title="Cinq", first_date=date(2031, 2, 3), start_time=time(14),
                                    end_time=time(17), count=5, capacity=4, now=NOW)
    days = [s.starts_at.astimezone(PARIS).date() for s in result.sessions]
    assert days == [date(2031, 2, 3) + timedelta(weeks=i) for i in range(5)]


def test_the_sessions_are_booked_separately(alice):
    result = services.create_series(alice, title="Deux", first_date=date(2031, 2, 3), start_time=time(14),
                                    end_time=time(17), count=2, capacity=1, now=NOW)
    first, second = result.sessions
    assert services.book(first.pk, seats=1, now=NOW, **guest(1)).status == "confirmed"
    assert services.book(second.pk, seats=1, now=NOW, **guest(1)).status == "confirmed"
    assert services.book(first.pk, seats=1, now=NOW, **guest(2)).status == "waiting"


def test_a_night_session_on_sundays_skips_the_spring_night_and_chooses_in_autumn(alice):
    spring, autumn = last_sunday(2031, 3), last_sunday(2031, 10)
    result = services.create_series(alice, title="Nuit", first_date=date(2031, 3, 2), start_time=time(2, 30),
                                    end_time=time(3, 30), until=date(2031, 11, 30), ambiguous="later",
                                    capacity=4, now=NOW)
    assert [o.day for o in result.skipped] == [spring]
    assert result.skipped[0].problem == "start-missing"
    assert [(o.day, o.resolution) for o in result.resolved] == [(autumn, "later")]
    for session in result.sessions:
        assert session.starts_at.astimezone(PARIS).strftime("%H:%M") == "02:30"
    october = next(s for s in result.sessions if s.starts_at.astimezone(PARIS).date() == autumn)
    assert october.starts_at.astimezone(PARIS).tzname() == "CET"  # the second 02:30, as asked
    series = SessionSeries.objects.get()
    assert series.report == [
        {"day": spring.isoformat(), "problem": "start-missing", "resolution": "skipped"},
        {"day": autumn.isoformat(), "problem": "start-twice", "resolution": "later"},
    ]
    assert len(result.sessions) == Session.objects.count() == 39


def test_an_end_in_the_skipped_hour_skips_the_date_too(db):
    occurrences = clock.weekly(date(2031, 3, 23), time(1, 0), time(2, 30), count=2, tz=PARIS)
    assert [o.problem for o in occurrences] == ["", "end-missing"]
    assert occurrences[1].skipped


def test_a_session_past_midnight_ends_the_next_day(db):
    [occ] = clock.weekly(date(2031, 5, 2), time(21), time(1), count=1, tz=PARIS)
    assert occ.ends_at - occ.starts_at == timedelta(hours=4)


@pytest.mark.parametrize("kwargs", [
    {},
    {"until": date(2031, 3, 1), "count": 3},
    {"count": 0},
    {"count": 201},
    {"until": date(2030, 12, 1)},
    {"until": date(2034, 1, 1)},
])
def test_a_bad_rule_is_refused_and_creates_nothing(alice, kwargs):
    with pytest.raises(BookingError) as exc:
        services.create_series(alice, title="Mauvaise", first_date=date(2031, 1, 10), start_time=time(20),
                               end_time=time(23), capacity=4, now=NOW, **kwargs)
    assert exc.value.code == "bad_rule"
    assert not SessionSeries.objects.exists() and not Session.objects.exists()


def test_dates_already_past_are_left_out(alice):
    result = services.create_series(alice, title="Passé", first_date=date(2030, 12, 26), start_time=time(20),
                                    end_time=time(23), count=3, capacity=4, now=NOW)
    # 26 December and 2 January are before "now" (6 January); 9 January is not.
    assert [s.starts_at.astimezone(PARIS).date() for s in result.sessions] == [date(2031, 1, 9)]


def test_the_hosts_page_creates_them_and_reports_the_nights(client, alice):
    client.force_login(alice)
    response = client.post(reverse("bookings:new_series"), {
        "title": "Nuit du dimanche", "first_date": "2031-03-23", "start": "02:30", "end": "03:30", "count": 3,
        "ambiguous": "earlier", "capacity": 6, "waiting_list_size": 5, "offer_minutes": 60,
        "cancel_notice_hours": 24, "max_changes": 3, "visibility": "public",
    }, follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "2 sessions créées" in text
    assert "2031-03-30 sautée" in text
    assert Session.objects.count() == 2


def test_the_hosts_page_needs_an_end_date_or_a_count(client, alice):
    client.force_login(alice)
    response = client.post(reverse("bookings:new_series"), {
        "title": "Sans fin", "first_date": "2031-03-23", "start": "20:00", "end": "23:00",
        "ambiguous": "earlier", "capacity": 6, "waiting_list_size": 5, "offer_minutes": 60,
        "cancel_notice_hours": 24, "max_changes": 3, "visibility": "public",
    })
    assert response.status_code == 400 and not Session.objects.exists()
