"""One result entered by a process that has just started: the benchmark's cold
worker (``bench/run.py``, stage 4).

    python bench/cold_result.py RESULT_JSON [--replay]

Django is set up and the database connection opened first (a worker does that
before it takes requests); then the result is recorded and the standings it
changed are read, timed together, as for the warm figure. ``--replay`` ignores the
tournament's kept state (the code before it: the whole tournament replayed), the
anchor the kept state is measured against. Prints the milliseconds.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from tournaments.core.stream import TournamentStream
    from tournaments.models import PlayerRound
    from tournaments.results import services

    if "--replay" in sys.argv:
        TournamentStream.stored_state = lambda self, stream, version: None
    result = json.loads(sys.argv[1])
    user = get_user_model().objects.get(username=result.pop("username"))
    tournament_id = uuid.UUID(result.pop("tournament_id"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    started = time.perf_counter()
    services.result_record(
        tournament_id=tournament_id,
        round_=result["round"],
        player_a=result["player_a"],
        player_b=result["player_b"],
        score_a=result["score_a"],
        score_b=result["score_b"],
        pre_adjustment_a=result["pre_adjustment_a"],
        pre_adjustment_b=result["pre_adjustment_b"],
        game_id=result["game_id"],
        user=user,
    )
    PlayerRound.objects.filter(
        tournament_id=tournament_id, round=result["round"]
    ).count()
    print(f"{1000 * (time.perf_counter() - started):.2f}")


if __name__ == "__main__":
    main()
