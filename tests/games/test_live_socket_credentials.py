"""Sockets follow the account across server processes (issue 29, finding 4): a
logout served by one daphne process closes, at once, the sockets that session
holds on another process (the push goes through the Redis channel layer), long
before the credential timer would. Two real daphne processes; a real account
signed in twice over HTTP."""

from __future__ import annotations

import asyncio

import httpx
import websockets

from tests.games.live_helpers import Stack, live_stack, require_redis  # noqa: F401  (fixture)
from tests.servers import DaphneServer, manage

PASSWORD = "correct horse battery staple 9"
SIGNED_OUT = 4401


def sign_in(server: DaphneServer, name: str) -> httpx.Client:
    http = httpx.Client(base_url=server.origin, timeout=20)
    http.get("/en/account/login/")
    answer = http.post("/en/account/login/", headers={"Referer": server.url("/en/account/login/")},
                       data={"username": name, "password": PASSWORD,
                             "csrfmiddlewaretoken": http.cookies["csrftoken"]})
    assert answer.status_code == 302, answer.text[:300]
    return http


def log_out(http: httpx.Client, server: DaphneServer) -> None:
    answer = http.post("/en/account/logout/", headers={"Referer": server.url("/en/")},
                       data={"csrfmiddlewaretoken": http.cookies["csrftoken"]})
    assert answer.status_code in (200, 302), answer.text[:300]


async def closed(ws, timeout: float) -> int | None:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout)
    except websockets.ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else None


def test_a_logout_on_one_process_closes_that_sessions_sockets_on_another(live_stack: Stack):  # noqa: F811
    require_redis()
    stack = live_stack if live_stack.redis else live_stack.with_redis()
    # The timer would take a minute: only the push can close the socket within the test's wait.
    env = stack.env(LUDO_WS_CREDENTIALS_SECONDS="60")
    manage("shell", "-c", f"from django.contrib.auth import get_user_model; "
           f"get_user_model().objects.create_user('nadia', 'nadia@example.org', '{PASSWORD}')", env=env)
    with DaphneServer(env) as one, DaphneServer(env) as two:
        here, elsewhere = sign_in(two, "nadia"), sign_in(two, "nadia")

        async def scenario() -> None:
            sockets = []
            for http in (here, elsewhere):
                cookie = {"Cookie": f"sessionid={http.cookies['sessionid']}"}
                sockets.append(await websockets.connect(one.ws_url("/ws/lobby/"), origin=one.origin,
                                                        open_timeout=20, additional_headers=cookie))
            for ws in sockets:
                await asyncio.wait_for(ws.recv(), 10)  # the lobby's list
            await asyncio.to_thread(log_out, here, two)
            # Within the wait, only the push can have closed it: the timer's first round is a minute away.
            assert await closed(sockets[0], 20) == SIGNED_OUT
            await sockets[1].send('{"t": "ping", "id": 1}')
            answer = await asyncio.wait_for(sockets[1].recv(), 10)
            assert '"pong"' in answer  # the other session of the account goes on
            await sockets[1].close()

        asyncio.run(scenario())
