"""The live feed's commit order: ``event_feed``, one row per event, numbered at commit.

``event_log.position`` comes from a sequence taken when an append starts writing,
so appends can commit out of position order; a reader that had moved past a
younger event would never see an older one committed after it (the ratings feed
held back events younger than 5 s for that). Here every inserted event is also
numbered at the end of its transaction: a deferred constraint trigger, fired at
COMMIT after the transaction's own work, takes one transaction-level advisory lock
and numbers the rows from ``event_feed_position``. PostgreSQL releases that lock
only after the commit is visible, so the numbers become visible in their order.
Every writer is covered (appends, backups' imports, raw inserts), and a
transaction that appends to several streams takes the lock once, last, after every
other lock it needs.

The events already logged are numbered by their positions (they are all
committed), so a follower's cursor taken before this migration stays valid.
The lock's key is a two-int key: a separate key space from the streams' one-bigint
advisory locks (``store.lock_stream``).
"""

from django.db import migrations, models

FORWARD = """
CREATE SEQUENCE event_feed_position;
SELECT setval('event_feed_position', COALESCE(max(position), 0) + 1, false) FROM event_log;
INSERT INTO event_feed (feed_position, position, stream_type, stream_id)
    SELECT position, position, stream_type, stream_id FROM event_log;

CREATE FUNCTION event_feed_number() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- Held until the commit is visible: the numbers are seen in their order.
    PERFORM pg_advisory_xact_lock(1701, 1);
    INSERT INTO event_feed (feed_position, position, stream_type, stream_id)
        VALUES (nextval('event_feed_position'), NEW.position, NEW.stream_type,
                NEW.stream_id);
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER event_feed_number
    AFTER INSERT ON event_log
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION event_feed_number();

CREATE FUNCTION event_feed_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'event_feed is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER event_feed_no_update_delete
    BEFORE UPDATE OR DELETE ON event_feed
    FOR EACH ROW EXECUTE FUNCTION event_feed_refuse_change();

CREATE TRIGGER event_feed_no_truncate
    BEFORE TRUNCATE ON event_feed
    FOR EACH STATEMENT EXECUTE FUNCTION event_feed_refuse_change();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS event_feed_number ON event_log;
DROP FUNCTION IF EXISTS event_feed_number();
DROP TRIGGER IF EXISTS event_feed_no_truncate ON event_feed;
DROP TRIGGER IF EXISTS event_feed_no_update_delete ON event_feed;
DROP FUNCTION IF EXISTS event_feed_refuse_change();
DROP SEQUENCE IF EXISTS event_feed_position;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0003_keyed_chain_and_heads"),
    ]

    operations = [
        migrations.CreateModel(
            name="FeedEntry",
            fields=[
                (
                    "feed_position",
                    models.BigIntegerField(primary_key=True, serialize=False),
                ),
                ("position", models.BigIntegerField()),
                ("stream_type", models.CharField(max_length=32)),
                ("stream_id", models.UUIDField()),
            ],
            options={
                "db_table": "event_feed",
                "indexes": [
                    models.Index(
                        fields=["stream_id", "feed_position"], name="event_feed_stream"
                    ),
                    models.Index(
                        fields=["stream_type", "feed_position"], name="event_feed_type"
                    ),
                ],
            },
        ),
        migrations.RunSQL(FORWARD, BACKWARD),
    ]
