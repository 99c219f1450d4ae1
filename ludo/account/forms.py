"""The account page's forms: language, email address, deletion."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _



class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language of the site"), required=False,
        choices=[("", _("My browser’s language"))] + [(code, name) for code, name in settings.LANGUAGES],
    )


class _WithPassword(forms.Form):
    """A form that asks for the account's current password."""

    password = forms.CharField(label=_("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."))
        return password


class EmailForm(_WithPassword):
    """Never says whether another account uses the address (the view answers the same)."""

    email = forms.EmailField(label=_("New email address"), max_length=254)
    field_order = ["email", "password"]

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email.lower() == (self.user.email or "").lower():
            raise forms.ValidationError(_("This is already your address."))
        return email


class DeleteForm(_WithPassword):
    confirm = forms.BooleanField(label=_("I understand that this cannot be undone."))
