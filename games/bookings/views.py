"""Sessions pages: look up, check permission, call a service, render.

Guests: the list of upcoming sessions, a session's page with its booking
form, the booking page reached from an emailed link (no account needed),
the form to propose a session. Hosts: the week and month calendar, a
session's bookings (approve, decline, who came, CSV export, copies, live
table), new sessions and recurring rules, proposals, their calendar feed.
"""

from __future__ import annotations

import csv
from datetime import date, datetime, timedelta
from functools import wraps

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.bookings import clock, emails, forms, ics, services, tokens
from games.bookings.errors import BookingError
from games.bookings.models import Booking, CopyReservation, HostFeed, Proposal, Session

FEED_PAST = timedelta(days=30)
FEED_FUTURE = timedelta(days=400)


def hosts_only(view):
    """Staff in the hosts' group (or with the sessions' permissions)."""

    @staff_member_required
    @wraps(view)
    def run(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.has_perm("bookings.change_session"):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return run


def table_link(session: Session) -> str | None:
    """The live table's invitation link, once the table pages exist."""
    if session.table_id is None:
        return None
    try:
        url = reverse("games:table", args=[session.table_id])
    except NoReverseMatch:
        return None
    return f"{url}?invite={session.table.invite_token}"


def _language() -> str:
    return (get_language() or "fr")[:2]


# -- guests -------------------------------------------------------------------------------------

def session_list(request: HttpRequest) -> HttpResponse:
    sessions = (Session.objects.public().upcoming().prefetch_related("games")
                .select_related("host").order_by("starts_at")[:100])
    return render(request, "bookings/list.html", {"sessions": sessions})


def _visible_session(request: HttpRequest, pk: int) -> tuple[Session, str]:
    session = get_object_or_404(Session.objects.select_related("table", "host"), pk=pk)
    invite = request.GET.get("invite") or request.POST.get("invite") or ""
    if not services._can_see(session, invite, request.user):
        raise Http404
    return session, invite


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session, invite = _visible_session(request, pk)
    initial = {"seats": 1}
    if request.user.is_authenticated:
        initial.update(name=request.user.get_full_name() or request.user.get_username(), email=request.user.email)
    else:
        from ludo.accounts import display_name

        initial["name"] = display_name(request) or ""
    form = forms.BookingForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            booking = services.book(session.pk, user=request.user, language=_language(), invite=invite,
                                    **form.cleaned_data)
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _status_message(booking))
            return redirect("bookings:manage", token=tokens.manage_token(booking))
    reservations = session.copy_reservations.select_related("copy", "copy__game")
    return render(request, "bookings/session.html", {
        "session": session, "form": form, "invite": invite, "games": session.games.all(),
        "reservations": reservations, "waiting": session.waiting_count(),
    }, status=400 if form.errors else 200)


def _status_message(booking: Booking) -> str:
    return {
        Booking.Status.CONFIRMED: _("Your booking is confirmed. We have emailed you the details."),
        Booking.Status.PENDING: _("Your booking is waiting for a host's approval. We will email you."),
        Booking.Status.WAITING: _("The session is full: you are on the waiting list. We will email you if seats free up."),
    }.get(booking.status, "")


def _booking_from_token(token: str) -> tuple[Booking | None, BookingError | None]:
    try:
        link = tokens.read_manage_token(token)
        booking = Booking.objects.select_related("session", "session__table").get(pk=link.pk)
        if link.counter != booking.changes:
            raise BookingError("stale_link")
    except BookingError as exc:
        return None, exc
    except Booking.DoesNotExist:
        return None, BookingError("bad_link")
    return booking, None


