"""The page correction form of the rulebooks' reader."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class PageCorrectionForm(forms.Form):
    text = forms.CharField(label=_("Transcription"), widget=forms.Textarea(attrs={"rows": 18}), required=False, max_length=100_000)
