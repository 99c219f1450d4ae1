from django.urls import path

from games.bookings import views

app_name = "bookings"
urlpatterns = [
    path("", views.session_list, name="list"),
    path("<int:pk>/", views.session_detail, name="session"),
    path("proposer/", views.propose, name="propose"),
    path("proposition/<str:token>/", views.proposal_status, name="proposal"),
    path("reservation/lien-perdu/", views.resend_links, name="resend"),
    path("reservation/<str:token>/", views.manage, name="manage"),
    path("reservation/<str:token>/ludo.ics", views.booking_ics, name="booking_ics"),
    path("agenda.ics", views.public_feed, name="public_feed"),
    path("agenda/hote/<str:key>.ics", views.host_feed, name="host_feed"),
    # hosts
    path("hotes/", views.calendar, name="calendar"),
    path("hotes/nouvelle/", views.new_session, name="new_session"),
    path("hotes/serie/", views.new_series, name="new_series"),
    path("hotes/propositions/", views.proposals, name="proposals"),
    path("hotes/propositions/<int:pk>/<str:action>/", views.decide_proposal, name="decide_proposal"),
    path("hotes/agenda/", views.my_feed, name="my_feed"),
    path("hotes/<int:pk>/", views.staff_session, name="staff_session"),
    path("hotes/<int:pk>/annuler/", views.staff_cancel_session, name="staff_cancel_session"),
    path("hotes/<int:pk>/exemplaire/", views.staff_reserve_copy, name="staff_reserve_copy"),
    path("hotes/<int:pk>/table/", views.staff_open_table, name="staff_open_table"),
    path("hotes/<int:pk>/liste.csv", views.export_csv, name="export_csv"),
    path("hotes/exemplaire/<int:pk>/liberer/", views.staff_release_copy, name="staff_release_copy"),
    path("hotes/reservation/<int:pk>/<str:action>/", views.staff_booking, name="staff_booking"),
]
