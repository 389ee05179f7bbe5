"""The results model says one name for one idea (issue 29): ``went_first`` (was
``first``), ``own_pre_adjustment``/``opponent_pre_adjustment`` (were ``own_pre``/
``opponent_pre``) and ``running_spread`` (was ``spread``, the total after the
round, beside ``round_spread`` and ``counted_spread``). Columns are renamed in place;
the two listed-rows indexes are made again on the renamed column."""

from django.db import migrations, models
from django.db.models import Q

LISTED = Q(has_result=True) & (Q(went_first=True) | Q(opponent_id=""))


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_snapshot_moves_to_the_store")]

    operations = [
        migrations.RemoveIndex(
            model_name="playerround", name="player_round_listed_pos"
        ),
        migrations.RemoveIndex(model_name="playerround", name="player_round_listed_at"),
        migrations.RenameField("playerround", "first", "went_first"),
        migrations.RenameField("playerround", "own_pre", "own_pre_adjustment"),
        migrations.RenameField(
            "playerround", "opponent_pre", "opponent_pre_adjustment"
        ),
        migrations.RenameField("playerround", "spread", "running_spread"),
        migrations.AddIndex(
            model_name="playerround",
            index=models.Index(
                fields=["changed_position"],
                condition=LISTED,
                name="player_round_listed_pos",
            ),
        ),
        migrations.AddIndex(
            model_name="playerround",
            index=models.Index(
                fields=["changed_at"], condition=LISTED, name="player_round_listed_at"
            ),
        ),
    ]
