"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets pass the origin check (the site's own origin: scheme, host and port) and the session
and auth middleware before reaching a consumer; a handshake that carries an API
token instead goes straight to the consumers as the token's person
(ludo/tokens/asgi.py).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from ludo.tokens.asgi import TokenAuthMiddleware  # noqa: E402
from ludo.uploads import RequestBodyLimit  # noqa: E402
from ludo.ws_origin import origin_allowed  # noqa: E402


class SiteOriginValidator:
    """Lets a handshake through only from the site's own origin, compared on
    scheme, host and port (ludo/ws_origin.py), reading the settings at each
    handshake (test overrides included). Refused: a 403 before the consumer."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        origin = next((value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"origin"), None)
        if origin_allowed(scope, origin):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


sockets = URLRouter(websocket_urlpatterns)
application = ProtocolTypeRouter(
    {
        "http": RequestBodyLimit(django_asgi_app),  # bodies past the limit refused before they are read
        "websocket": TokenAuthMiddleware(
            # Cookies only for the language: the token says who is asking.
            token_app=CookieMiddleware(sockets),
            session_app=SiteOriginValidator(AuthMiddlewareStack(sockets)),
        ),
    }
)

# A server process runs for days with thousands of sockets. The objects made at
# start-up (Django, the apps, the routing) live as long as the process: freeze
# them out of the garbage collector, and collect the young generation less
# often. At 600 sockets under load this took the collector's pauses of the event
# loop from 30-400 ms to 10-30 ms (docs/performance.md, "Tables").
gc.collect()
gc.freeze()
gc.set_threshold(20_000, 20, 50)
