"""Sessions at the house: time slots to play there, the bookings for them,
the guests' proposals, recurring rules, and the copies set aside.

A visitor whose address is not known to be theirs books in two steps
(double opt-in): the booking is first "unverified", holds no seat and no
place in the waiting list, and lapses after a short deadline
(``confirm_by``); the link emailed to the address confirms it, and only then
is it placed like any other booking (``services.confirmation``).

Seats never overbook. ``Session.seats_taken`` is the sum of the seats of the
bookings that hold seats (awaiting approval, confirmed, or offered from the
waiting list). Triggers in the database keep it equal to that sum on every
insert, update or delete of a booking (see ``seatguard``), and a CHECK
constraint keeps it at or below ``capacity``: whatever code writes bookings,
the database refuses an overbooking. The service (``services.book``) locks
the session row first and checks the free seats itself, so people get a clear
answer instead of an integrity error.

All instants are stored in UTC; the wall-clock time at the house
(Europe/Paris) is what pages and emails show.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.bookings import clock

MAX_CAPACITY = 200


def new_key() -> str:
    return secrets.token_urlsafe(18)


def paris():
    return timezone.get_default_timezone()


class SessionSeries(models.Model):
    """A recurring rule: every week on one weekday, at the same wall-clock
    times, until a date or for a number of dates. It generates concrete
    sessions, each bookable on its own; editing the rule later does not
    rewrite sessions already generated."""

    class Ambiguous(models.TextChoices):
        EARLIER = "earlier", _("the first one (summer time)")
        LATER = "later", _("the second one (winter time)")

    title = models.CharField(_("title"), max_length=200)
    first_date = models.DateField(_("first date"))
    start_time = models.TimeField(_("starts at (wall-clock time)"))
    end_time = models.TimeField(_("ends at (wall-clock time)"))
    until = models.DateField(_("until (inclusive)"), null=True, blank=True)
    count = models.PositiveSmallIntegerField(_("number of dates"), null=True, blank=True)
    ambiguous = models.CharField(
        _("when the time happens twice (clocks go back)"), max_length=8,
        choices=Ambiguous.choices, default=Ambiguous.EARLIER,
    )
    # What each generated session gets.
    template = models.JSONField(default=dict, editable=False)
    report = models.JSONField(default=list, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("recurring session")
        verbose_name_plural = _("recurring sessions")
        constraints = [
            models.CheckConstraint(
                condition=Q(until__isnull=True, count__isnull=False) | Q(until__isnull=False, count__isnull=True),
                name="bookings_series_until_xor_count",
            ),
        ]

    def __str__(self) -> str:
        return self.title


class SessionQuerySet(models.QuerySet):
    def scheduled(self) -> SessionQuerySet:
        return self.filter(status=Session.Status.SCHEDULED)

    def upcoming(self, now: datetime | None = None) -> SessionQuerySet:
        return self.filter(ends_at__gt=now or timezone.now())

    def public(self) -> SessionQuerySet:
        return self.scheduled().filter(visibility=Session.Visibility.PUBLIC)

    def between(self, start: datetime, end: datetime) -> SessionQuerySet:
        """Sessions overlapping [start, end)."""
        return self.filter(starts_at__lt=end, ends_at__gt=start)


class Session(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        CANCELLED = "cancelled", _("cancelled")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("public")
        INVITATION = "invitation", _("invitation only")

    title = models.CharField(_("title"), max_length=200)
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    ends_at = models.DateTimeField(_("ends at"))
    room = models.CharField(_("room or table"), max_length=100, blank=True)
    capacity = models.PositiveSmallIntegerField(_("seats"))
    # Maintained by database triggers (seatguard); never written from Python.
    seats_taken = models.PositiveIntegerField(_("seats taken"), default=0, editable=False)
    games = models.ManyToManyField("catalog.Game", verbose_name=_("games on offer"), blank=True,
                                   related_name="gite_sessions")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("host"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="hosted_sessions")
    notes = models.TextField(_("notes"), blank=True)
    visibility = models.CharField(_("visibility"), max_length=12, choices=Visibility.choices,
                                  default=Visibility.PUBLIC)
    requires_approval = models.BooleanField(_("bookings need a host's approval"), default=False)
    waiting_list_size = models.PositiveSmallIntegerField(
        _("waiting list size"), default=20, help_text=_("0: no waiting list.")
    )
    offer_minutes = models.PositiveIntegerField(
        _("time to accept a freed seat (minutes)"), default=12 * 60,
    )
    cancel_notice_hours = models.PositiveSmallIntegerField(
        _("minimum notice to cancel or change (hours)"), default=24,
    )
    max_changes = models.PositiveSmallIntegerField(_("changes allowed per booking"), default=3)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED,
                              db_index=True)
    series = models.ForeignKey(SessionSeries, verbose_name=_("recurring rule"), null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="sessions")
    # The secret part of an invitation-only session's link.
    invite_key = models.CharField(max_length=40, default=new_key, editable=False)
    table = models.OneToOneField("games.Table", verbose_name=_("live table"), null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="gite_session")
    # When the day-before reminder is due (recomputed on every save).
    remind_at = models.DateTimeField(editable=False, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = SessionQuerySet.as_manager()

    class Meta:
        ordering = ["starts_at", "id"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="bookings_session_ends_after_start"),
            models.CheckConstraint(condition=Q(capacity__gte=1, capacity__lte=MAX_CAPACITY),
                                   name="bookings_session_capacity_range"),
            # The overbooking guard: seats_taken is kept equal to the seats held
            # by the session's bookings by triggers, so this refuses any write
            # that would hold more seats than there are.
            models.CheckConstraint(condition=Q(seats_taken__lte=F("capacity")),
                                   name="bookings_session_seats_within_capacity"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({timezone.localtime(self.starts_at):%Y-%m-%d %H:%M})"

    def save(self, *args, **kwargs):
        self.remind_at = self.reminder_due()
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            # Never write back a seats_taken read earlier: the triggers own it.
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name != "seats_taken"
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("bookings:session", args=[self.pk])

    def staff_url(self) -> str:
        return reverse("bookings:staff_session", args=[self.pk])

    def invitation_url(self) -> str:
        return f"{self.get_absolute_url()}?invite={self.invite_key}"

    # -- time --------------------------------------------------------------------------

    def reminder_due(self) -> datetime:
        """The day before, at the same wall-clock time (24 h earlier except
        across a clock change; in the skipped hour, 24 h before)."""
        wall = clock.local(self.starts_at, paris())
        day_before = wall.date() - timedelta(days=1)
        try:
            return clock.to_utc(day_before, wall.time(), paris(), ambiguous="earlier")
        except clock.NonExistentTime:
            return self.starts_at - timedelta(hours=24)

    @property
    def local_start(self) -> datetime:
        return clock.local(self.starts_at, paris())

    @property
    def local_end(self) -> datetime:
        return clock.local(self.ends_at, paris())

    def start_is_ambiguous(self) -> bool:
        return clock.local_is_ambiguous(self.starts_at, paris())

    def end_is_ambiguous(self) -> bool:
        return clock.local_is_ambiguous(self.ends_at, paris())

    def clock_change_minutes(self) -> int:
        """+60 when clocks go forward during the session, -60 when they go back."""
        return int(clock.offset_change(self.starts_at, self.ends_at, paris()).total_seconds() // 60)

    @property
    def duration(self) -> timedelta:
        return self.ends_at - self.starts_at

    def cancel_deadline(self) -> datetime:
        return self.starts_at - timedelta(hours=self.cancel_notice_hours)

    def has_started(self, now: datetime | None = None) -> bool:
        return (now or timezone.now()) >= self.starts_at

    def is_over(self, now: datetime | None = None) -> bool:
        return (now or timezone.now()) >= self.ends_at

    # -- seats ---------------------------------------------------------------------------

    @property
    def seats_free(self) -> int:
        return max(0, self.capacity - self.seats_taken)

    @property
    def is_bookable(self) -> bool:
        return self.status == self.Status.SCHEDULED

    def waiting_count(self) -> int:
        return self.bookings.filter(status=Booking.Status.WAITING).count()

    def playable_games(self) -> list:
        return [g for g in self.games.all() if g.engine_slug]


class Booking(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting approval")
        CONFIRMED = "confirmed", _("confirmed")
        WAITING = "waiting", _("on the waiting list")
        OFFERED = "offered", _("seat offered")
        CANCELLED = "cancelled", _("cancelled")
        DECLINED = "declined", _("declined")
        EXPIRED = "expired", _("offer expired")
        UNVERIFIED = "unverified", _("awaiting email confirmation")

    # The statuses that hold seats (seatguard's triggers list the same values).
    HOLDING = (Status.PENDING, Status.CONFIRMED, Status.OFFERED)
    ACTIVE = (*HOLDING, Status.WAITING)

    session = models.ForeignKey(Session, verbose_name=_("session"), on_delete=models.PROTECT,
                                related_name="bookings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("account"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="gite_bookings")
    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("email"))
    seats = models.PositiveSmallIntegerField(_("seats"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, db_index=True)
    language = models.CharField(_("language"), max_length=8, default="fr")
    note = models.CharField(_("message to the hosts"), max_length=500, blank=True)
    # Bumped by each change: a link carries the count it was made for, so a
    # used change link cannot be replayed.
    changes = models.PositiveSmallIntegerField(_("changes made"), default=0)
    offer_expires_at = models.DateTimeField(_("offer expires at"), null=True, blank=True, db_index=True)
    # An unverified booking lapses (is deleted) at this time unless its address confirmed it.
    confirm_by = models.DateTimeField(_("to confirm by"), null=True, blank=True, db_index=True)
    attended = models.BooleanField(_("came"), null=True, blank=True)
    reminder_sent_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(_("booked at"), default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session", "created_at", "id"]
        verbose_name = _("booking")
        verbose_name_plural = _("bookings")
        constraints = [
            models.CheckConstraint(condition=Q(seats__gte=1, seats__lte=MAX_CAPACITY),
                                   name="bookings_booking_seats_range"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "confirmed", "waiting", "offered", "cancelled", "declined",
                                        "expired", "unverified"]),
                name="bookings_booking_status_known",
            ),
            models.CheckConstraint(condition=~Q(status="unverified") | Q(confirm_by__isnull=False),
                                   name="bookings_booking_unverified_has_deadline"),
            models.CheckConstraint(condition=~Q(status="offered") | Q(offer_expires_at__isnull=False),
                                   name="bookings_booking_offer_has_deadline"),
            # One live booking per email and session (change it rather than book twice).
            models.UniqueConstraint(
                fields=["session", "email"], condition=Q(status__in=["pending", "confirmed", "waiting", "offered"]),
                name="bookings_booking_one_active_per_email",
            ),
        ]
        indexes = [models.Index(fields=["session", "status", "created_at"], name="bookings_booking_queue")]

    def __str__(self) -> str:
        return f"{self.name} ×{self.seats} → {self.session_id} ({self.status})"

    @property
    def holds_seats(self) -> bool:
        return self.status in self.HOLDING

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    def changes_left(self) -> int:
        return max(0, self.session.max_changes - self.changes)

    def manage_url(self) -> str:
        from games.bookings import tokens

        return reverse("bookings:manage", args=[tokens.manage_token(self)])

    def waiting_position(self) -> int | None:
        if self.status != self.Status.WAITING:
            return None
        ahead = Booking.objects.filter(session_id=self.session_id, status=self.Status.WAITING).filter(
            Q(created_at__lt=self.created_at) | Q(created_at=self.created_at, id__lt=self.id)
        )
        return ahead.count() + 1


class Proposal(models.Model):
    """A guest asks for a session around a game; a host approves (creating
    the session, with the guest's party booked) or declines."""

    class Status(models.TextChoices):
        UNVERIFIED = "unverified", _("awaiting email confirmation")
        PENDING = "pending", _("waiting for a host")
        APPROVED = "approved", _("approved")
        DECLINED = "declined", _("declined")

    game = models.ForeignKey("catalog.Game", verbose_name=_("game"), on_delete=models.PROTECT,
                             related_name="gite_proposals")
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    seats = models.PositiveSmallIntegerField(_("party size"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("email"))
    language = models.CharField(_("language"), max_length=8, default="fr")
    message = models.TextField(_("message"), blank=True, max_length=2000)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING,
                              db_index=True)
    session = models.OneToOneField(Session, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="proposal")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True, max_length=2000)
    # An unverified proposal lapses (is deleted) at this time unless its address confirmed it.
    confirm_by = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("session proposal")
        verbose_name_plural = _("session proposals")
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="bookings_proposal_ends_after_start"),
            models.CheckConstraint(condition=Q(seats__gte=1, seats__lte=MAX_CAPACITY),
                                   name="bookings_proposal_seats_range"),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.name} ({self.status})"


