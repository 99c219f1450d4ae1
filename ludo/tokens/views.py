"""The account page of personal API tokens: create (shown once), list, revoke."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from ludo.tokens import services
from ludo.tokens.models import PersonalToken


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"), max_length=services.NAME_MAX,
        help_text=gettext_lazy("What the token is for, so you can tell your tokens apart (“my bot”, “laptop”)."),
    )

    def clean_name(self) -> str:
        try:
            return services.clean_token_name(self.cleaned_data["name"])
        except services.TokenError:
            raise forms.ValidationError(
                gettext_lazy("A name needs 1 to %(max)d printable characters.") % {"max": services.NAME_MAX}
            ) from None


@never_cache
@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """List the account's tokens; a POST creates one, whose text this answer alone shows."""
    form = TokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        try:
            row, token = services.create_personal_token(request.user, form.cleaned_data["name"])
        except services.TokenError:
            form.add_error(None, _("You already have %(max)d tokens: revoke one first.")
                           % {"max": services.max_personal_tokens()})
        else:
            created = {"row": row, "token": token}
            form = TokenForm()
    rows = PersonalToken.objects.filter(user=request.user, revoked_at__isnull=True)
    return render(request, "tokens/list.html", {"form": form, "created": created, "tokens": rows,
                                                "max_tokens": services.max_personal_tokens()})


@require_POST
@login_required
def revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        row = services.revoke_personal_token(request.user, token_id)
    except services.TokenError:
        raise Http404(_("No such token.")) from None
    messages.success(request, _("The token “%(name)s” is revoked: it no longer opens anything.") % {"name": row.name})
    return redirect("tokens:list")
