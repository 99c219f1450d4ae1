"""The client's address, in one place, for everything that counts or throttles
by address (login throttling, rate limits, guest tokens, sockets).

The direct peer of the socket is the address, unless that peer is one of the
configured trusted proxies (``TRUSTED_PROXIES``: IP addresses or networks). Only
then is ``X-Forwarded-For`` read, from the right: each trusted proxy appends the
address it saw, so the rightmost entry that is not a trusted proxy is the first
address no trusted party vouches beyond. Entries further left are written by
the client and are never believed.

daphne must run *without* ``--proxy-headers``: that option replaces the socket
peer with the leftmost (client-written) ``X-Forwarded-For`` entry before this
module can see the real peer.

    client_ip(request)        # Django HttpRequest: the address itself
    scope_client_ip(scope)    # ASGI scope (WebSocket consumers): the address itself

Every per-address budget (rate limits, login throttling, guest tokens, booking
forms, living-room codes, account emails, sockets) counts an address's *group*,
not the address: one IPv6 subscriber usually holds a whole /64 and can pick a
fresh address in it for every request, so an IPv6 address counts under its
``LUDO_IPV6_PREFIX`` network (default 64; 128 counts each address apart), named
by that network's first address (``2001:db8:1:2::``, still a valid address for
django-axes' column). IPv4 addresses (and IPv4-mapped IPv6 ones) count alone:

    budget_ip(request)        # the group of client_ip(request) (django-axes too)
    scope_budget_ip(scope)    # the group of scope_client_ip(scope)
    budget_key("2001:db8:1:2:aa::9") == "2001:db8:1:2::"
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_networks(entries: Iterable[str], name: str = "TRUSTED_PROXIES") -> tuple[Network, ...]:
    """``["127.0.0.1", "10.0.0.0/8", "::1"]`` as networks; a bad entry raises, naming ``name``."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} entries must be IP addresses or networks (10.0.0.0/8), not {entry!r}"
            ) from None
    return tuple(networks)


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_networks(entries)


def trusted_networks() -> tuple[Network, ...]:
    """The settings' trusted proxies (read at each call, so test overrides apply)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))


def parse_address(value: str) -> Address | None:
    """An address from a header entry or a socket peer; ``None`` if it is not one.

    Accepts ``[::1]`` and ``[::1]:443`` as well as ``1.2.3.4:5678`` (some proxies
    add the port); an IPv4-mapped IPv6 address is read as the IPv4 address.
    """
    text = value.strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_trusted(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address.version == network.version and address in network for network in networks)


def resolve(peer: str | None, forwarded_for: str | None, networks: tuple[Network, ...] | None = None) -> str:
    """The client address from the socket ``peer`` and the ``X-Forwarded-For`` value.

    Returns ``""`` when the peer is unknown (no socket address, e.g. a test client
    without one). The header is read only when the peer is a trusted proxy.
    """
    if networks is None:
        networks = trusted_networks()
    peer_address = parse_address(peer or "")
    if peer_address is None:
        return (peer or "").strip()
    if not forwarded_for or not is_trusted(peer_address, networks):
        return str(peer_address)
    client = peer_address
    for entry in reversed(forwarded_for.split(",")):
        hop = parse_address(entry)
        if hop is None:
            # A trusted proxy writes valid addresses: garbage here came from the
            # client (or a misconfigured proxy). The last trusted hop is the answer.
            break
        client = hop
        if not is_trusted(hop, networks):
            break
    return str(client)


def ipv6_prefix() -> int:
    """The settings' LUDO_IPV6_PREFIX (read at each call, so test overrides apply)."""
    prefix = int(getattr(settings, "LUDO_IPV6_PREFIX", 64))
    if not 1 <= prefix <= 128:
        raise ImproperlyConfigured(f"LUDO_IPV6_PREFIX must be between 1 and 128, not {prefix}")
    return prefix


def budget_key(address: str) -> str:
    """The key ``address`` is counted under in per-address budgets (see the module's
    docstring); a value that is not an address is returned unchanged."""
    parsed = parse_address(address) if address else None
    if parsed is None:
        return address
    if parsed.version == 4:
        return str(parsed)
    network = ipaddress.IPv6Network((int(parsed), ipv6_prefix()), strict=False)
    return str(network.network_address)


def client_ip(request) -> str:
    """The client address of a Django request (``AXES_CLIENT_IP_CALLABLE`` too)."""
    meta = request.META
    return resolve(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))


def scope_client_ip(scope) -> str:
    """The client address of an ASGI scope (HTTP or WebSocket)."""
    client = scope.get("client")
    peer = client[0] if client else None
    values = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name.lower() == b"x-forwarded-for"]
    return resolve(peer, ",".join(values) or None)


def budget_ip(request) -> str:
    """The budget key of a Django request's client (``AXES_CLIENT_IP_CALLABLE``)."""
    return budget_key(client_ip(request))


def scope_budget_ip(scope) -> str:
    """The budget key of an ASGI scope's client."""
    return budget_key(scope_client_ip(scope))
