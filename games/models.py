"""The game projections: read models derived from the event log.

Everything here is disposable, rebuilt from the log (``games.eventstore.models``) by
``manage.py rebuild_projections``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
    # Who may read a casual game (rules.events.Visibility; a tournament's game is
    # readable as its tournament is), and the version of the event that made its
    # secret link (None unless shared by link).
    visibility = models.CharField(max_length=8, default="public")
    share_version = models.PositiveIntegerField(null=True, blank=True)
    # The replayed state at `version` is kept by the event store, not here
    # (games.eventstore.kept; sealed by games.snapshots).

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
    # [{"id", "text", "author", "author_id", "written_at", "edited_at"}]
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


class UploadUsage(models.Model):
    """What a user uploaded on one day (UTC): GCG files, the events they added and
    the notes among them, with the notes typed that day (games.quotas). One row
    per user and day, counted up in the upload's own transaction."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    day = models.DateField()
    files = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)
    notes = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "games_upload_usage"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "day"], name="games_upload_usage_user_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.day}: {self.files} files, {self.events} events"