class VerifiedAddress(models.Model):
    """An email address an account has shown to be its own, by following a
    confirmation link sent there while logged in: that account then books
    with it directly."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    email = models.EmailField(_("email"))
    verified_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("verified address")
        verbose_name_plural = _("verified addresses")
        constraints = [models.UniqueConstraint(fields=["user", "email"], name="bookings_verified_address_once")]

    def __str__(self) -> str:
        return f"{self.user} <{self.email}>"


class CopyReservation(models.Model):
    """A physical copy set aside for a session.

    The catalog's Copy.status has no "reserved" value; while the session runs
    the worker marks the copy "in use" (and puts it back on the shelf after),
    and the session pages show the reservation the rest of the time.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="copy_reservations")
    copy = models.ForeignKey("catalog.Copy", verbose_name=_("copy"), on_delete=models.PROTECT,
                             related_name="gite_reservations")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the worker took the copy off the shelf for the session / put it back.
    taken_at = models.DateTimeField(null=True, blank=True)
    returned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "id"]
        verbose_name = _("copy reservation")
        verbose_name_plural = _("copy reservations")
        constraints = [
            models.UniqueConstraint(fields=["session", "copy"], name="bookings_copy_once_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.copy} → {self.session_id}"


class HostFeed(models.Model):
    """The secret address of a host's calendar feed (replaceable if it leaks)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="gite_feed")
    key = models.CharField(max_length=40, unique=True, default=new_key)
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("host calendar feed")
        verbose_name_plural = _("host calendar feeds")

    def __str__(self) -> str:
        return str(self.user)


# The outbox's model lives with its functions; imported here so Django finds it.
from games.bookings.outbox import OutgoingEmail  # noqa: E402, F401
