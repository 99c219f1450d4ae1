"""The database's own guarantee that a session never holds more seats than it has.

``bookings_session.seats_taken`` is maintained by triggers on
``bookings_booking``: every insert, delete, or update of a booking's status,
seats or session moves the seats it holds (statuses pending, confirmed,
offered) in or out of its session's counter, inside the same statement. The
CHECK constraint ``seats_taken <= capacity`` on the session then refuses the
statement that would overbook, whoever issued it (the service, the admin, a
shell, a second server process), and under any interleaving:

- PostgreSQL: the trigger's UPDATE of the session row takes its row lock, so
  two transactions adding seats to one session queue on that row; the second
  re-reads the committed counter and fails the CHECK if it no longer fits.
- SQLite: one writer at a time (BEGIN IMMEDIATE), and the same triggers.

The triggers are installed by migration 0002 and again after every
``migrate`` (idempotently, with the counters recomputed), because rebuilding a
table on SQLite (how Django alters a column there) drops its triggers.
"""

from __future__ import annotations

from typing import Any

from django.db import connections

HOLDING_SQL = "('pending', 'confirmed', 'offered')"

POSTGRES = [
    f"""
    CREATE OR REPLACE FUNCTION bookings_booking_hold_seats() RETURNS trigger AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN {HOLDING_SQL} THEN
            UPDATE bookings_session SET seats_taken = seats_taken - OLD.seats WHERE id = OLD.session_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status IN {HOLDING_SQL} THEN
            UPDATE bookings_session SET seats_taken = seats_taken + NEW.seats WHERE id = NEW.session_id;
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql;
    """,
    "DROP TRIGGER IF EXISTS bookings_booking_hold_seats_ins_del ON bookings_booking;",
    """
    CREATE TRIGGER bookings_booking_hold_seats_ins_del AFTER INSERT OR DELETE ON bookings_booking
    FOR EACH ROW EXECUTE FUNCTION bookings_booking_hold_seats();
    """,
    "DROP TRIGGER IF EXISTS bookings_booking_hold_seats_upd ON bookings_booking;",
    """
    CREATE TRIGGER bookings_booking_hold_seats_upd AFTER UPDATE ON bookings_booking
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.seats IS DISTINCT FROM NEW.seats
          OR OLD.session_id IS DISTINCT FROM NEW.session_id)
    EXECUTE FUNCTION bookings_booking_hold_seats();
    """,
]

SQLITE = [
    f"""
    CREATE TRIGGER IF NOT EXISTS bookings_booking_hold_seats_ins AFTER INSERT ON bookings_booking
    WHEN NEW.status IN {HOLDING_SQL}
    BEGIN
        UPDATE bookings_session SET seats_taken = seats_taken + NEW.seats WHERE id = NEW.session_id;
    END;
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS bookings_booking_hold_seats_del AFTER DELETE ON bookings_booking
    WHEN OLD.status IN {HOLDING_SQL}
    BEGIN
        UPDATE bookings_session SET seats_taken = seats_taken - OLD.seats WHERE id = OLD.session_id;
    END;
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS bookings_booking_hold_seats_upd AFTER UPDATE OF status, seats, session_id
    ON bookings_booking
    WHEN OLD.status IS NOT NEW.status OR OLD.seats IS NOT NEW.seats OR OLD.session_id IS NOT NEW.session_id
    BEGIN
        UPDATE bookings_session SET seats_taken = seats_taken - OLD.seats
            WHERE id = OLD.session_id AND OLD.status IN {HOLDING_SQL};
        UPDATE bookings_session SET seats_taken = seats_taken + NEW.seats
            WHERE id = NEW.session_id AND NEW.status IN {HOLDING_SQL};
    END;
    """,
]

# The counter as the bookings say it should be (run after installing, in case
# rows were written while the triggers were missing).
RECOUNT = f"""
    UPDATE bookings_session SET seats_taken = COALESCE((
        SELECT SUM(b.seats) FROM bookings_booking b
        WHERE b.session_id = bookings_session.id AND b.status IN {HOLDING_SQL}
    ), 0)
    WHERE seats_taken <> COALESCE((
        SELECT SUM(b.seats) FROM bookings_booking b
        WHERE b.session_id = bookings_session.id AND b.status IN {HOLDING_SQL}
    ), 0)
"""

TRIGGER_NAMES = {
    "postgresql": {"bookings_booking_hold_seats_ins_del", "bookings_booking_hold_seats_upd"},
    "sqlite": {"bookings_booking_hold_seats_ins", "bookings_booking_hold_seats_del", "bookings_booking_hold_seats_upd"},
}


def install(connection: Any) -> None:
    """Create (or replace) the triggers and bring every counter in line."""
    statements = {"postgresql": POSTGRES, "sqlite": SQLITE}.get(connection.vendor)
    if statements is None:
        raise RuntimeError(f"no seat guard for the {connection.vendor} database backend")
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
        cursor.execute(RECOUNT)


def installed(connection: Any) -> set[str]:
    """The names of the guard's triggers present in the database."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'bookings_booking'::regclass AND NOT tgisinternal"
            )
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'bookings_booking'")
        return {row[0] for row in cursor.fetchall()} & TRIGGER_NAMES.get(connection.vendor, set())


def post_migrate(sender: Any = None, using: str = "default", **kwargs: Any) -> None:
    connection = connections[using]
    if "bookings_booking" in connection.introspection.table_names():
        install(connection)
