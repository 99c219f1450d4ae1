"""The catalogue's forms: the filters of the list, and the picker's questions."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from catalog.collection import game_traits
from catalog.collection.models import Game, Term

TIME_CHOICES = [("", _("any time"))] + [(str(m), _("%(m)d min or less") % {"m": m}) for m in (15, 30, 45, 60, 90, 120, 180)]
WEIGHT_CHOICES = [("", _("any weight")), ("light", _("light")), ("medium", _("medium")), ("heavy", _("heavy"))]
LANGUAGE_CHOICES = [("", _("any")), *[(str(v), label) for v, label in Game.LanguageDependence.choices]]
SORT_CHOICES = [("popular", _("most owned first")), ("title", _("title")), ("year", _("newest first"))]


class FilterForm(forms.Form):
    q = forms.CharField(label=_("Title"), required=False, max_length=200)
    players = forms.IntegerField(label=_("Players"), required=False, min_value=1, max_value=99)
    best = forms.BooleanField(label=_("best at this count"), required=False)
    time = forms.TypedChoiceField(label=_("Time"), choices=TIME_CHOICES, required=False, coerce=int, empty_value=None)
    age = forms.IntegerField(label=_("Youngest player's age"), required=False, min_value=2, max_value=99)
    weight = forms.ChoiceField(label=_("Weight"), choices=WEIGHT_CHOICES, required=False)
    language = forms.ChoiceField(label=_("Language dependence at most"), choices=LANGUAGE_CHOICES, required=False)
    category = forms.ChoiceField(label=_("Category"), required=False)
    mechanic = forms.ChoiceField(label=_("Mechanic"), required=False)
    theme = forms.ChoiceField(label=_("Theme"), required=False)
    available = forms.BooleanField(label=_("on the shelf now"), required=False)
    sort = forms.ChoiceField(label=_("Sort"), choices=SORT_CHOICES, required=False)

    def __init__(self, *args, terms: list[Term] = (), **kwargs):
        super().__init__(*args, **kwargs)
        for kind, any_label in (("category", _("any category")), ("mechanic", _("any mechanic")), ("theme", _("any theme"))):
            options = sorted(((t.slug, t.name) for t in terms if t.kind == kind), key=lambda o: o[1])
            self.fields[kind].choices = [("", any_label), *options]

    def active(self) -> bool:
        """Whether a filter (not the title search, not the order) is set: the filters
        panel opens then."""
        return any(v not in (None, "", False) for k, v in self.cleaned_data.items() if k not in ("sort", "q"))


class PickerForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("How many are you?"), coerce=int, choices=[(n, str(n)) for n in range(2, 16)], initial=4
    )
    minutes = forms.TypedChoiceField(
        label=_("Time you have"), coerce=int, initial=60,
        choices=[(m, _("%(m)d minutes") % {"m": m}) for m in (20, 30, 45, 60, 90, 120, 180, 240)],
    )
    youngest = forms.IntegerField(label=_("Age of the youngest player"), min_value=3, max_value=99, initial=10)
    mood = forms.ChoiceField(
        label=_("Mood"), initial="anything",
        choices=[("anything", _("anything goes")), ("light", _("light and lively")), ("thinky", _("something to think about"))],
    )
    # Kept out unless asked for (catalog/collection/box_kinds.py).
    also = forms.MultipleChoiceField(
        label=_("Also boxes of these kinds"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=[("campaign", _("campaign or legacy games")), ("miniatures", _("miniatures wargames")),
                 ("roleplaying", _("role-playing games"))],
    )
    # Only games with every ticked trait (catalog/collection/game_traits.py).
    like = forms.MultipleChoiceField(
        label=pgettext_lazy("picker options", "Only"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(game_traits.COOP, _("co-operative games")), (game_traits.PARTY, _("party games")),
                 (game_traits.LITTLE_READING, _("games with little to read"))],
    )
    # Shown to a group the play log knows (an account, or a booking's link): see catalog/playlog/stats.py.
    not_played = forms.BooleanField(label=_("not yet played by us"), required=False)


class FrenchNameForm(forms.Form):
    """A host's French name for a game, and where it comes from (the staff work list)."""

    name = forms.CharField(label=_("French name"), max_length=200)
    source = forms.ChoiceField(label=_("Source"), choices=[
        ("edition", _("the box of a French edition")),
        ("publisher", _("the publisher's catalogue")),
        ("library", _("a ludothèque's record")),
        ("traditional", _("the traditional name of the game")),
    ])
