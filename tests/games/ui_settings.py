"""Settings for the servers of the browser tests of live tables: the site's own
settings, with the bots' think delay read from the environment
(LUDO_BOT_THINK_SECONDS, 0.2 s unless told), so a game against a bot does not
wait a second before each of its moves. Used by tests/games/ui_server.py, which
starts daphne and the worker with DJANGO_SETTINGS_MODULE pointing here."""

import os

from ludo.settings import *  # noqa: F403

LUDO_BOT_THINK_SECONDS = float(os.environ.get("LUDO_BOT_THINK_SECONDS", "0.2"))
