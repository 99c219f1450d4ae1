from django.urls import path
from django.utils.translation import gettext_lazy as _

from games.living import views

app_name = "living"
urlpatterns = [
    # The living room (games/living/views.py): /salon/ and /en/living-room/.
    path(_("living-room/"), views.join, name="join"),
    path(_("living-room/new/"), views.new, name="new"),
    path(_("living-room/session/<num:pk>/"), views.from_session, name="session"),
    path(_("living-room/<str:code>/"), views.join_code, name="code"),
    path(_("play/table/<num:table_id>/screen/"), views.screen, name="screen"),
]
