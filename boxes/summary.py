"""The weekly summary to the hosts: what went missing, what was found, what
waits to be counted, by email through the outbox (games.bookings.outbox).

The worker job :func:`weekly` runs every few minutes; the first run of an ISO
week claims that week (``SummaryWeek``, unique: two workers never both send it)
and queues one row per host, each in its own guarded step (one host's bad
address never stops the others). The email is built when the worker sends it,
from the week before; with nothing to say it is skipped.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from boxes.models import Shortfall, StrayPiece, SummaryWeek
from games.bookings import outbox
from ludo.bulkheads.guard import Bulkhead

KIND = "boxes_weekly"
EVERY = 300.0
HOSTS = Bulkhead("boxes.weekly")


def week_of(moment: datetime) -> str:
    year, week, _day = timezone.localtime(moment).isocalendar()
    return f"{year}-W{week:02d}"


def hosts():
    return (get_user_model().objects.filter(is_active=True, is_staff=True).exclude(email="")
            .filter(Q(is_superuser=True) | Q(groups__name=settings.HOSTS_GROUP)).distinct().order_by("id"))


def _queue_one(user_id: int, week: str) -> bool:
    user = get_user_model().objects.get(pk=user_id)
    with transaction.atomic():
        return outbox.enqueue(KIND, user.email, language=settings.LANGUAGE_CODE,
                              extra={"week": week, "user": user.pk}) is not None


def queue_week(now: datetime | None = None) -> int:
    """Claim this week and queue the hosts' emails; 0 when the week was claimed before."""
    week = week_of(now or timezone.now())
    try:
        with transaction.atomic():
            SummaryWeek.objects.create(week=week)
    except IntegrityError:
        return 0
    return HOSTS.each(hosts(), lambda pk: _queue_one(pk, week), limit=1000)


def weekly() -> float:
    queue_week()
    return EVERY


def register() -> None:
    from ludo import worker

    worker.register("boxes.weekly", weekly)


def facts(since: datetime, until: datetime) -> dict:
    lost = list(Shortfall.objects.filter(part__reported_at__gte=since, part__reported_at__lt=until)
                .select_related("copy__game").order_by("copy__shelf", "id"))
    found = list(Shortfall.objects.filter(part__found_at__gte=since, part__found_at__lt=until)
                 .select_related("copy__game").order_by("copy__shelf", "id"))
    strays = list(StrayPiece.objects.filter(found_at__gte=since, found_at__lt=until, returned_at__isnull=True)
                  .select_related("belongs_to", "found_in__game"))
    return {"lost": lost, "found": found, "strays": strays}


def message_for(row: outbox.OutgoingEmail) -> EmailMessage | None:
    """The summary of the week before ``row.extra["week"]`` began; None when nothing happened."""
    from boxes import tocount

    try:
        year, week = row.extra["week"].split("-W")
        start = timezone.make_aware(datetime.fromisocalendar(int(year), int(week), 1))
    except (KeyError, ValueError, AttributeError):
        return None
    data = facts(start - timedelta(days=7), start)
    waiting = len(tocount.to_count())
    if not (data["lost"] or data["found"] or data["strays"] or waiting):
        return None
    site = settings.SITE_URL.rstrip("/")
    with translation.override(row.language or settings.LANGUAGE_CODE):
        context = {**data, "waiting": waiting, "site_url": site, "list_url": site + reverse("boxes:to_count")}
        body = render_to_string("boxes/email/weekly.txt", context)
        subject = _("The boxes this week: %(lost)d missing, %(found)d found") % {
            "lost": len(data["lost"]), "found": len(data["found"])}
    return EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[row.to])
