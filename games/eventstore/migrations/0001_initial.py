"""The event log moves here from the games app: the same table, rows and trigger.

Games' migrations 0001 and 0002 created ``event_log`` (with its key and index) and
its immutability trigger; this migration takes over the model's state only, so
nothing in the database changes and every stored event stays where it is (games'
0005 then drops the model from its own state). The content type is relabelled, so
permissions and admin history given for the log carry over.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def relabel_content_type(apps, schema_editor, old="games", new="eventstore"):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.using(schema_editor.connection.alias).filter(
        app_label=old, model="storedevent"
    ).update(app_label=new)


def restore_content_type(apps, schema_editor):
    relabel_content_type(apps, schema_editor, old="eventstore", new="games")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0004_game_snapshot"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="StoredEvent",
                    fields=[
                        (
                            "position",
                            models.BigAutoField(primary_key=True, serialize=False),
                        ),
                        ("stream_type", models.CharField(max_length=32)),
                        ("stream_id", models.UUIDField()),
                        ("version", models.PositiveIntegerField()),
                        ("event_type", models.CharField(max_length=64)),
                        (
                            "schema_version",
                            models.PositiveSmallIntegerField(default=1),
                        ),
                        ("payload", models.JSONField()),
                        ("metadata", models.JSONField(blank=True, default=dict)),
                        ("recorded_at", models.DateTimeField()),
                        ("correlation_id", models.UUIDField(blank=True, null=True)),
                        ("chain_hash", models.CharField(max_length=64)),
                        (
                            "recorded_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "event_log",
                        "indexes": [
                            models.Index(
                                condition=models.Q(
                                    (
                                        "event_type__in",
                                        [
                                            "result_recorded",
                                            "result_amended",
                                            "forfeit_recorded",
                                            "unpaired_round_recorded",
                                            "player_withdrawn",
                                        ],
                                    )
                                ),
                                fields=["position"],
                                name="event_log_result_feed",
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("stream_id", "version"),
                                name="event_log_stream_version",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(relabel_content_type, restore_content_type),
    ]
