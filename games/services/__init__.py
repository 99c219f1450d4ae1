"""The table service: one function per action on a live table.

Every action runs in one transaction that locks the table row (select_for_update
on PostgreSQL; SQLite serialises writers with BEGIN IMMEDIATE), checks who asks
and, for moves, the version the client saw, applies the engine, appends one
``Action`` row per new version, saves the state, and broadcasts only once the
transaction has committed. Views (HTTP API), consumers (WebSocket), the worker's
bots and timers all come through here; nothing else writes a table.

Where things are (each module one concern; every public name is importable
from ``games.services`` as well):

    who          the person behind a request or a socket (Who)
    seating      actions before the game: create, join, leave, bots, start
    moves        a player's move and a bot's move
    loop_moves   the same player's move on the event loop (PostgreSQL)
    endings      draw, resign, abort, kick an absent player, rematch
    timers       what the worker plays as time passes (timeouts, countdowns)
    leases       the worker's claims on bot turns, and when it looks next
    chat         table chat
    staff        what the hosts of the house do to tables
    replays      replay and export of a game
    adoption     a guest's finished games given to the account it creates
    renames      an account's name replaced at its tables (deletion)
    play         the engine applied under the lock (shared by the actions)
    clocks       time controls
    tables       reading a table: rules, state, seats, who may watch
    lobby        the lobby's entries
    store        the table store: reads and writes under the lock, in plain SQL
    snapshots    version snapshots and the frames built from them
    broadcasts   group messages after commit
    publisher    broadcasts sent in pipelines on Redis pub/sub
    presence     open sockets and absent players
"""

from games.protocol import TableError
from games.services.broadcasts import LOBBY_GROUP, WORKER_GROUP, broadcast_loop, chat_group
from games.services.chat import CHAT_BACKLOG, chat_backlog, clean_chat, post_chat
from games.services.clocks import MAX_CLOCK_SECONDS, parse_clock
from games.services.endings import abort, draw, kick_absent, rematch, resign
from games.services.leases import (
    BotTurn,
    claim_bot_turn,
    earliest_deadlines,
    legal_moves_for_bot,
    next_deadline,
    release_bot_turn,
)
from games.services.lobby import (
    current_version,
    lobby_entry,
    lobby_entry_unchecked,
    lobby_stamp,
    lobby_tables,
    seat_public,
    tables_for_staff,
)
from games.services.loop_moves import async_moves, close_move_connections, play_move_async
from games.services.moves import bot_move, play_move
from games.services.play import BOT_LEVELS, DEFAULT_BOT_LEVEL, bot_think_seconds
from games.services.presence import connect, disconnect, presence, prune_connections, seat_now, touch_many
from games.services.adoption import adopt_guest_games
from games.services.renames import rename_account
from games.services.replays import MOVE_KINDS, export, replay
from games.services.seating import (
    add_bots,
    create_table,
    join_table,
    leave_table,
    quick_game,
    remove_bot,
    start_table,
)
from games.services.snapshots import FROZEN_MAX, RESYNC_EVENTS, cached_snapshot, forget_table, snapshot
from games.services.staff import staff_end, staff_hide_chat, staff_remove
from games.services.tables import open_table, rules_for
from games.services.timers import (
    abandon_open_table,
    abandon_stale_open_tables,
    fire_countdown,
    replace_absent,
    replace_absent_at,
    stale_open_tables,
    tables_with_absent_players,
    time_out,
)
from games.services.who import SYSTEM, Who

__all__ = [
    "BOT_LEVELS", "CHAT_BACKLOG", "DEFAULT_BOT_LEVEL", "FROZEN_MAX", "LOBBY_GROUP", "MAX_CLOCK_SECONDS",
    "MOVE_KINDS", "RESYNC_EVENTS", "SYSTEM", "WORKER_GROUP", "BotTurn", "TableError", "Who",
    "abandon_open_table", "abandon_stale_open_tables", "abort", "add_bots", "adopt_guest_games", "async_moves", "bot_move",
    "bot_think_seconds",
    "broadcast_loop", "cached_snapshot", "chat_backlog", "chat_group", "claim_bot_turn", "clean_chat",
    "close_move_connections", "connect", "create_table", "current_version", "disconnect", "draw", "export",
    "fire_countdown", "forget_table", "join_table", "kick_absent", "leave_table", "legal_moves_for_bot",
    "earliest_deadlines", "lobby_entry", "lobby_entry_unchecked", "lobby_stamp", "lobby_tables", "next_deadline",
    "open_table",
    "parse_clock", "play_move", "play_move_async", "post_chat", "presence", "prune_connections", "quick_game",
    "release_bot_turn", "rematch", "remove_bot", "rename_account", "replace_absent", "replace_absent_at",
    "replay", "resign", "rules_for", "seat_now", "seat_public", "snapshot", "staff_end", "staff_hide_chat",
    "staff_remove", "stale_open_tables", "start_table", "tables_for_staff", "tables_with_absent_players", "time_out",
    "touch_many",
]
