"""The README's production setup keeps the client address honest (issue 18, findings 2 and 9)."""

from __future__ import annotations

from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_daphne_does_not_take_the_address_from_the_leftmost_forwarded_entry():
    commands = [line for line in README.splitlines() if line.strip().startswith("daphne ")]
    assert commands and not any("--proxy-headers" in line for line in commands)


def test_the_proxy_overwrites_x_forwarded_for_and_limits_bodies():
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in README
    assert "$proxy_add_x_forwarded_for;" not in README.replace("never $proxy_add_x_forwarded_for", "")
    assert "client_max_body_size" in README
    assert "`TRUSTED_PROXIES`" in README and "TRUSTED_PROXIES=127.0.0.1" in README
