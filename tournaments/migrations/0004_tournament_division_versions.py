from django.db import migrations, models


def stamp_current_versions(apps, schema_editor):
    # Until a division changes again, its pages are keyed by the whole stream's
    # version: always correct, merely less shared.
    tournament = apps.get_model("tournaments", "Tournament")
    for row in tournament.objects.all().only("tournament_id", "version", "divisions"):
        row.division_versions = {name: row.version for name in row.divisions}
        row.save(update_fields=["division_versions"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_scorecard_indexes")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="division_versions",
            field=models.JSONField(default=dict),
        ),
        migrations.RunPython(stamp_current_versions, migrations.RunPython.noop),
    ]
