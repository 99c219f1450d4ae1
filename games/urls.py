from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("jouer/", views.play, name="play"),
    path("sessions/", views.sessions, name="sessions"),
]
