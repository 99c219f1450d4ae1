from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.shelves.models import Copy
from ludo.uploads import LimitedImageField


class ContentsForm(forms.Form):
    text = forms.CharField(
        label=_("Contents, one item per line"), widget=forms.Textarea(attrs={"rows": 12, "autocapitalize": "none"}),
        help_text=_("Such as “Pieces: 12 violet pieces”; a leading ! marks an item the game cannot do without."),
        max_length=20_000, required=False,
    )


class StrayForm(forms.Form):
    belongs_to = forms.CharField(label=_("Game it belongs to"), max_length=200)
    description = forms.CharField(label=_("What piece"), max_length=300)


class GuestMissingForm(forms.Form):
    description = forms.CharField(label=_("Which piece is missing?"), max_length=300,
                                  widget=forms.TextInput(attrs={"autocomplete": "off"}))
    photo = LimitedImageField(label=_("A photo (optional)"), required=False,
                              widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}))


class GuestFoundForm(forms.Form):
    description = forms.CharField(label=_("What did you find?"), max_length=300,
                                  widget=forms.TextInput(attrs={"autocomplete": "off"}))
    belongs_to = forms.CharField(label=_("Which game does it belong to, if you know?"), max_length=200,
                                 required=False)
    photo = LimitedImageField(label=_("A photo (optional)"), required=False,
                              widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}))


CONDITIONS = Copy.Condition.choices
