"""The pages of my account: an overview with every section, and the actions
that each section's forms post to. Each view reads only ``request.user``'s rows."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from ludo.account import address, credentials, email_change, export, history, mail_limits
from ludo.account.deletion import delete_account
from ludo.account.forms import DeleteForm, EmailForm, LanguageForm
from ludo.accounts import is_confirmed
from ludo.language import account_language
from ludo.limits import rate_limited
from ludo.models import Profile
from ludo.tokens.models import PersonalToken

EMAIL_ERRORS = {
    "bad_link": gettext_lazy("This link is not valid. Ask for the change again from your account."),
    "expired_link": gettext_lazy("This link has expired. Ask for the change again from your account."),
    "stale_link": gettext_lazy("Your address changed since this link was sent: this link no longer works."),
    "wrong_account": gettext_lazy(
        "This link is for another account. Log in with the account that asked for the change."),
    "taken": gettext_lazy("Another account uses this address now."),
}
ADDRESS_ERRORS = {
    "bad_link": gettext_lazy("This link is not valid. Ask for a new one from your account."),
    "expired_link": gettext_lazy("This link has expired. Ask for a new one from your account."),
    "stale_link": gettext_lazy("Your address changed since this link was sent: this link no longer works."),
    "wrong_account": gettext_lazy(
        "This link is for another account. Log in with the account it was sent to."),
    "taken": gettext_lazy("This address cannot be confirmed for this account."),
}


def _overview(request: HttpRequest, *, email_form: EmailForm | None = None,
              status: int = 200) -> HttpResponse:
    user = request.user
    now = timezone.now()
    return render(request, "account/home.html", {
        "upcoming": history.upcoming_bookings(user, now),
        "past": history.past_bookings(user, now),
        "running": history.running_games(user),
        "finished": history.finished_games(user),
        "tokens": PersonalToken.objects.filter(user=user, revoked_at__isnull=True),
        "language_form": LanguageForm(initial={"language": account_language(user)}),
        "email_form": email_form or EmailForm(user=user),
        "confirmed": is_confirmed(user),
        "now": now,
    }, status=status)


@never_cache
@login_required
def home(request: HttpRequest) -> HttpResponse:
    return _overview(request)


@require_POST
@login_required
def language(request: HttpRequest) -> HttpResponse:
    form = LanguageForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the languages offered."))
        return redirect("account:home")
    chosen = form.cleaned_data["language"]
    Profile.objects.update_or_create(user=request.user, defaults={"language": chosen})
    with translation.override(chosen or translation.get_language()):
        messages.success(request, _("Your language is saved."))
        response = redirect(reverse("account:home"))
    if chosen:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, chosen, max_age=settings.LANGUAGE_COOKIE_AGE,
                            samesite=settings.LANGUAGE_COOKIE_SAMESITE)
    return response


@require_POST
@login_required
@rate_limited("account-email-change", per_person=(5, 3600.0), per_address=(20, 3600.0))
def email(request: HttpRequest) -> HttpResponse:
    """The same answer whether or not another account uses the address (request_change)."""
    form = EmailForm(request.POST, user=request.user)
    if not form.is_valid():
        return _overview(request, email_form=form, status=400)
    if not mail_limits.allow(form.cleaned_data["email"], request):
        form.add_error("email", _("Too many links were sent lately. Try again in an hour."))
        return _overview(request, email_form=form, status=429)
    email_change.request_change(request.user, form.cleaned_data["email"])
    messages.success(request, _("A link is on its way to %(email)s: your address changes once you follow it.")
                     % {"email": form.cleaned_data["email"]})
    return redirect("account:home")


@require_POST
@login_required
@rate_limited("account-address-link", per_person=(5, 3600.0), per_address=(20, 3600.0))
def address_resend(request: HttpRequest) -> HttpResponse:
    """Send the link confirming my address again."""
    if request.user.email and mail_limits.allow(request.user.email, request):
        address.ask(request.user, translation.get_language())
    messages.success(request, _("If your address is not confirmed yet, a link is on its way to it."))
    return redirect("account:home")


@never_cache
@login_required
def address_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what the link would do; POST does it (mail scanners only GET links)."""
    try:
        found = address.read_token(token)
        if found.user_id != request.user.pk:
            raise address.AddressError("wrong_account")
        if request.method == "POST":
            confirmed = address.confirm(token, request.user)
            messages.success(request, _("Your address %(email)s is confirmed.") % {"email": confirmed})
            return redirect("account:home")
    except address.AddressError as exc:
        return render(request, "account/address_confirm.html", {"error": ADDRESS_ERRORS[exc.code]},
                      status=410 if exc.code in ("expired_link", "stale_link") else 400)
    return render(request, "account/address_confirm.html", {"email": found.email})


@never_cache
@login_required
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what the link would do; POST does it (mail scanners only GET links)."""
    try:
        found = email_change.read_token(token)
        if found.user_id != request.user.pk:
            raise email_change.EmailChangeError("wrong_account")
        if request.method == "POST":
            new = email_change.confirm(token, request.user, keep_session=request.session.session_key or "")
            messages.success(request, _("Your email address is now %(email)s.") % {"email": new})
            return redirect("account:home")
    except email_change.EmailChangeError as exc:
        return render(request, "account/email_confirm.html", {"error": EMAIL_ERRORS[exc.code]},
                      status=410 if exc.code in ("expired_link", "stale_link") else 400)
    return render(request, "account/email_confirm.html", {"new_email": found.new})


@never_cache
@login_required
def export_data(request: HttpRequest) -> HttpResponse:
    """Everything stored about me, as a JSON file to download."""
    document = export.export(request.user)
    response = HttpResponse(json.dumps(document, ensure_ascii=False, indent=2),
                            content_type="application/json; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="ludo-{request.user.pk}-{stamp}.json"'
    return response


@never_cache
@login_required
def delete(request: HttpRequest) -> HttpResponse:
    form = DeleteForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        delete_account(request.user)
        logout(request)
        messages.success(request, _("Your account is deleted. Thank you for playing with us."))
        return redirect("home")
    upcoming = [b for b in history.upcoming_bookings(request.user) if b.is_active]
    return render(request, "account/delete.html", {"form": form, "upcoming": upcoming},
                  status=400 if form.errors else 200)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with our templates; the link in the email starts with SITE_URL.
    Over the mail limit (mail_limits) it answers the same and sends nothing."""

    template_name = "account/password_reset_form.html"
    email_template_name = "account/email/password_reset.txt"
    subject_template_name = "account/email/password_reset_subject.txt"
    success_url = reverse_lazy("account:password_reset_done")

    def form_valid(self, form):
        if not mail_limits.allow(form.cleaned_data["email"], self.request):
            return redirect(self.get_success_url())
        self.extra_email_context = {"site_url": settings.SITE_URL}
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "account/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's; then every other session and older token of the account ends (credentials)."""

    template_name = "account/password_reset_confirm.html"
    success_url = reverse_lazy("account:password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        credentials.password_changed(form.user, language=translation.get_language())
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's (this session stays logged in: update_session_auth_hash); then every other
    session and older token of the account ends, and the address is told (credentials)."""

    def form_valid(self, form):
        response = super().form_valid(form)
        credentials.password_changed(form.user, keep_session=self.request.session.session_key or "",
                                     language=translation.get_language())
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "account/password_reset_complete.html"
