"""The admin: for looking things up. Seats and statuses change through the
services (the sessions pages), never by editing a row here."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from games.bookings import services
from games.bookings.errors import BookingError
from games.bookings.models import (
    Booking,
    CopyReservation,
    HostFeed,
    OutgoingEmail,
    Proposal,
    Session,
    SessionSeries,
    VerifiedAddress,
)


class SessionAdminForm(forms.ModelForm):
    class Meta:
        model = Session
        fields = "__all__"

    def clean_capacity(self):
        capacity = self.cleaned_data["capacity"]
        if self.instance.pk and capacity < self.instance.seats_taken:
            raise forms.ValidationError(
                _("%(taken)s seats are already booked: the capacity cannot go below that.")
                % {"taken": self.instance.seats_taken}
            )
        return capacity


class BookingInline(admin.TabularInline):
    model = Booking
    extra = 0
    can_delete = False
    fields = ("name", "email", "seats", "status", "attended", "created_at")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    form = SessionAdminForm
    list_display = ("title", "starts_at", "room", "seats_taken", "capacity", "visibility", "status", "host")
    list_filter = ("status", "visibility", "requires_approval")
    search_fields = ("title", "room", "notes")
    date_hierarchy = "starts_at"
    autocomplete_fields = ("games",)
    raw_id_fields = ("table", "series")
    readonly_fields = ("seats_taken", "status", "remind_at", "created_by", "created_at", "updated_at")
    inlines = [BookingInline]


@admin.register(Booking)
class BookingAdmin(admin.ModelAdmin):
    list_display = ("name", "email", "session", "seats", "status", "attended", "created_at")
    list_filter = ("status", "attended")
    search_fields = ("name", "email", "session__title")
    readonly_fields = [f.name for f in Booking._meta.fields]
    actions = ["approve", "cancel"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Approve the selected bookings"))
    def approve(self, request, queryset):
        self._each(request, queryset, lambda b: services.approve(b.pk, request.user))

    @admin.action(description=_("Cancel the selected bookings (the guests are told)"))
    def cancel(self, request, queryset):
        self._each(request, queryset, lambda b: services.cancel(b.pk, by_staff=request.user))

    def _each(self, request, queryset, action):
        done = 0
        for booking in queryset:
            try:
                action(booking)
                done += 1
            except BookingError as exc:
                self.message_user(request, f"{booking}: {exc.message}", messages.WARNING)
        if done:
            self.message_user(request, _("%(n)s bookings updated.") % {"n": done}, messages.SUCCESS)


@admin.register(SessionSeries)
class SessionSeriesAdmin(admin.ModelAdmin):
    list_display = ("title", "first_date", "start_time", "end_time", "until", "count")
    readonly_fields = ("template", "report", "created_by", "created_at")


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin):
    list_display = ("game", "name", "starts_at", "seats", "status", "created_at")
    list_filter = ("status",)
    readonly_fields = [f.name for f in Proposal._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(CopyReservation)
class CopyReservationAdmin(admin.ModelAdmin):
    list_display = ("copy", "session", "taken_at", "returned_at")
    readonly_fields = [f.name for f in CopyReservation._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(HostFeed)
class HostFeedAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at")
    readonly_fields = ("user", "key", "created_at")


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(admin.ModelAdmin):
    """What the worker sent, is about to send, or could not send (and why)."""

    list_display = ("kind", "to", "status", "attempts", "created_at", "sent_at", "next_attempt_at")
    list_filter = ("status", "kind")
    search_fields = ("to",)
    readonly_fields = [f.name for f in OutgoingEmail._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(VerifiedAddress)
class VerifiedAddressAdmin(admin.ModelAdmin):
    list_display = ("user", "email", "verified_at")
    search_fields = ("email", "user__username")
    readonly_fields = ("user", "email", "verified_at")

    def has_add_permission(self, request):
        return False
