"""Make the event log immutable in the database itself.

UPDATE and DELETE are refused row by row, TRUNCATE by a statement trigger: even a raw
SQL session cannot change history. (A superuser can still drop the trigger; that is what
`manage.py verify_events` and the hash chain are for.)
"""

from __future__ import annotations

from django.db import migrations

FORWARD = """
CREATE FUNCTION event_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'event_log is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'integrity_constraint_violation',
              HINT = 'Correct a mistake by appending an event.';
END;
$$;

CREATE TRIGGER event_log_no_update_delete
    BEFORE UPDATE OR DELETE ON event_log
    FOR EACH ROW EXECUTE FUNCTION event_log_refuse_change();

CREATE TRIGGER event_log_no_truncate
    BEFORE TRUNCATE ON event_log
    FOR EACH STATEMENT EXECUTE FUNCTION event_log_refuse_change();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS event_log_no_truncate ON event_log;
DROP TRIGGER IF EXISTS event_log_no_update_delete ON event_log;
DROP FUNCTION IF EXISTS event_log_refuse_change();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
