"""The database's guard against overbooking: triggers that keep
Session.seats_taken equal to the seats held by its bookings (the CHECK
constraint of 0001 keeps it within capacity). See games/bookings/seatguard.py."""

from django.db import migrations


def install(apps, schema_editor):
    from games.bookings import seatguard

    seatguard.install(schema_editor.connection)


def remove(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        if schema_editor.connection.vendor == "postgresql":
            cursor.execute("DROP TRIGGER IF EXISTS bookings_booking_hold_seats_ins_del ON bookings_booking")
            cursor.execute("DROP TRIGGER IF EXISTS bookings_booking_hold_seats_upd ON bookings_booking")
            cursor.execute("DROP FUNCTION IF EXISTS bookings_booking_hold_seats()")
        else:
            for name in ("ins", "del", "upd"):
                cursor.execute(f"DROP TRIGGER IF EXISTS bookings_booking_hold_seats_{name}")


class Migration(migrations.Migration):
    dependencies = [("bookings", "0001_initial")]
    operations = [migrations.RunPython(install, remove)]
