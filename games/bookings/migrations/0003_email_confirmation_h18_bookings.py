"""Email confirmation (double opt-in) for visitors' bookings and proposals,
the outbox the worker sends emails from, and the addresses accounts have
verified.

Existing bookings and proposals keep their status: every one of them was
made before a confirmation existed and counts as confirmed (none becomes
"unverified"); the seat counters do not move. Changing the status
constraint rebuilds the bookings table on SQLite, which drops the seat
guard's triggers: they are installed again at the end (and by every
migrate's post_migrate)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def reinstall_guard(apps, schema_editor):
    from games.bookings import seatguard

    seatguard.install(schema_editor.connection)


class Migration(migrations.Migration):

    dependencies = [
        ('bookings', '0002_seat_guard'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='OutgoingEmail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(max_length=30, verbose_name='kind')),
                ('to', models.EmailField(max_length=254, verbose_name='to')),
                ('language', models.CharField(default='fr', max_length=8, verbose_name='language')),
                ('extra', models.JSONField(blank=True, default=dict)),
                ('status', models.CharField(choices=[('queued', 'to send'), ('sent', 'sent'), ('failed', 'failed'), ('skipped', 'nothing to send')], default='queued', max_length=8, verbose_name='status')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                ('next_attempt_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='next attempt')),
                ('last_error', models.TextField(blank=True, verbose_name='last error')),
                ('once_key', models.CharField(blank=True, editable=False, max_length=300, null=True, unique=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='queued at')),
                ('sent_at', models.DateTimeField(blank=True, null=True, verbose_name='sent at')),
            ],
            options={
                'verbose_name': 'outgoing email',
                'verbose_name_plural': 'outgoing emails',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='VerifiedAddress',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('email', models.EmailField(max_length=254, verbose_name='email')),
                ('verified_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                'verbose_name': 'verified address',
                'verbose_name_plural': 'verified addresses',
            },
        ),
        migrations.RemoveConstraint(
            model_name='booking',
            name='bookings_booking_status_known',
        ),
        migrations.AddField(
            model_name='booking',
            name='confirm_by',
            field=models.DateTimeField(blank=True, db_index=True, null=True, verbose_name='to confirm by'),
        ),
        migrations.AddField(
            model_name='proposal',
            name='confirm_by',
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AlterField(
            model_name='booking',
            name='status',
            field=models.CharField(choices=[('pending', 'awaiting approval'), ('confirmed', 'confirmed'), ('waiting', 'on the waiting list'), ('offered', 'seat offered'), ('cancelled', 'cancelled'), ('declined', 'declined'), ('expired', 'offer expired'), ('unverified', 'awaiting email confirmation')], db_index=True, max_length=10, verbose_name='status'),
        ),
        migrations.AlterField(
            model_name='proposal',
            name='status',
            field=models.CharField(choices=[('unverified', 'awaiting email confirmation'), ('pending', 'waiting for a host'), ('approved', 'approved'), ('declined', 'declined')], db_index=True, default='pending', max_length=10, verbose_name='status'),
        ),
        migrations.AddConstraint(
            model_name='booking',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['pending', 'confirmed', 'waiting', 'offered', 'cancelled', 'declined', 'expired', 'unverified'])), name='bookings_booking_status_known'),
        ),
        migrations.AddConstraint(
            model_name='booking',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'unverified'), _negated=True), ('confirm_by__isnull', False), _connector='OR'), name='bookings_booking_unverified_has_deadline'),
        ),
        migrations.AddField(
            model_name='outgoingemail',
            name='booking',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='emails', to='bookings.booking'),
        ),
        migrations.AddField(
            model_name='outgoingemail',
            name='proposal',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='emails', to='bookings.proposal'),
        ),
        migrations.AddField(
            model_name='verifiedaddress',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddIndex(
            model_name='outgoingemail',
            index=models.Index(fields=['status', 'next_attempt_at'], name='bookings_outbox_due'),
        ),
        migrations.AddIndex(
            model_name='outgoingemail',
            index=models.Index(fields=['to', 'kind', 'created_at'], name='bookings_outbox_window'),
        ),
        migrations.AddConstraint(
            model_name='verifiedaddress',
            constraint=models.UniqueConstraint(fields=('user', 'email'), name='bookings_verified_address_once'),
        ),
        migrations.RunPython(reinstall_guard, migrations.RunPython.noop),
    ]
