from django.urls import path
from django.utils.translation import gettext_lazy as _

from games.bookings import views

app_name = "bookings"
urlpatterns = [
    path("", views.session_list, name="list"),
    path("<num:pk>/", views.session_detail, name="session"),
    path(_("propose/"), views.propose, name="propose"),
    path(_("proposal/confirm/<str:token>/"), views.confirm_proposal, name="confirm_proposal"),
    path(_("proposal/<str:token>/"), views.proposal_status, name="proposal"),
    path(_("booking/lost-link/"), views.resend_links, name="resend"),
    path(_("booking/check-your-email/"), views.check_email, name="check_email"),
    path(_("booking/confirm/<str:token>/"), views.confirm, name="confirm"),
    path(_("booking/<str:token>/"), views.manage, name="manage"),
    path(_("booking/<str:token>/ludo.ics"), views.booking_ics, name="booking_ics"),
    path(_("calendar.ics"), views.public_feed, name="public_feed"),
    path(_("calendar/host/<str:key>.ics"), views.host_feed, name="host_feed"),
    # hosts
    path(_("hosts/"), views.calendar, name="calendar"),
    path(_("hosts/new/"), views.new_session, name="new_session"),
    path(_("hosts/series/"), views.new_series, name="new_series"),
    path(_("hosts/proposals/"), views.proposals, name="proposals"),
    path(_("hosts/proposals/<num:pk>/<str:action>/"), views.decide_proposal, name="decide_proposal"),
    path(_("hosts/calendar/"), views.my_feed, name="my_feed"),
    path(_("hosts/<num:pk>/"), views.staff_session, name="staff_session"),
    path(_("hosts/<num:pk>/cancel/"), views.staff_cancel_session, name="staff_cancel_session"),
    path(_("hosts/<num:pk>/copy/"), views.staff_reserve_copy, name="staff_reserve_copy"),
    path(_("hosts/<num:pk>/table/"), views.staff_open_table, name="staff_open_table"),
    path(_("hosts/<num:pk>/list.csv"), views.export_csv, name="export_csv"),
    path(_("hosts/copy/<num:pk>/release/"), views.staff_release_copy, name="staff_release_copy"),
    path(_("hosts/booking/<num:pk>/<str:action>/"), views.staff_booking, name="staff_booking"),
]
