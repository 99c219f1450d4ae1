"""Site-wide pages: home, health check, sign-up, guest name, lock-out page, language switch."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from urllib.parse import urlsplit

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from ludo.account import address, guest_games
from ludo.accounts import (
    GUEST_NAME_KEY,
    GUEST_NAME_MAX,
    NameTaken,
    clean_guest_name,
    has_hidden_characters,
    name_is_reserved,
)
from ludo.guests import guest_id
from ludo.limits import rate_limited
from ludo.language import save_account_language

log = logging.getLogger(__name__)
HEALTH_TIMEOUT = 2.0


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    finally:
        # This runs on a pool thread, not the request's: hand the connection
        # back (to the pool, where there is one) rather than leave it open.
        connection.close()


async def _database_probe() -> bool:
    # Not thread-sensitive: a database that hangs (or a pool waiting for a
    # connection) must not block the one thread every other request shares.
    return await sync_to_async(_database_ok, thread_sensitive=False)()


async def _channel_layer_probe() -> bool:
    """Send a message to a fresh channel of this process and read it back."""
    layer = get_channel_layer()
    if layer is None:
        return False
    channel = await layer.new_channel("healthz.")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.ping", "token": token})
    message = await layer.receive(channel)
    # Leave the channel as a consumer does when it closes: a cancelled receive
    # makes the layer drop it (the pub/sub layer unsubscribes from Redis), so
    # probing every few seconds leaks nothing.
    closing = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)
    closing.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await closing
    return message.get("token") == token


def _log_late_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("healthz: late failure: %r", task.exception())


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """200 only when both the database and the channel layer answer within HEALTH_TIMEOUT.

    Both probes run at once; one that has not answered in time is reported as
    such and left to finish in the background (asyncio.wait_for would wait for
    a stuck probe to acknowledge its cancellation).
    """
    tasks = {
        "database": asyncio.ensure_future(_database_probe()),
        "channel_layer": asyncio.ensure_future(_channel_layer_probe()),
    }
    await asyncio.wait(tasks.values(), timeout=HEALTH_TIMEOUT)
    checks: dict[str, str] = {}
    for name, task in tasks.items():
        if not task.done():
            task.cancel()
            task.add_done_callback(_log_late_failure)
            checks[name] = "timeout"
        elif task.exception() is not None:
            log.warning("healthz: %s failed: %r", name, task.exception())
            checks[name] = f"error: {type(task.exception()).__name__}"
        else:
            checks[name] = "ok" if task.result() else "wrong answer"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks}, status=200 if healthy else 503
    )


def locked_out(request: HttpRequest, original_response: HttpResponse | None = None, credentials=None) -> HttpResponse:
    """django-axes' lockout answer: a clear page in the visitor's language, status 429."""
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)


class SignUpForm(UserCreationForm):
    """A name nobody goes by (ludo.accounts' rules, as for guests), and an address
    confirmed by a link; whether another account uses the address is never said."""

    email = forms.EmailField(label=gettext_lazy("Email"), required=False, help_text=gettext_lazy(
        "We send a link to confirm it: a confirmed address lets you play rated games, book sessions "
        "directly and reset a forgotten password."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = super().clean_username()
        if username is None:  # taken: Django's form has said so
            return username
        if has_hidden_characters(username):
            raise forms.ValidationError(gettext_lazy("A name cannot hold control, direction or invisible characters."))
        if name_is_reserved(username):
            raise forms.ValidationError(
                gettext_lazy("This name belongs to an account or to the house: choose another one."))
        return username


# A house behind one address signs up many guests in an evening; a script does not
# get to fill the accounts table (or the outbox, with confirmation links) from one.
@rate_limited("signup", per_person=(10, 600.0), per_address=(30, 3600.0))
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            address.ask(user, translation.get_language())
            # This session's own guest games, never another's (ludo.account.guest_games).
            carried = guest_games.carry_over(request.session, user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        request.session.pop(GUEST_NAME_KEY, None)
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
        if carried:
            messages.info(request, ngettext(
                "Your finished game as a guest is now in your account.",
                "Your %(count)s finished games as a guest are now in your account.", carried) % {"count": carried})
        if user.email:
            messages.info(request, _("A link is on its way to %(email)s: follow it to confirm your address.")
                          % {"email": user.email})
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class GuestNameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Display name"), max_length=GUEST_NAME_MAX)

    def clean_name(self) -> str:
        try:
            return clean_guest_name(self.cleaned_data["name"])
        except NameTaken:
            raise forms.ValidationError(
                gettext_lazy("This name belongs to an account or to the house: choose another one.")
            ) from None
        except ValueError:
            raise forms.ValidationError(
                gettext_lazy("A display name needs 2 to %(max)d printable characters.") % {"max": GUEST_NAME_MAX}
            ) from None


def _next_url(request: HttpRequest, fallback: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return fallback


@rate_limited("guest-name", per_person=(10, 600.0), per_address=(30, 600.0))
def guest(request: HttpRequest) -> HttpResponse:
    """Play without an account: choose a display name kept in the session (with
    the guest's identity, ludo.guests)."""
    if request.user.is_authenticated:
        return redirect("home")
    form = GuestNameForm(request.POST or None, initial={"name": request.session.get(GUEST_NAME_KEY, "")})
    if request.method == "POST" and form.is_valid():
        request.session[GUEST_NAME_KEY] = form.cleaned_data["name"]
        guest_id(request.session, create=True)
        messages.success(request, _("You play as %(name)s.") % {"name": form.cleaned_data["name"]})
        return redirect(_next_url(request))
    return render(request, "registration/guest.html", {"form": form, "next": _next_url(request, "")})


@require_POST
def guest_forget(request: HttpRequest) -> HttpResponse:
    request.session.pop(GUEST_NAME_KEY, None)
    return redirect("home")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language, resolving ``next`` in the language of its own path; an
    account also saves the choice (ludo.models.Profile).

    With prefix_default_language=False, /i18n/setlang/ always runs in French, so
    Django's view cannot resolve an English ``next`` (/en/...) and would send the
    visitor back to the English page after they chose French.
    """
    next_url = request.POST.get("next") or ""
    from_language = translation.get_language_from_path(urlsplit(next_url).path) or settings.LANGUAGE_CODE
    with translation.override(from_language):
        response = i18n.set_language(request)
    # An account keeps the choice too, so that it follows the person to other browsers.
    save_account_language(request.user, request.POST.get("language", ""))
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's): send them to ours."""
    return redirect(static("img/favicon.svg"), permanent=True)
