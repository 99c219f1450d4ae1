"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets pass the origin check (the site's own hosts only) and the session
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
from channels.security.websocket import OriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from ludo.tokens.asgi import TokenAuthMiddleware  # noqa: E402
from ludo.uploads import RequestBodyLimit  # noqa: E402


class SiteOriginValidator(OriginValidator):
    """Channels' AllowedHostsOriginValidator, reading ALLOWED_HOSTS at each
    handshake rather than once at import, so the check always follows the
    settings in force (test overrides included). A missing Origin is refused."""

    def __init__(self, application) -> None:
        super().__init__(application, [])

    def valid_origin(self, parsed_origin) -> bool:
        self.allowed_origins = list(settings.ALLOWED_HOSTS)
        return super().valid_origin(parsed_origin)


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
