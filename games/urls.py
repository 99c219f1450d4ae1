from django.urls import path
from django.utils.translation import gettext_lazy as _

from games import api, lessons_views, pages

app_name = "games"
urlpatterns = [
    # The pages of live play (games/pages.py): the lobby, a table, its replay; the
    # lessons (games/lessons_views.py). Paths in English, French in the catalogue
    # (/jouer/ and /en/play/); old English paths redirect (ludo.language).
    path(_("play/"), pages.lobby, name="play"),
    path(_("play/new-table/"), pages.create, name="create"),
    path(_("play/against-a-bot/"), pages.quick, name="quick"),
    path(_("play/table/<num:table_id>/"), pages.table, name="table"),
    path(_("play/table/<num:table_id>/replay/"), pages.replay, name="replay"),
    path(_("play/learn/<slug:slug>/"), lessons_views.lesson, name="lesson"),
    path(_("play/learn/<slug:slug>/<num:number>/try/"), lessons_views.attempt, name="lesson-try"),
    # JSON API for the lobby, tables, replays (docs/protocol.md, "HTTP API").
    path("api/games/", api.games, name="api-games"),
    path("api/tables/", api.tables, name="api-tables"),
    path("api/tables/quick/", api.quick, name="api-quick"),
    path("api/tables/<num:table_id>/", api.table, name="api-table"),
    path("api/tables/<num:table_id>/join/", api.join, name="api-join"),
    path("api/tables/<num:table_id>/leave/", api.leave, name="api-leave"),
    path("api/tables/<num:table_id>/bots/", api.bots, name="api-bots"),
    path("api/tables/<num:table_id>/start/", api.start, name="api-start"),
    path("api/tables/<num:table_id>/move/", api.move, name="api-move"),
    path("api/tables/<num:table_id>/draw/", api.draw, name="api-draw"),
    path("api/tables/<num:table_id>/resign/", api.resign, name="api-resign"),
    path("api/tables/<num:table_id>/abort/", api.abort, name="api-abort"),
    path("api/tables/<num:table_id>/rematch/", api.rematch, name="api-rematch"),
    path("api/tables/<num:table_id>/kick/", api.kick, name="api-kick"),
    path("api/tables/<num:table_id>/chat/", api.chat, name="api-chat"),
    path("api/tables/<num:table_id>/end/", api.end, name="api-end"),
    path("api/tables/<num:table_id>/remove/", api.remove, name="api-remove"),
    path("api/tables/<num:table_id>/replay/", api.replay, name="api-replay"),
    path("api/tables/<num:table_id>/export/", api.export, name="api-export"),
    path("api/chat/<num:message_id>/hide/", api.hide_chat, name="api-hide-chat"),
]
