"""What staff say about a copy on the shelf."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class MissingPartForm(forms.Form):
    description = forms.CharField(label=_("What is missing?"), max_length=300)