def manage(request: HttpRequest, token: str) -> HttpResponse:
    """A booking, reached from its emailed link: view, change, cancel, accept an offer."""
    booking, error = _booking_from_token(token)
    if error is not None:
        return render(request, "bookings/link_error.html", {"error": error, "form": forms.ResendForm()},
                      status=410 if error.code in ("expired_link", "stale_link") else 400)
    change_form = forms.ChangeForm(initial={"seats": booking.seats, "name": booking.name})
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "cancel":
                services.cancel(booking.pk, counter=booking.changes)
                messages.success(request, _("Your booking is cancelled."))
            elif action == "accept":
                booking = services.accept_offer(booking.pk, counter=booking.changes)
                messages.success(request, _status_message(booking))
            elif action == "change":
                change_form = forms.ChangeForm(request.POST)
                if change_form.is_valid():
                    booking = services.change(booking.pk, counter=booking.changes, **change_form.cleaned_data)
                    messages.success(request, _("Your booking is changed. The links in earlier emails no longer work."))
                    return redirect("bookings:manage", token=tokens.manage_token(booking))
            else:
                raise BookingError("bad_value", field="action", problem=str(action)[:20])
        except BookingError as exc:
            messages.error(request, exc.message)
        if not change_form.errors:
            return redirect("bookings:manage", token=token)
    booking.refresh_from_db()
    session = booking.session
    now = timezone.now()
    return render(request, "bookings/manage.html", {
        "booking": booking, "session": session, "token": token, "change_form": change_form,
        "games": session.games.all(), "can_cancel": booking.is_active and (
            not booking.holds_seats or booking.status == Booking.Status.OFFERED or now <= session.cancel_deadline()),
        "can_change": booking.status in (Booking.Status.PENDING, Booking.Status.CONFIRMED, Booking.Status.WAITING)
        and booking.changes_left() > 0 and now <= session.cancel_deadline(),
        "table_url": table_link(session) if booking.status == Booking.Status.CONFIRMED else None,
    }, status=400 if change_form.errors else 200)


