"""Heads and the feed authenticated under the key (issue 30, item 5).

A stream's head was plain data: rewound in the database together with its last
events and projection rows, it looked like a stream merely behind. Each head now
carries an HMAC under ``EVENT_LOG_KEY`` (``event_stream_head.mac``), the feed's
entries are chained under the key (``event_feed_seal``, immutable like the feed),
and ``event_log_key`` holds the key's fingerprint, so that a server with another
key is told so rather than writing what will not verify.

The existing heads get their codes as they stand (a head that already disagrees
with its log goes on being reported), and the existing feed is sealed. It runs
with the key of the settings it is run with: migrate with the key the server uses.
"""

from django.db import migrations, models

SEAL_TRIGGERS = """
CREATE FUNCTION event_feed_seal_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'event_feed_seal is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER event_feed_seal_no_update_delete
    BEFORE UPDATE OR DELETE ON event_feed_seal
    FOR EACH ROW EXECUTE FUNCTION event_feed_seal_refuse_change();

CREATE TRIGGER event_feed_seal_no_truncate
    BEFORE TRUNCATE ON event_feed_seal
    FOR EACH STATEMENT EXECUTE FUNCTION event_feed_seal_refuse_change();
"""

DROP_SEAL_TRIGGERS = """
DROP TRIGGER IF EXISTS event_feed_seal_no_truncate ON event_feed_seal;
DROP TRIGGER IF EXISTS event_feed_seal_no_update_delete ON event_feed_seal;
DROP FUNCTION IF EXISTS event_feed_seal_refuse_change();
"""


def authenticate_under_the_key(apps, schema_editor):
    # The store's own code, not a frozen copy: the codes are what the store checks.
    from games.eventstore.chain import log_key
    from games.eventstore.rekey import authenticate_heads
    from games.eventstore.seal import record_fingerprint, seal_feed

    connection = schema_editor.connection
    key = log_key()
    heads = authenticate_heads(key, connection=connection)
    record_fingerprint(key, connection=connection)
    sealed = seal_feed(key=key, connection=connection)
    if heads or sealed:
        print(f"\n  {heads} stream heads authenticated, {sealed} feed entries sealed")


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0005_kept_state")]

    operations = [
        migrations.AddField(
            model_name="streamhead",
            name="mac",
            field=models.CharField(db_default="", max_length=64),
        ),
        migrations.CreateModel(
            name="FeedSeal",
            fields=[
                (
                    "feed_position",
                    models.BigIntegerField(primary_key=True, serialize=False),
                ),
                ("stream_type", models.CharField(max_length=32)),
                ("stream_id", models.UUIDField()),
                ("mac", models.CharField(max_length=64)),
            ],
            options={"db_table": "event_feed_seal"},
        ),
        migrations.CreateModel(
            name="LogKey",
            fields=[
                (
                    "id",
                    models.PositiveSmallIntegerField(
                        default=1, primary_key=True, serialize=False
                    ),
                ),
                ("fingerprint", models.CharField(max_length=64)),
            ],
            options={"db_table": "event_log_key"},
        ),
        migrations.RunSQL(SEAL_TRIGGERS, DROP_SEAL_TRIGGERS),
        migrations.RunPython(authenticate_under_the_key, migrations.RunPython.noop),
    ]
