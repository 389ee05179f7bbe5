from django.db import migrations


class Migration(migrations.Migration):
    """The anonymous readers' counts of expensive reads (games.ratelimit): UNLOGGED,
    as a crash forgetting a minute's counts costs nothing and the counts need no
    WAL; one row per (minute, address)."""

    dependencies = [("games", "0009_upload_quotas")]

    operations = [
        migrations.RunSQL(
            """
            CREATE UNLOGGED TABLE games_anonymous_reads (
                minute bigint NOT NULL,
                address text NOT NULL,
                reads integer NOT NULL,
                PRIMARY KEY (minute, address)
            )
            """,
            reverse_sql="DROP TABLE games_anonymous_reads",
        )
    ]
