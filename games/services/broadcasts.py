"""Broadcasts, after commit only: "table N is at version v" to the table's
sockets, the lobby's entry to the lobby, a wake-up to the worker.

The group message carries only the table id, its version and the kind of
event: each socket builds the view of its own seat (games.services.snapshots),
so a view of one seat never travels to a group.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from games.models import Seat, Table
from games.services import publisher
from games.services.lobby import lobby_entry
from games.services.store import _after_commit

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# The worker listens here (games.jobs): a bot's turn wakes it at once instead
# of at its next look at the database.
WORKER_GROUP = "tables.worker"


class _LoopThread:
    """One event loop on a thread of its own, for processes that have none of
    their own (the worker, management commands, WSGI).

    ``async_to_sync`` from such a thread makes a new event loop for every call,
    and the Redis channel layers keep their connections per event loop: every
    broadcast of the worker opened (and closed) a Redis connection, ~15 ms
    each. Sending from this one long-lived loop keeps one connection for the
    life of the process.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid() or not self._loop.is_running():
                loop = asyncio.new_event_loop()
                started = threading.Event()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(started.set)
                    loop.run_forever()

                threading.Thread(target=run, name="ludo-broadcast-loop", daemon=True).start()
                started.wait(5)
                self._loop, self._pid = loop, os.getpid()
            return self._loop

    def run(self, make: Callable[[], Any], timeout: float = 10.0) -> Any:
        return asyncio.run_coroutine_threadsafe(make(), self.loop()).result(timeout)


_loop_thread = _LoopThread()


def broadcast_loop() -> asyncio.AbstractEventLoop:
    """The long-lived event loop of a process without one (the worker)."""
    return _loop_thread.loop()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """In a thread of ``sync_to_async`` (daphne's consumers and views), the
    server's own running event loop, which has its own channel-layer connection."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if (loop is not None and loop.is_running()
            and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()):
        return loop
    return None


def _sent(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        # The state is committed; sockets that miss this catch up on their next
        # update or resync (the protocol's versions exist for exactly this).
        log.error("broadcast failed", exc_info=task.exception())


def _send_on(layer: Any, group: str, message: dict[str, Any]) -> None:
    """Broadcast from the running event loop, without waiting."""
    pipelined = _publisher(layer)
    if pipelined is not None:
        pipelined.group_send(group, message)
    else:
        asyncio.ensure_future(layer.group_send(group, message)).add_done_callback(_sent)


def _publisher(layer: Any) -> publisher.Publisher | None:
    """The running loop's pipelined publisher (games.services.publisher) when
    ``layer`` is the site's Redis pub/sub layer; None for any other layer."""
    if not isinstance(layer, RedisPubSubChannelLayer) or layer is not get_channel_layer():
        return None
    config = settings.CHANNEL_LAYERS[DEFAULT_CHANNEL_LAYER].get("CONFIG", {})
    return publisher.publisher(config, layer.serialize)


def _on_a_loop() -> bool:
    """Whether this thread is running an event loop (without asyncio's private helper)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if _on_a_loop():
            # On the server's loop already (a socket's move, see play_move_async).
            _send_on(layer, group, message)
            return
        server_loop = _server_loop()
        if server_loop is not None:
            # Hand the send to the server's loop without waiting for it: the
            # database thread goes back to work at once (sends keep their order).
            server_loop.call_soon_threadsafe(_send_on, layer, group, message)
        else:
            _loop_thread.run(lambda: layer.group_send(group, message))
    except Exception:
        log.exception("broadcast to %s failed", group)


def _send_after_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the transaction has committed."""
    _after_commit(lambda: _group_send(group, message))


def _broadcast(table: Table, kind: str, seats: list[Seat] | None = None, lobby: bool = True) -> None:
    """Tell every socket on the table that version ``table.version`` exists, and
    the lobby what the table now looks like (public tables only)."""
    message = {"type": "table.update", "table": table.pk, "v": table.version, "event": kind}
    group = table.group_name
    _after_commit(lambda: _group_send(group, message))
    if table.bot_due is not None:
        _after_commit(lambda: _group_send(WORKER_GROUP, {"type": "worker.wake", "table": table.pk}))
    if lobby and not table.private:
        entry = lobby_entry(table, seats if seats is not None else list(table.seats.all()))
        lobby_message = {"type": "lobby.update", "table": table.pk, "entry": entry}
        _after_commit(lambda: _group_send(LOBBY_GROUP, lobby_message))


def chat_group(table_id: int, channel: str) -> str:
    return f"table.{table_id}.{channel}"
