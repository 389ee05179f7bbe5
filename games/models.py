"""The append-only event log, and the game projections derived from it.

`StoredEvent` is the single source of truth for every stream (games and tournaments).
Rows are immutable: a database trigger (migration 0002) refuses UPDATE, DELETE and
TRUNCATE. Everything else in this module is a projection: disposable, rebuilt from the
log by ``manage.py rebuild_projections``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class StoredEvent(models.Model):
    """One immutable event of one stream, in the global order of `position`."""

    # bigserial: one total order over all streams for readers that follow everything.
    position = models.BigAutoField(primary_key=True)
    stream_type = models.CharField(max_length=32)
    stream_id = models.UUIDField()
    version = models.PositiveIntegerField()
    event_type = models.CharField(max_length=64)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    # Facts about the event that the rules do not read (tournament of a game, GCG line).
    metadata = models.JSONField(default=dict, blank=True)
    recorded_at = models.DateTimeField()
    # PROTECT: a user with recorded events cannot be deleted (SET_NULL would be an
    # UPDATE of the log, which the trigger refuses anyway).
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    correlation_id = models.UUIDField(null=True, blank=True)
    # sha256 over the previous event's hash and this event's content: tampering done
    # directly in the database breaks the chain (manage.py verify_events).
    chain_hash = models.CharField(max_length=64)

    class Meta:
        db_table = "event_log"
        constraints = [
            # Optimistic concurrency: two appenders at the same version, one wins.
            # Also serves read_stream (WHERE stream_id = … ORDER BY version).
            models.UniqueConstraint(
                fields=["stream_id", "version"], name="event_log_stream_version"
            ),
        ]
        indexes = [
            # Serves the ratings change feed (WHERE event_type IN (the result events)
            # AND position > … ORDER BY position). Partial: every index on the log
            # costs every append, and only these events are followed by type.
            models.Index(
                fields=["position"],
                name="event_log_result_feed",
                condition=models.Q(
                    event_type__in=[
                        "result_recorded",
                        "result_amended",
                        "forfeit_recorded",
                        "unpaired_round_recorded",
                        "player_withdrawn",
                    ]
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stream_type}/{self.stream_id}@{self.version} {self.event_type}"


class GameProjectionManager(models.Manager["GameProjection"]):
    def get_queryset(self) -> models.QuerySet[GameProjection]:
        # The snapshot is read only by the game page (games.reads, in SQL); a list
        # of games through the ORM would otherwise fetch kilobytes for every row.
        return super().get_queryset().defer("snapshot")


class GameProjection(models.Model):
    """The current state of one game stream, as of `version` (a read model)."""

    game_id = models.UUIDField(primary_key=True)
    version = models.PositiveIntegerField()
    # No index of its own: games_game_division below starts with it.
    tournament_id = models.UUIDField(null=True, blank=True)
    division = models.CharField(max_length=64, blank=True)
    round = models.PositiveIntegerField(null=True, blank=True)
    board_number = models.PositiveIntegerField(null=True, blank=True)
    title = models.CharField(max_length=200, blank=True)
    players = models.JSONField(default=list)  # [{"nick", "name", "player_id"}]
    ruleset = models.CharField(max_length=32)
    lexicon = models.CharField(max_length=64, blank=True)
    scores = models.JSONField(default=list)
    scores_before_adjustments = models.JSONField(default=list)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    is_over = models.BooleanField(default=False)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    decided_by_tiebreak = models.BooleanField(default=False)
    end_reason = models.CharField(max_length=32, blank=True)
    turn_count = models.PositiveIntegerField(default=0)
    board = models.JSONField(default=list)  # 15 strings; lowercase = blank
    bag_count = models.PositiveSmallIntegerField(default=0)
    discrepancies = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    started_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    # The replayed state at `version`, authenticated (games.snapshots): the game page
    # starts from it instead of reading and replaying the events.
    snapshot = models.BinaryField(null=True, editable=False)

    objects = GameProjectionManager()

    class Meta:
        db_table = "games_game"
        ordering = ["-started_at"]
        indexes = [
            # Serves a division's game list (WHERE tournament_id = … AND division = …
            # ORDER BY round, board_number).
            models.Index(
                fields=["tournament_id", "division", "round", "board_number"],
                name="games_game_division",
            ),
        ]

    def __str__(self) -> str:
        names = " v ".join(player.get("name", "?") for player in self.players)
        return names or str(self.game_id)


class GameTurn(models.Model):
    """One line of a game's score sheet (a read model)."""

    # No index of its own: the unique (game, index) key below starts with game.
    game = models.ForeignKey(
        GameProjection, on_delete=models.CASCADE, related_name="turns", db_index=False
    )
    index = models.PositiveIntegerField()  # 1-based turn number
    version = models.PositiveIntegerField()  # the stream version of the source event
    # None for lines that belong to no player (an adjudication).
    player = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=32)
    rack = models.CharField(max_length=16, blank=True)
    position = models.CharField(max_length=8, blank=True)
    word = models.CharField(max_length=32, blank=True)
    words = models.JSONField(default=list)
    score = models.IntegerField()
    cumulative = models.IntegerField()
    withdrawn = models.BooleanField(default=False)
    notes = models.JSONField(default=list)

    class Meta:
        db_table = "games_turn"
        ordering = ["game", "index"]
        constraints = [
            # Serves the score sheet (WHERE game_id = … ORDER BY index).
            models.UniqueConstraint(fields=["game", "index"], name="games_turn_index"),
        ]

    def __str__(self) -> str:
        return f"turn {self.index}: {self.position} {self.word} {self.score:+d}"
