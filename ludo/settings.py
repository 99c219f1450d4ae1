"""Ludo's settings. Everything that varies between machines comes from the
environment (see README, "Configuration"); the defaults are safe for development
and run the embedded configuration: SQLite and the in-memory channel layer.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from ludo.client_ip import parse_networks
from ludo.env import (
    check_redis_url,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_path,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = env_path("LUDO_VAR_DIR", BASE_DIR / "var")

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not ALLOWED_HOSTS and not DEBUG:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off (comma-separated host names)")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if not _origin.startswith(("http://", "https://")):
        raise ImproperlyConfigured(f"CSRF_TRUSTED_ORIGINS entries must start with http:// or https://, not {_origin!r}")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "ludo",
    "catalog",
    "games",
    "games.bookings",
    "games.ratings",
    "catalog.playlog",
    "games.living",
    "ludo.tokens",
    "ludo.bulkheads",
    "tournaments",
    "boxes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ludo.language.LanguageChoiceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "ludo.urls"
ASGI_APPLICATION = "ludo.asgi.application"
WSGI_APPLICATION = "ludo.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ludo.context_processors.site",
            ],
        },
    },
]

# -- storage ---------------------------------------------------------------------------

DATABASES = {"default": parse_database_url(env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'ludo.sqlite3'}"))}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A relative SQLite path is relative to the project, not to the current directory.
    _sqlite_path = BASE_DIR / DATABASES["default"]["NAME"]
    DATABASES["default"]["NAME"] = str(_sqlite_path)
    _sqlite_path.parent.mkdir(parents=True, exist_ok=True)
elif DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A connection pool per process: under ASGI every sync_to_async call may run
    # on another thread, and opening a PostgreSQL connection per call cost about
    # 2.5x of table throughput (docs/performance.md). 0 turns the pool off.
    _pool_size = env_int("DATABASE_POOL_SIZE", 20, minimum=0, maximum=500)
    if _pool_size:
        DATABASES["default"]["OPTIONS"]["pool"] = {"min_size": 1, "max_size": _pool_size, "timeout": 5}
# PostgreSQL connections per server process for the moves of table sockets,
# played on the event loop without a database thread (games.services.play_move_async);
# 0 plays them in database threads like every other action.
LUDO_MOVE_CONNECTIONS = env_int("LUDO_MOVE_CONNECTIONS", 10, minimum=0, maximum=100)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL").strip()
CHANNELS_PREFIX = env_str("CHANNELS_PREFIX", "ludo").strip() or "ludo"
CHANNELS_BACKEND = env_choice("CHANNELS_BACKEND", "pubsub", ("pubsub", "core"))
if REDIS_URL:
    check_redis_url(REDIS_URL)
    # Host settings from /work/shared/design/PERF-NOTES.md: redis-py's 5 s socket
    # timeout equals the layer's blocking read and closes idle game sockets; its
    # pool of 100 raises instead of waiting under load; a connect timeout keeps an
    # unreachable Redis from hanging a consumer (or /healthz) for minutes.
    _redis_host = {
        "address": REDIS_URL,
        "socket_timeout": None,
        "socket_connect_timeout": 5,
        "socket_keepalive": True,
        "max_connections": 2000,
    }
    if CHANNELS_BACKEND == "pubsub":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [_redis_host], "prefix": CHANNELS_PREFIX},
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                # capacity is per process inbox, not per player: 100 drops moves.
                "CONFIG": {"hosts": [_redis_host], "prefix": CHANNELS_PREFIX, "capacity": 5000},
            }
        }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

MEDIA_ROOT = env_path("MEDIA_ROOT", VAR_DIR / "media")
MEDIA_URL = "/media/"  # a view that checks permission (catalog.media), never the folder itself
# How a permitted media file is sent: by Django itself ("django"), or by the reverse
# proxy from an internal location, told by X-Accel-Redirect ("nginx") or X-Sendfile
# ("sendfile"); see the README's production section.
MEDIA_SERVE = env_choice("MEDIA_SERVE", "django", ("django", "nginx", "sendfile"))
MEDIA_INTERNAL_URL = env_str("MEDIA_INTERNAL_URL", "/_media/").strip() or "/_media/"
if not (MEDIA_INTERNAL_URL.startswith("/") and MEDIA_INTERNAL_URL.endswith("/")):
    raise ImproperlyConfigured("MEDIA_INTERNAL_URL must start and end with a slash, e.g. /_media/")
STATIC_URL = "/static/"
STATIC_ROOT = env_path("STATIC_ROOT", BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# The shelf check's QR decoder (npm: jsqr, a dependency in package.json; `make node-deps`),
# served from node_modules as it is, never copied into the repository.
if (BASE_DIR / "node_modules/jsqr/dist").is_dir():
    STATICFILES_DIRS.append(("vendor/jsqr", BASE_DIR / "node_modules/jsqr/dist"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Text extraction of scans runs in a process of its own (catalog.rulebooks.extractor) with these
# limits; a document that reaches one fails with the reason, the worker goes on.
LUDO_EXTRACTION = {
    "memory_mb": env_int("LUDO_EXTRACTION_MEMORY_MB", 1536, minimum=256),  # address space (RLIMIT_AS)
    "cpu_seconds": env_int("LUDO_EXTRACTION_CPU_SECONDS", 1800, minimum=5),
    "wall_seconds": env_int("LUDO_EXTRACTION_WALL_SECONDS", 3600, minimum=5),
    # A page rendered at 300 dpi: A4 is 8.7 megapixels, A2 35.
    "max_megapixels": env_int("LUDO_EXTRACTION_MAX_MEGAPIXELS", 40, minimum=1, maximum=500),
}
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
# Checked before a body is read (ludo.uploads): a request body, and one uploaded file.
# The README's proxy example refuses larger bodies too (client_max_body_size).
LUDO_MAX_UPLOAD_BYTES = env_int("LUDO_MAX_UPLOAD_MB", 80, minimum=1, maximum=2048) * 1024 * 1024
LUDO_MAX_REQUEST_BYTES = env_int("LUDO_MAX_REQUEST_MB", 100, minimum=1, maximum=4096) * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "ludo.uploads.LimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# -- people ------------------------------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
HOSTS_GROUP = "Hôtes"

# The reverse proxies whose X-Forwarded-For is believed (addresses or networks,
# comma-separated); empty: nobody's, the socket peer is the client (ludo/client_ip.py).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
parse_networks(TRUSTED_PROXIES)
# Every per-address budget counts an IPv6 address with its whole network of this
# prefix length (one subscriber's /64), IPv4 addresses alone (ludo/client_ip.py).
LUDO_IPV6_PREFIX = env_int("LUDO_IPV6_PREFIX", 64, minimum=1, maximum=128)

# Login throttling (ludo/login_throttle.py): a username is locked for
# AXES_COOLOFF_MINUTES after AXES_FAILURE_LIMIT failures from any address, and an
# address after AXES_ADDRESS_FAILURE_LIMIT failures over any usernames.
AXES_FAILURE_LIMIT = "ludo.login_throttle.failure_limit"
LUDO_USERNAME_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
LUDO_ADDRESS_FAILURE_LIMIT = env_int("AXES_ADDRESS_FAILURE_LIMIT", 20, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "ludo.client_ip.budget_ip"  # an IPv6 /64 counts as one address
# Our own page (in the visitor's language, with the wait in minutes), status 429.
AXES_LOCKOUT_CALLABLE = "ludo.views.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

# -- language and time -------------------------------------------------------------------

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
# The language switch's choice is kept a year (ludo.language; an account also keeps it).
LANGUAGE_COOKIE_AGE = 365 * 86400
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_TZ = True

# -- email -------------------------------------------------------------------------------
# Django 6.1's MAILERS; the environment variables keep the familiar EMAIL_* names.

EMAIL_BACKEND_PATH = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
if EMAIL_BACKEND_PATH == "django.core.mail.backends.smtp.EmailBackend":
    _use_tls = env_bool("EMAIL_USE_TLS", False)
    _use_ssl = env_bool("EMAIL_USE_SSL", False)
    if _use_tls and _use_ssl:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on")
    _mail_options = {
        "host": env_str("EMAIL_HOST", "localhost"),
        "port": env_int("EMAIL_PORT", 465 if _use_ssl else 587 if _use_tls else 25, minimum=1, maximum=65535),
        "username": env_str("EMAIL_HOST_USER"),
        "password": env_str("EMAIL_HOST_PASSWORD"),
        "use_tls": _use_tls,
        "use_ssl": _use_ssl,
        "timeout": env_int("EMAIL_TIMEOUT", 10, minimum=1),
    }
else:
    _mail_options = {}
MAILERS = {"default": {"BACKEND": EMAIL_BACKEND_PATH, "OPTIONS": _mail_options}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Ludo <ludo@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# -- security ----------------------------------------------------------------------------

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # daphne sits behind a reverse proxy that terminates TLS and sets X-Forwarded-Proto.
    if env_bool("BEHIND_HTTPS_PROXY", True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Only the site's own scripts, styles, images and sockets; no inline script.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))},
    "loggers": {"axes": {"level": "WARNING"}, "daphne": {"level": "WARNING"}},
}

# -- live tables (games/services/, games/consumers.py, docs/protocol.md) -------------------

LUDO_BOT_THINK_SECONDS = env_int("LUDO_BOT_THINK_MS", 1000, minimum=0, maximum=60_000) / 1000
# How long a worker holds a bot's turn while the bot thinks; a worker that dies
# meanwhile delays that table by at most this much (another worker takes over).
LUDO_BOT_LEASE_SECONDS = env_int("LUDO_BOT_LEASE_MS", 10_000, minimum=1000, maximum=600_000) / 1000
# Messages per 20 s: per socket (lichess's figure for a player), per person on one process.
# LUDO_WS_RATE_WINDOW_MS shortens the window (tests that ride a limit out).
_WS_RATE_WINDOW = env_int("LUDO_WS_RATE_WINDOW_MS", 20_000, minimum=100, maximum=3_600_000) / 1000
LUDO_WS_RATE_LIMIT = (env_int("LUDO_WS_RATE_LIMIT", 100, minimum=1), _WS_RATE_WINDOW)
LUDO_WS_PERSON_RATE_LIMIT = (env_int("LUDO_WS_PERSON_RATE_LIMIT", 200, minimum=1), _WS_RATE_WINDOW)
# Messages per window per client address (IPv6: its /64), over all its sockets and people.
LUDO_WS_ADDRESS_RATE_LIMIT = (env_int("LUDO_WS_ADDRESS_RATE_LIMIT", 600, minimum=1), _WS_RATE_WINDOW)
# Sockets open at once per person (account, guest identity), and per address for anonymous visitors.
LUDO_WS_MAX_SOCKETS = env_int("LUDO_WS_MAX_SOCKETS", 20, minimum=1, maximum=10_000)
LUDO_WS_MAX_ANONYMOUS_SOCKETS = env_int("LUDO_WS_MAX_ANONYMOUS_SOCKETS", 60, minimum=1, maximum=100_000)
# An open socket's session or token (and its account) is checked again at least this often (seconds).
LUDO_WS_CREDENTIALS_SECONDS = env_int("LUDO_WS_CREDENTIALS_SECONDS", 30, minimum=1, maximum=60)
# A table socket whose hello has not opened the table after this many seconds is closed.
LUDO_WS_HELLO_SECONDS = env_int("LUDO_WS_HELLO_SECONDS", 30, minimum=5, maximum=600)
# The embedded configuration's polls (the in-memory layer cannot cross processes):
# a table socket re-reads its table's version every LUDO_TABLE_POLL_MS (unset: 500
# with the in-memory layer, none with Redis; 0: never), and the worker looks for due
# bots, clocks and countdowns every LUDO_WORKER_POLL_MS without wake-ups.
if env_str("LUDO_TABLE_POLL_MS", "").strip():
    LUDO_TABLE_POLL_SECONDS = env_int("LUDO_TABLE_POLL_MS", 500, minimum=0, maximum=60_000) / 1000
LUDO_WORKER_POLL_SECONDS = env_int("LUDO_WORKER_POLL_MS", 250, minimum=10, maximum=60_000) / 1000
# Tables waiting for players (open, not started) one person may have at once.
LUDO_MAX_OPEN_TABLES = env_int("LUDO_MAX_OPEN_TABLES", 3, minimum=1, maximum=1000)
# Rated games (docs/ratings.md): a seat of a rated table without a clock that
# keeps its turn longer than this loses; two accounts may play this many rated
# games together at one game in 24 hours, the next ones are not rated.
LUDO_RATED_IDLE_SECONDS = env_int("LUDO_RATED_IDLE_SECONDS", 600, minimum=10, maximum=30 * 86400)
LUDO_RATED_GAMES_PER_PAIR = env_int("LUDO_RATED_GAMES_PER_PAIR", 3, minimum=1, maximum=1000)

# -- the worker's bulkheads (ludo/bulkheads/guard.py) ------------------------------------------
# A row a worker job fails on (a table, an email, a scan) is tried again after a
# pause (doubled after each failure), and set aside for a host after this many failures.
LUDO_WORKER_ROW_FAILURES = env_int("LUDO_WORKER_ROW_FAILURES", 3, minimum=1, maximum=100)
LUDO_WORKER_ROW_RETRY_SECONDS = env_int("LUDO_WORKER_ROW_RETRY_SECONDS", 10, minimum=0, maximum=3600)

# -- rate limits (ludo/limits.py) ------------------------------------------------------------

# Per person and per address, counted in Redis when REDIS_URL is set (every process
# counts the same hits), else in memory. LUDO_RATE_LIMITS=off lifts them all (the
# bench creates hundreds of tables from one address); LUDO_RATE_LIMITS (the dict)
# overrides a scope's rates: {"chat": {"person": (20, 60.0), "address": None}}.
LUDO_RATE_LIMITS_ENABLED = env_bool("LUDO_RATE_LIMITS", True)
LUDO_RATE_LIMITS: dict[str, dict[str, tuple[int, float] | None]] = {}

# -- API tokens (ludo/tokens, docs/api.md) ---------------------------------------------------

# Guest tokens (POST /api/guest) per client address and server process: 10 an hour.
LUDO_GUEST_TOKEN_RATE_LIMIT = (env_int("LUDO_GUEST_TOKEN_RATE_LIMIT", 10, minimum=1), 3600.0)
# A guest token nobody used for this many days stops working (manage.py clear_guest_tokens deletes it).
LUDO_GUEST_TOKEN_IDLE_DAYS = env_int("LUDO_GUEST_TOKEN_IDLE_DAYS", 30, minimum=1, maximum=3650)
# Active personal tokens per account.
LUDO_MAX_PERSONAL_TOKENS = 20
