"""Sessions proposed by guests: the form and its status page; the hosts' list
and their decision."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.bookings import forms, services, throttle, tokens
from games.bookings.errors import BookingError
from games.bookings.models import Proposal
from games.bookings.views.common import act, hosts_only, too_many, visitor_language


def propose(request: HttpRequest) -> HttpResponse:
    initial = {"game": request.GET.get("game", "")}
    if request.user.is_authenticated:
        initial.update(name=request.user.get_full_name() or request.user.get_username(), email=request.user.email)
    # The address's budget before the form (its game field searches the collection).
    if request.method == "POST" and not throttle.address_allowed(request, "propose"):
        return too_many(request)
    form = forms.ProposalForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if not throttle.email_allowed(data["email"], "propose"):
            return redirect("bookings:check_email")  # the answer a first request gets
        try:
            starts_at, ends_at = services.local_span(data["day"], data["start"], data["end"])
            proposal = services.request_proposal(
                game=data["game"], starts_at=starts_at, ends_at=ends_at, seats=data["seats"], name=data["name"],
                email=data["email"], user=request.user, language=visitor_language(), message=data["message"],
            )
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            if proposal.status == Proposal.Status.UNVERIFIED:
                return redirect("bookings:check_email")
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


@hosts_only
def proposals(request: HttpRequest) -> HttpResponse:
    pending = Proposal.objects.filter(status=Proposal.Status.PENDING).select_related("game").order_by("starts_at")
    decided = (Proposal.objects.filter(status__in=[Proposal.Status.APPROVED, Proposal.Status.DECLINED])
               .select_related("game", "session")
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
        return act(request, lambda: services.decline_proposal(pk, request.user, reason),
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
