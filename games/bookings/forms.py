"""Forms of the sessions pages: they parse; the services decide."""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from catalog import text as textlib
from catalog.collection.models import Game
from catalog.shelves.models import Copy
from games.bookings.models import MAX_CAPACITY, Session

AMBIGUOUS_CHOICES = [
    ("raise", _("refuse such a time (choose another)")),
    ("earlier", _("the first one (summer time, CEST)")),
    ("later", _("the second one (winter time, CET)")),
]


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


class BookingForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=100)
    email = forms.EmailField(label=_("Email"), max_length=254,
                             help_text=_("For the confirmation and the link to change or cancel."))
    seats = forms.IntegerField(label=_("How many of you?"), min_value=1, max_value=MAX_CAPACITY, initial=1)
    note = forms.CharField(label=_("A word for the hosts (optional)"), max_length=500, required=False,
                           widget=forms.Textarea(attrs={"rows": 2}))


class ChangeForm(forms.Form):
    seats = forms.IntegerField(label=_("How many of you?"), min_value=1, max_value=MAX_CAPACITY)
    name = forms.CharField(label=_("Name"), max_length=100)


class ResendForm(forms.Form):
    email = forms.EmailField(label=_("Email"), max_length=254)


def find_game(raw: str) -> Game | None:
    """A catalogue game from its slug or any of its names (exact, accents and case aside)."""
    raw = (raw or "").strip()
    if not raw:
        return None
    game = Game.objects.filter(slug=raw).first()
    if game is not None:
        return game
    folded = textlib.fold_query(raw)
    matches = Game.objects.filter(Q(title__iexact=raw) | Q(title_fr__iexact=raw) | Q(title_en__iexact=raw))
    found = list(matches[:2])
    if len(found) == 1:
        return found[0]
    for game in Game.objects.filter(name_key__icontains=folded)[:50]:
        if folded in {textlib.fold_query(n) for n in game.all_names() if n}:
            return game
    return None


class GameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Game"))
        kwargs.setdefault("help_text", _("Its title as in the catalogue."))
        super().__init__(max_length=300, **kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        game = find_game(value)
        if game is None:
            raise forms.ValidationError(_("No game of that name in the catalogue."))
        return game


class GamesField(forms.CharField):
    """Several games, one per line."""

    widget = forms.Textarea(attrs={"rows": 3})

    def clean(self, value):
        value = super().clean(value)
        games, unknown = [], []
        for line in (value or "").splitlines():
            if line.strip():
                game = find_game(line)
                (games.append(game) if game else unknown.append(line.strip()))
        if unknown:
            raise forms.ValidationError(
                _("Not in the catalogue: %(names)s") % {"names": ", ".join(unknown)}
            )
        return list(dict.fromkeys(games))


class SlotForm(forms.Form):
    """A wall-clock slot at the house."""

    day = forms.DateField(label=_("Date"), widget=DateInput)
    start = forms.TimeField(label=_("From"), widget=TimeInput)
    end = forms.TimeField(label=_("To"), widget=TimeInput, help_text=_("Before the start time: the next day."))


class ProposalForm(SlotForm):
    game = GameField()
    seats = forms.IntegerField(label=_("How many of you?"), min_value=1, max_value=MAX_CAPACITY, initial=2)
    name = forms.CharField(label=_("Your name"), max_length=100)
    email = forms.EmailField(label=_("Email"), max_length=254)
    message = forms.CharField(label=_("Message (optional)"), max_length=2000, required=False,
                              widget=forms.Textarea(attrs={"rows": 3}))

    field_order = ["game", "day", "start", "end", "seats", "name", "email", "message"]

    def clean_game(self):
        from boxes.status import unplayable_game_ids  # boxes a count found not playable

        game = self.cleaned_data.get("game")
        if game is not None and game.pk in unplayable_game_ids():
            raise forms.ValidationError(_("No box of this game can be played now: a piece is missing."))
        return game


class SettingsForm(forms.Form):
    """What a host sets on a session (new or existing)."""

    title = forms.CharField(label=_("Title"), max_length=200, required=False,
                            help_text=_("Empty: the games' names."))
    room = forms.CharField(label=_("Room or table"), max_length=100, required=False)
    capacity = forms.IntegerField(label=_("Seats"), min_value=1, max_value=MAX_CAPACITY, initial=8)
    games = GamesField(label=_("Games on offer"), required=False, help_text=_("One per line, as in the catalogue."))
    notes = forms.CharField(label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Session.Visibility.choices,
                                   initial=Session.Visibility.PUBLIC)
    requires_approval = forms.BooleanField(label=_("Bookings need a host's approval"), required=False)
    waiting_list_size = forms.IntegerField(label=_("Waiting list size"), min_value=0, max_value=500, initial=20,
                                           help_text=_("0: no waiting list."))
    offer_minutes = forms.IntegerField(label=_("Time to accept a freed seat (minutes)"), min_value=5,
                                       max_value=14 * 24 * 60, initial=12 * 60)
    cancel_notice_hours = forms.IntegerField(label=_("Minimum notice to cancel or change (hours)"), min_value=0,
                                             max_value=14 * 24, initial=24)
    max_changes = forms.IntegerField(label=_("Changes allowed per booking"), min_value=0, max_value=50, initial=3)

    def service_values(self) -> dict:
        data = dict(self.cleaned_data)
        return {k: data[k] for k in (
            "title", "room", "capacity", "notes", "visibility", "requires_approval", "waiting_list_size",
            "offer_minutes", "cancel_notice_hours", "max_changes",
        )}


class SessionForm(SlotForm, SettingsForm):
    ambiguous = forms.ChoiceField(
        label=_("If the time happens twice (the night clocks go back)"), choices=AMBIGUOUS_CHOICES,
        initial="raise",
    )
    field_order = ["title", "day", "start", "end", "ambiguous", "games", "capacity", "room"]


class SeriesForm(SettingsForm):
    first_date = forms.DateField(label=_("First date"), widget=DateInput,
                                 help_text=_("Its weekday is the rule's: every week on that day."))
    start = forms.TimeField(label=_("From"), widget=TimeInput)
    end = forms.TimeField(label=_("To"), widget=TimeInput, help_text=_("Before the start time: the next day."))
    until = forms.DateField(label=_("Until (inclusive)"), widget=DateInput, required=False)
    count = forms.IntegerField(label=_("Or a number of dates"), min_value=1, max_value=200, required=False)
    ambiguous = forms.ChoiceField(
        label=_("If the time happens twice (the night clocks go back)"), choices=AMBIGUOUS_CHOICES[1:],
        initial="earlier",
    )
    field_order = ["title", "first_date", "start", "end", "until", "count", "ambiguous", "games", "capacity", "room"]

    def clean(self):
        data = super().clean()
        if (data.get("until") is None) == (data.get("count") is None):
            raise forms.ValidationError(_("Give either an end date or a number of dates."))
        return data


class CopyForm(forms.Form):
    copy = forms.ModelChoiceField(label=_("Copy"), queryset=Copy.objects.none())

    def __init__(self, *args, session: Session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["copy"].queryset = (Copy.objects.filter(game__in=session.games.all()).select_related("game")
                                        .exclude(box_state__unplayable=True))  # boxes.status


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason (sent to the guests)"), max_length=500, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))


class ApproveProposalForm(forms.Form):
    capacity = forms.IntegerField(label=_("Seats"), min_value=1, max_value=MAX_CAPACITY)
    room = forms.CharField(label=_("Room or table"), max_length=100, required=False)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Session.Visibility.choices,
                                   initial=Session.Visibility.PUBLIC)
