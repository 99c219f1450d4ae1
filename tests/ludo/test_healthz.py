"""/healthz answers 200 only when the database and the channel layer both answer."""

from __future__ import annotations

import json
import os
import uuid
from urllib.parse import urlsplit

import pytest

from tests.conftest import require
from tests.servers import DaphneServer, free_port, port_open

pytestmark = pytest.mark.django_db


def dead_layer(backend: str) -> dict:
    return {
        "default": {
            "BACKEND": backend,
            "CONFIG": {"hosts": [{"address": f"redis://127.0.0.1:{free_port()}/0", "socket_connect_timeout": 1}]},
        }
    }


def test_it_answers_200_when_everything_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "channel_layer": "ok"}}
    assert "no-cache" in response["Cache-Control"]


def test_a_real_server_leaves_no_subscription_behind_in_redis(server_env):
    """Each probe subscribes to a fresh channel; it must unsubscribe, or a
    load balancer polling every few seconds fills Redis and the process."""
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    require(port_open(urlsplit(redis_url).hostname, urlsplit(redis_url).port or 6379), f"no Redis at {redis_url}")
    import redis

    prefix = "healthz-leak-" + uuid.uuid4().hex[:8]
    with DaphneServer({**server_env, "REDIS_URL": redis_url, "CHANNELS_PREFIX": prefix}) as server:
        for _ in range(5):
            assert server.get("/healthz")[0] == 200
        client = redis.Redis.from_url(redis_url)
        try:
            assert client.pubsub_channels(f"{prefix}*") == []
        finally:
            client.close()


@pytest.mark.parametrize(
    "backend", ["channels_redis.core.RedisChannelLayer", "channels_redis.pubsub.RedisPubSubChannelLayer"]
)
def test_it_answers_503_when_the_channel_layer_is_down(client, settings, backend):
    settings.CHANNEL_LAYERS = dead_layer(backend)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] != "ok"


def test_it_answers_503_when_no_channel_layer_is_configured(client, settings):
    settings.CHANNEL_LAYERS = {}
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"] == "wrong answer"


def test_it_is_reachable_without_a_language_prefix(client):
    assert client.get("/en/healthz").status_code == 404


def test_a_real_server_answers_503_when_its_database_is_down(server_env):
    """daphne with DATABASE_URL on a closed port: up (it answers), but not healthy."""
    env = {**server_env, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{free_port()}/ludo"}
    with DaphneServer(env, wait_for=lambda status: True) as server:
        status, body = server.get("/healthz")
        assert status == 503
        checks = json.loads(body)["checks"]
        # Refused at once without a pool; with PostgreSQL's connection pool the
        # probe waits for a connection and hits the 2 s limit instead.
        assert checks["database"].startswith(("error", "timeout")) and checks["channel_layer"] == "ok"


def test_a_real_server_answers_503_when_redis_is_down(server_env):
    env = {**server_env, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "CHANNELS_PREFIX": "dead"}
    with DaphneServer(env, wait_for=lambda status: True) as server:
        status, body = server.get("/healthz")
        assert status == 503
        checks = json.loads(body)["checks"]
        assert checks["database"] == "ok" and checks["channel_layer"] != "ok"


def test_a_real_server_answers_200_on_the_suites_stack(daphne_server):
    status, body = daphne_server.get("/healthz")
    assert status == 200, daphne_server.log
    if os.environ.get("REDIS_URL"):
        assert "redis" in daphne_server.env["REDIS_URL"]