def booking_ics(request: HttpRequest, token: str) -> HttpResponse:
    booking, error = _booking_from_token(token)
    if error is not None:
        raise Http404
    url = request.build_absolute_uri(reverse("bookings:manage", args=[token]))
    response = HttpResponse(ics.booking_calendar(booking, url), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ludo-{booking.session_id}.ics"'
    return response


def resend_links(request: HttpRequest) -> HttpResponse:
    """Lost the email? The links of that address's live bookings go to that address."""
    form = forms.ResendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"].strip().lower()
        for booking in Booking.objects.filter(email=email, status__in=Booking.ACTIVE,
                                              session__ends_at__gt=timezone.now())[:20]:
            kind = {"pending": "received", "waiting": "waiting", "offered": "offer"}.get(booking.status, "confirmed")
            emails.send(kind, booking.pk)
        # The same answer whether or not the address has bookings.
        messages.success(request, _("If this address has bookings, their links are on their way."))
        return redirect("bookings:list")
    return render(request, "bookings/resend.html", {"form": form}, status=400 if form.errors else 200)


def propose(request: HttpRequest) -> HttpResponse:
    initial = {"game": request.GET.get("game", "")}
    if request.user.is_authenticated:
        initial.update(name=request.user.get_full_name() or request.user.get_username(), email=request.user.email)
    form = forms.ProposalForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            starts_at, ends_at = services.local_span(data["day"], data["start"], data["end"])
            proposal = services.propose(
                game=data["game"], starts_at=starts_at, ends_at=ends_at, seats=data["seats"], name=data["name"],
                email=data["email"], user=request.user, language=_language(), message=data["message"],
            )
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Thank you! The hosts will answer by email."))
            return redirect("bookings:proposal", token=tokens.proposal_token(proposal))
    return render(request, "bookings/propose.html", {"form": form}, status=400 if form.errors else 200)


def proposal_status(request: HttpRequest, token: str) -> HttpResponse:
    try:
        link = tokens.read_proposal_token(token)
        proposal = Proposal.objects.select_related("game", "session").get(pk=link.pk)
    except BookingError as exc:
        return render(request, "bookings/link_error.html", {"error": exc, "form": None},
                      status=410 if exc.code == "expired_link" else 400)
    except Proposal.DoesNotExist:
        raise Http404 from None
    return render(request, "bookings/proposal.html", {"proposal": proposal})


def _calendar_response(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    return response


def public_feed(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    sessions = (Session.objects.filter(visibility=Session.Visibility.PUBLIC)
                .filter(starts_at__gte=now - FEED_PAST, starts_at__lte=now + FEED_FUTURE)
                .prefetch_related("games"))
    return _calendar_response(ics.public_feed(sessions), "ludo-sessions")


def host_feed(request: HttpRequest, key: str) -> HttpResponse:
    feed = HostFeed.objects.select_related("user").filter(key=key).first()
    if feed is None or not feed.user.is_active or not feed.user.is_staff:
        raise Http404
    now = timezone.now()
    sessions = (Session.objects.filter(host=feed.user)
                .filter(starts_at__gte=now - FEED_PAST, starts_at__lte=now + FEED_FUTURE)
                .prefetch_related("games", "bookings"))
    return _calendar_response(ics.host_feed(sessions, feed.user.get_username()), "ludo-host")


# -- hosts ----------------------------------------------------------------------------------------

def _day_start(day: date) -> datetime:
    return clock.to_utc(day, datetime.min.time(), timezone.get_default_timezone(), ambiguous="earlier")


@hosts_only
def calendar(request: HttpRequest) -> HttpResponse:
    """A week (Monday first) or a month of sessions, with their bookings."""
    view = "month" if request.GET.get("view") == "month" else "week"
    try:
        anchor = date.fromisoformat(request.GET.get("date", ""))
    except ValueError:
        anchor = timezone.localdate()
    if view == "week":
        first = anchor - timedelta(days=anchor.weekday())
        last = first + timedelta(days=7)
        previous, following = first - timedelta(days=7), last
    else:
        month_start = anchor.replace(day=1)
        following = (month_start + timedelta(days=32)).replace(day=1)
        previous = (month_start - timedelta(days=1)).replace(day=1)
        first = month_start - timedelta(days=month_start.weekday())
        last = following + timedelta(days=(7 - following.weekday()) % 7)
    sessions = (Session.objects.between(_day_start(first), _day_start(last))
                .select_related("host").prefetch_related("games")
                .annotate(pending=Count("bookings", filter=Q(bookings__status=Booking.Status.PENDING)),
                          waiting=Count("bookings", filter=Q(bookings__status=Booking.Status.WAITING)))
                .order_by("starts_at"))
    by_day: dict[date, list[Session]] = {}
    for session in sessions:
        by_day.setdefault(timezone.localtime(session.starts_at).date(), []).append(session)
    days = [first + timedelta(days=i) for i in range((last - first).days)]
    weeks = [[(d, by_day.get(d, [])) for d in days[i:i + 7]] for i in range(0, len(days), 7)]
    return render(request, "bookings/staff/calendar.html", {
        "view": view, "weeks": weeks, "anchor": anchor, "previous": previous, "following": following,
        "month": anchor.replace(day=1), "today": timezone.localdate(),
        "proposals": Proposal.objects.filter(status=Proposal.Status.PENDING).count(),
    })


def _staff_session(pk: int) -> Session:
    return get_object_or_404(Session.objects.select_related("host", "table", "series"), pk=pk)


@hosts_only
def staff_session(request: HttpRequest, pk: int) -> HttpResponse:
    session = _staff_session(pk)
    settings_form = forms.SettingsForm(request.POST or None, initial={
        **{name: getattr(session, name) for name in forms.SettingsForm.base_fields if name != "games"},
        "games": "\n".join(g.title for g in session.games.all()),
    })
    if request.method == "POST" and settings_form.is_valid():
        try:
            services.update_session(session.pk, request.user, games=settings_form.cleaned_data["games"],
                                    **settings_form.service_values())
        except BookingError as exc:
            settings_form.add_error(None, exc.message)
        else:
            messages.success(request, _("Session saved."))
            return redirect(session.staff_url())
    bookings = session.bookings.select_related("user").order_by("status", "created_at", "id")
    return render(request, "bookings/staff/session.html", {
        "session": session, "bookings": bookings, "settings_form": settings_form,
        "copy_form": forms.CopyForm(session=session), "reason_form": forms.ReasonForm(),
        "reservations": session.copy_reservations.select_related("copy", "copy__game"),
        "playable": session.playable_games(), "table_url": table_link(session),
        "attendance_open": timezone.now() >= session.starts_at - services.attendance_opens(),
        "held": {b.pk for b in bookings if b.holds_seats},
    }, status=400 if settings_form.errors else 200)


def _act(request: HttpRequest, action, done: str, back: str) -> HttpResponse:
    try:
        action()
    except BookingError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect(back)


@hosts_only
@require_POST
def staff_booking(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    booking = get_object_or_404(Booking, pk=pk)
    user = request.user
    reason = request.POST.get("reason", "")
    actions = {
        "approve": (lambda: services.approve(pk, user), _("Booking approved.")),
        "decline": (lambda: services.decline(pk, user, reason), _("Booking declined.")),
        "cancel": (lambda: services.cancel(pk, by_staff=user), _("Booking cancelled.")),
        "came": (lambda: services.mark_attendance(pk, user, True), _("Marked as come.")),
        "absent": (lambda: services.mark_attendance(pk, user, False), _("Marked as absent.")),
        "unknown": (lambda: services.mark_attendance(pk, user, None), _("Attendance cleared.")),
    }
    if action not in actions:
        raise Http404
    call, done = actions[action]
    return _act(request, call, done, reverse("bookings:staff_session", args=[booking.session_id]))


@hosts_only
@require_POST
def staff_cancel_session(request: HttpRequest, pk: int) -> HttpResponse:
    form = forms.ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    return _act(request, lambda: services.cancel_session(pk, request.user, reason), _("Session cancelled."),
                reverse("bookings:staff_session", args=[pk]))


@hosts_only
@require_POST
def staff_reserve_copy(request: HttpRequest, pk: int) -> HttpResponse:
    session = _staff_session(pk)
    form = forms.CopyForm(request.POST, session=session)
    if not form.is_valid():
        messages.error(request, _("Choose a copy of a game on offer."))
        return redirect(session.staff_url())
    copy = form.cleaned_data["copy"]
    return _act(request, lambda: services.reserve_copy(pk, copy.pk, request.user), _("Copy reserved."),
                session.staff_url())


@hosts_only
@require_POST
def staff_release_copy(request: HttpRequest, pk: int) -> HttpResponse:
    reservation = get_object_or_404(CopyReservation, pk=pk)
    return _act(request, lambda: services.release_copy(pk, request.user), _("Reservation removed."),
                reverse("bookings:staff_session", args=[reservation.session_id]))


@hosts_only
@require_POST
def staff_open_table(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, lambda: services.open_live_table(pk, request.user, request.POST.get("game") or None),
                _("Live table opened; the people booked can join it from their booking page."),
                reverse("bookings:staff_session", args=[pk]))


@hosts_only
def export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """A session's list for a spreadsheet: one row per booking."""
    session = _staff_session(pk)
    start = timezone.localtime(session.starts_at)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="session-{session.pk}-{start:%Y-%m-%d}.csv"'
    response.write("\ufeff")  # lets spreadsheet programs read UTF-8 as such
    writer = csv.writer(response)
    writer.writerow([_("Name"), _("Email"), _("Seats"), _("Status"), _("Came"), _("Booked at"), _("Message")])
    came = {True: _("yes"), False: _("no"), None: ""}
    for booking in session.bookings.order_by("created_at", "id"):
        writer.writerow([
            _safe_cell(booking.name), booking.email, booking.seats, booking.get_status_display(),
            came[booking.attended], f"{timezone.localtime(booking.created_at):%Y-%m-%d %H:%M}",
            _safe_cell(booking.note),
        ])
    return response


def _safe_cell(text: str) -> str:
    """Guests type these: a leading = + - @ would be a formula in a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@hosts_only
def new_session(request: HttpRequest) -> HttpResponse:
    form = forms.SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            starts_at, ends_at = services.local_span(data["day"], data["start"], data["end"], data["ambiguous"])
            session = services.create_session(request.user, starts_at=starts_at, ends_at=ends_at,
                                              games=data["games"], **form.service_values())
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Session created."))
            return redirect(session.staff_url())
    return render(request, "bookings/staff/new_session.html", {"form": form}, status=400 if form.errors else 200)


@hosts_only
def new_series(request: HttpRequest) -> HttpResponse:
    form = forms.SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            result = services.create_series(
                request.user, first_date=data["first_date"], start_time=data["start"], end_time=data["end"],
                until=data["until"], count=data["count"], ambiguous=data["ambiguous"], games=data["games"],
                **form.service_values(),
            )
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("%(n)s sessions created.") % {"n": len(result.sessions)})
            for occ in result.skipped:
                messages.warning(request, _(
                    "%(day)s skipped: that time does not exist in Paris that night (the clocks go forward)."
                ) % {"day": occ.day.isoformat()})
            for occ in result.resolved:
                messages.warning(request, _(
                    "%(day)s: that time happens twice that night (the clocks go back); the session uses %(which)s."
                ) % {"day": occ.day.isoformat(), "which": dict(forms.AMBIGUOUS_CHOICES)[occ.resolution]})
            first = result.sessions[0] if result.sessions else None
            target = reverse("bookings:calendar")
            if first is not None:
                target += f"?view=month&date={timezone.localtime(first.starts_at).date().isoformat()}"
            return redirect(target)
    return render(request, "bookings/staff/new_series.html", {"form": form}, status=400 if form.errors else 200)


@hosts_only
def proposals(request: HttpRequest) -> HttpResponse:
    pending = Proposal.objects.filter(status=Proposal.Status.PENDING).select_related("game").order_by("starts_at")
    decided = (Proposal.objects.exclude(status=Proposal.Status.PENDING).select_related("game", "session")
               .order_by("-decided_at")[:30])
    return render(request, "bookings/staff/proposals.html", {
        "pending": [(p, forms.ApproveProposalForm(initial={"capacity": max(p.seats, 4)}, prefix=f"p{p.pk}"))
                    for p in pending],
        "decided": decided, "reason_form": forms.ReasonForm(),
    })


@hosts_only
@require_POST
def decide_proposal(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    back = reverse("bookings:proposals")
    if action == "decline":
        form = forms.ReasonForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        return _act(request, lambda: services.decline_proposal(pk, request.user, reason),
                    _("Proposal declined."), back)
    if action != "approve":
        raise Http404
    form = forms.ApproveProposalForm(request.POST, prefix=f"p{pk}")
    if not form.is_valid():
        messages.error(request, _("Give the number of seats."))
        return redirect(back)
    try:
        session = services.approve_proposal(pk, request.user, **form.cleaned_data)
    except BookingError as exc:
        messages.error(request, exc.message)
        return redirect(back)
    messages.success(request, _("Proposal approved: the session is created and the proposer booked."))
    return redirect(session.staff_url())


@hosts_only
def my_feed(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        feed = services.renew_host_feed(request.user)
        messages.success(request, _("Your calendar has a new address; the old one no longer works."))
        return redirect("bookings:my_feed")
    feed = services.host_feed(request.user)
    return render(request, "bookings/staff/feed.html", {
        "feed_url": request.build_absolute_uri(reverse("bookings:host_feed", args=[feed.key])),
        "public_url": request.build_absolute_uri(reverse("bookings:public_feed")),
    })
