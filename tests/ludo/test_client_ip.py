"""The client address: X-Forwarded-For believed only from trusted proxies, read from the right."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from ludo.client_ip import client_ip, parse_networks, resolve, scope_client_ip

PROXY = parse_networks(["127.0.0.1", "10.0.0.0/8", "::1"])


def test_without_trusted_proxies_the_socket_peer_is_the_address():
    assert resolve("203.0.113.9", "198.51.100.1", networks=()) == "203.0.113.9"
    assert resolve("127.0.0.1", "198.51.100.1", networks=()) == "127.0.0.1"


def test_an_untrusted_peer_cannot_choose_its_address_with_the_header():
    assert resolve("203.0.113.9", "198.51.100.1, 127.0.0.1", networks=PROXY) == "203.0.113.9"


def test_behind_a_trusted_proxy_the_rightmost_untrusted_entry_is_the_address():
    # The client wrote "1.1.1.1, 2.2.2.2"; nginx appended the address it saw.
    assert resolve("127.0.0.1", "1.1.1.1, 2.2.2.2, 203.0.113.9", networks=PROXY) == "203.0.113.9"
    # Two proxies: nginx (10.0.0.5) behind a load balancer at 127.0.0.1.
    assert resolve("127.0.0.1", "1.1.1.1, 203.0.113.9, 10.0.0.5", networks=PROXY) == "203.0.113.9"
    # Several headers are joined with commas (Django and ASGI servers do so).
    assert resolve("::1", "203.0.113.9", networks=PROXY) == "203.0.113.9"


def test_garbage_and_ports_and_brackets():
    assert resolve("127.0.0.1", "evil, 203.0.113.9:5555", networks=PROXY) == "203.0.113.9"
    assert resolve("127.0.0.1", "[2001:db8::1]:443", networks=PROXY) == "2001:db8::1"
    # A garbage rightmost entry is not believed: the proxy itself is the address.
    assert resolve("127.0.0.1", "203.0.113.9, not-an-ip", networks=PROXY) == "127.0.0.1"
    assert resolve("127.0.0.1", "", networks=PROXY) == "127.0.0.1"
    assert resolve("::ffff:203.0.113.9", None, networks=PROXY) == "203.0.113.9"
    assert resolve(None, "203.0.113.9", networks=PROXY) == ""


def test_all_trusted_hops_give_the_leftmost():
    assert resolve("127.0.0.1", "10.1.1.1, 10.0.0.5", networks=PROXY) == "10.1.1.1"


def test_request_and_scope_follow_the_settings(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9")
    scope = {"type": "websocket", "client": ["127.0.0.1", 50000],
             "headers": [(b"x-forwarded-for", b"6.6.6.6"), (b"X-Forwarded-For", b"203.0.113.9")]}
    settings.TRUSTED_PROXIES = []
    assert client_ip(request) == "127.0.0.1"
    assert scope_client_ip(scope) == "127.0.0.1"
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert client_ip(request) == "203.0.113.9"
    assert scope_client_ip(scope) == "203.0.113.9"
    assert scope_client_ip({"type": "websocket", "headers": []}) == ""


def test_a_bad_trusted_proxies_entry_stops_the_start():
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        parse_networks(["10.0.0.0/8", "nginx"])
