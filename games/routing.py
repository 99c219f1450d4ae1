from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/ping/", consumers.PingConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/tables/<num:table_id>/", consumers.TableConsumer.as_asgi()),
]
