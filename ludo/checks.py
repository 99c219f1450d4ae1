"""Deployment checks of our own settings (``manage.py check --deploy``).

``SITE_URL`` starts every link the site sends by email (password resets, address
confirmations, booking links) and is an allowed WebSocket origin: a production
site that leaves it unset, on ``http://``, or on a host it does not serve sends
guests links that fail or leak their secrets over plain HTTP. Django's own
deploy checks cannot know this setting, so these warn (tagged ``deploy``: only
``check --deploy`` runs them).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Tags, Warning, register
from django.http.request import split_domain_port, validate_host

DEVELOPMENT_SITE_URL = "http://127.0.0.1:8000"  # settings.py's default when SITE_URL is not set


@register(Tags.security, deploy=True)
def check_site_url(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    site_url = (getattr(settings, "SITE_URL", "") or "").strip()
    if not site_url or site_url == DEVELOPMENT_SITE_URL:
        return [Warning(
            "SITE_URL is not set: the links sent by email point to the development address.",
            hint="Set SITE_URL to the site's public address, e.g. https://ludo.example.org.",
            id="ludo.W001",
        )]
    parts = urlsplit(site_url)
    found = []
    if parts.scheme != "https" or not parts.hostname:
        found.append(Warning(
            f"SITE_URL ({site_url}) is not an https:// address: the links sent by email would "
            "travel in clear (password resets, booking links).",
            hint="Use the https:// address the site is served at.",
            id="ludo.W002",
        ))
    host, _port = split_domain_port(parts.netloc.rsplit("@", 1)[-1])
    if parts.hostname and not validate_host(host, settings.ALLOWED_HOSTS):
        found.append(Warning(
            f"SITE_URL's host ({parts.hostname}) is not in ALLOWED_HOSTS: the links sent by email "
            "lead to a site that refuses them, or to another site.",
            hint="Make SITE_URL the public address of a host listed in ALLOWED_HOSTS.",
            id="ludo.W003",
        ))
    return found
