"""The keyed chain: every stream's head, flags, and the log chained under the key.

A log written before this migration carries plain sha256 hashes over fewer columns
(``games.eventstore.chain.legacy_chain_hash``), which anyone who can write the table
can recompute. Each stream is verified under that old chain and, when it verifies,
chained again under ``EVENT_LOG_KEY`` (every column, keyed). A stream that does not
verify is left as it is and named in the migration's output: ``verify_events`` goes
on reporting it. Then every stream's head is recorded where its log ends.

It runs with the key of the settings it is run with: migrate with the key the
server will use. Backwards, the log is chained again with the plain hash.
"""

from django.db import migrations, models


def chain_under_the_key(apps, schema_editor):
    # The store's own code, not a frozen copy: the chain is what the store checks.
    from games.eventstore.chain import legacy_chain_hash, log_key
    from games.eventstore.rekey import keyed, rechain

    report = rechain(
        legacy_chain_hash,
        keyed(log_key()),
        connection=schema_editor.connection,
        create_heads=True,
    )
    _say(report, "under EVENT_LOG_KEY")


def chain_plain_again(apps, schema_editor):
    from games.eventstore.chain import legacy_chain_hash, log_key
    from games.eventstore.rekey import keyed, rechain

    report = rechain(
        keyed(log_key()),
        legacy_chain_hash,
        connection=schema_editor.connection,
    )
    _say(report, "with the plain hash")


def _say(report, how):
    if report.events:
        print(f"\n  {report.events} events of {report.streams} streams chained {how}")
    for stream, problem in report.refused:
        print(f"  NOT chained again (does not verify): {stream}: {problem}")


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0002_result_feed_index")]

    operations = [
        migrations.CreateModel(
            name="StreamHead",
            fields=[
                ("stream_id", models.UUIDField(primary_key=True, serialize=False)),
                ("stream_type", models.CharField(max_length=32)),
                ("version", models.PositiveIntegerField()),
                ("chain_hash", models.CharField(max_length=64)),
            ],
            options={"db_table": "event_stream_head"},
        ),
        migrations.CreateModel(
            name="FlaggedStream",
            fields=[
                ("stream_id", models.UUIDField(primary_key=True, serialize=False)),
                ("stream_type", models.CharField(max_length=32)),
                ("problem", models.TextField()),
                ("flagged_at", models.DateTimeField()),
            ],
            options={"db_table": "event_stream_flag"},
        ),
        migrations.RunPython(chain_under_the_key, chain_plain_again),
    ]
