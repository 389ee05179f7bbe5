"""Tournament read models, all projections of the tournament streams.

Nothing here is the record: every row is derived from ``event_log`` by replaying the
tournament's events through ``rules.tournament`` and rebuilt by
``manage.py rebuild_projections``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Tournament(models.Model):
    """A tournament as of `version` of its stream."""

    tournament_id = models.UUIDField(primary_key=True)
    version = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    start_date = models.DateField()
    end_date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    rounds = models.PositiveIntegerField()
    preset = models.CharField(max_length=16)
    challenge_rule = models.CharField(max_length=16)
    ties_are_draws = models.BooleanField()
    bye_spread = models.IntegerField()
    forfeit_spread = models.IntegerField()
    spread_cap = models.IntegerField(null=True, blank=True)
    divisions = models.JSONField(default=list)
    # Per division, the stream version of the last event that rewrote its players,
    # pairings or standings: the read cache key of its standings and scorecards, so
    # a result in division A leaves division B's cached pages valid.
    division_versions = models.JSONField(default=dict)
    published = models.BooleanField(default=False)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_tournament"
        ordering = ["-start_date", "name"]
        indexes = [
            # Serves the public list (WHERE published ORDER BY start_date DESC).
            models.Index(fields=["published", "-start_date"], name="tournament_pub"),
        ]

    def __str__(self) -> str:
        return self.name

    def division_version(self, division: str) -> int:
        """The cache key of the division's standings and scorecards."""
        return self.division_versions.get(division, self.version)


class Director(models.Model):
    """A user who may write to a tournament."""

    # No index of its own: the composite keys below start with the tournament
    # (one index fewer to maintain on every rewrite).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="directors", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        db_table = "tournaments_director"
        constraints = [
            # Serves the rights check (WHERE tournament_id = … AND user_id = …).
            models.UniqueConstraint(
                fields=["tournament", "user"], name="director_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} directs {self.tournament}"


class Player(models.Model):
    """A registered player of a division."""

    # No index of its own: the composite keys below start with the tournament
    # (one index fewer to maintain on every rewrite).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="players", db_index=False
    )
    player_id = models.CharField(max_length=64)
    division = models.CharField(max_length=64)
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    rating = models.IntegerField()
    member_id = models.CharField(max_length=64, blank=True)
    withdrawn = models.BooleanField(default=False)
    joined_after_round = models.PositiveIntegerField(default=0)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        db_table = "tournaments_player"
        ordering = ["tournament", "division", "number"]
        constraints = [
            # Serves player look-ups (WHERE tournament_id = … AND player_id = …).
            models.UniqueConstraint(
                fields=["tournament", "player_id"], name="player_unique"
            ),
        ]
        indexes = [
            # Serves a division's roster (WHERE tournament_id = … AND division = …
            # ORDER BY number).
            models.Index(
                fields=["tournament", "division", "number"], name="player_division"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Pairing(models.Model):
    """One board of one round (or a bye: `second_id` empty), with its result."""

    # No index of its own: the composite keys below start with the tournament
    # (one index fewer to maintain on every rewrite).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairings", db_index=False
    )
    division = models.CharField(max_length=64)
    round = models.PositiveIntegerField()
    board = models.PositiveIntegerField(null=True, blank=True)
    first_id = models.CharField(max_length=64)
    second_id = models.CharField(max_length=64, blank=True)  # "" for a bye
    method = models.CharField(max_length=32)
    first_score = models.IntegerField(null=True, blank=True)
    second_score = models.IntegerField(null=True, blank=True)
    first_pre_adjustment = models.IntegerField(null=True, blank=True)
    second_pre_adjustment = models.IntegerField(null=True, blank=True)
    winner_id = models.CharField(max_length=64, blank=True)  # "" draw or no result
    absentee_id = models.CharField(max_length=64, blank=True)
    has_result = models.BooleanField(default=False)
    game_id = models.UUIDField(null=True, blank=True)
    amended = models.BooleanField(default=False)
    # The event that last changed this row (its pairing or its result): its stream
    # version, global log position and time. Ratings bodies sync on these.
    changed_version = models.PositiveIntegerField()
    changed_position = models.BigIntegerField()
    changed_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_pairing"
        ordering = ["tournament", "division", "round", "board"]
        indexes = [
            # Serves a round's pairings (WHERE tournament_id = … AND division = … AND
            # round = … ORDER BY board).
            models.Index(
                fields=["tournament", "division", "round", "board"],
                name="pairing_round",
            ),
            # Serves incremental sync (WHERE changed_at >= … ORDER BY changed_at).
            models.Index(fields=["changed_at"], name="pairing_changed_at"),
            # Serves the ratings games list, paged by cursor on the log position
            # (ORDER BY changed_position, …).
            models.Index(fields=["changed_position"], name="pairing_changed_pos"),
            # Serve a player's scorecard (WHERE tournament_id = … AND (first_id = …
            # OR second_id = …)): a bitmap OR of the two.
            models.Index(fields=["tournament", "first_id"], name="pairing_first"),
            models.Index(fields=["tournament", "second_id"], name="pairing_second"),
        ]

    def __str__(self) -> str:
        return f"R{self.round} board {self.board}: {self.first_id} v {self.second_id}"


class Standing(models.Model):
    """A player's line of a division's standings after one round."""

    # No index of its own: the composite keys below start with the tournament
    # (one index fewer to maintain on every rewrite).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings", db_index=False
    )
    division = models.CharField(max_length=64)
    after_round = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    player_id = models.CharField(max_length=64)
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    rating = models.IntegerField()
    wins = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    draws = models.PositiveIntegerField()
    spread = models.IntegerField()
    total_score = models.IntegerField()
    games = models.PositiveIntegerField()
    byes = models.PositiveIntegerField()
    withdrawn = models.BooleanField(default=False)

    class Meta:
        db_table = "tournaments_standing"
        ordering = ["tournament", "division", "after_round", "rank", "number"]
        constraints = [
            # One line per player per round; also serves the rewrite of a division's
            # rounds (DELETE WHERE tournament_id = … AND division = … AND
            # after_round >= …).
            models.UniqueConstraint(
                fields=["tournament", "division", "after_round", "player_id"],
                name="standing_unique",
            ),
        ]
        indexes = [
            # Serves a standings page (WHERE tournament_id = … AND division = … AND
            # after_round = … ORDER BY rank, number).
            models.Index(
                fields=["tournament", "division", "after_round", "rank", "number"],
                name="standing_page",
            ),
            # Serves a player's scorecard (WHERE tournament_id = … AND player_id = …).
            models.Index(
                fields=["tournament", "player_id", "after_round"],
                name="standing_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name} after round {self.after_round}"

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def record(self) -> str:
        from rules.standings import format_record

        return format_record(self.wins, self.losses, self.draws)
