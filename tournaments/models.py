"""Tournament read models, all projections of the tournament streams.

Nothing here is the record: every row is derived from ``event_log`` by replaying the
tournament's events through ``rules.tournament`` and rebuilt by
``manage.py rebuild_projections``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

# The rows the ratings games list shows: a round with a result, once per game (the
# row of the player who went first) and once per bye, forfeit or credit without
# an opponent.
LISTED = Q(has_result=True) & (Q(went_first=True) | Q(opponent_id=""))


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
    spread_caps = models.JSONField(default=list)  # one cap per round (tsh's list)
    ranking = models.CharField(max_length=16, default="extended")
    rating_system = models.CharField(max_length=16, default="nsa2008")
    club_event = models.BooleanField(default=False)
    # The games' tile set and lexicon ("": none named); a division may set its
    # own (the rules' state has them: rt.TournamentState.game_setup).
    tile_set = models.CharField(max_length=16, default="english")
    lexicon = models.CharField(max_length=32, blank=True, default="")
    divisions = models.JSONField(default=list)
    # Per division, the stream version of the last event that rewrote its players,
    # pairings or standings: the read cache key of its standings and scorecards, so
    # a result in division A leaves division B's cached pages valid.
    division_versions = models.JSONField(default=dict)
    published = models.BooleanField(default=False)
    # Players may report their own games (tournaments.room.selfentry): the scorecard
    # pages offer it, read with the tournament's header.
    self_entry = models.BooleanField(default=False)
    # Minutes after which everyone sees the racks of a game being recorded (null:
    # once it has ended); its team sees them at once (games.selectors.rack_view).
    rack_delay_minutes = models.PositiveIntegerField(null=True, blank=True)
    # A division's own number of rounds, when fewer than the tournament's (tsh's
    # max_div_rounds): {division: rounds}.
    division_rounds = models.JSONField(default=dict, blank=True)
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

    def rounds_of(self, division: str) -> int:
        """How many rounds the division plays (the rules' ``rounds_of``)."""
        own = (self.division_rounds or {}).get(division)
        return self.rounds if own is None else min(int(own), self.rounds)

    def division_version(self, division: str) -> int:
        """The cache key of the division's standings and scorecards."""
        return self.division_versions.get(division, self.version)


# The roles of a tournament's team: a director may do everything; a scorekeeper
# may enter and amend results, nothing else.
DIRECTOR = "director"
SCOREKEEPER = "scorekeeper"


class Director(models.Model):
    """A user of a tournament's team (a director or a scorekeeper)."""

    # No index of its own: the composite keys below start with the tournament
    # (one index fewer to maintain on every rewrite).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="directors", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    role = models.CharField(max_length=16, default=DIRECTOR)

    class Meta:
        db_table = "tournaments_director"
        constraints = [
            # Serves the rights check (WHERE tournament_id = … AND user_id = …).
            models.UniqueConstraint(
                fields=["tournament", "user"], name="director_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.role} of {self.tournament}"


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
    rating_text = models.CharField(max_length=64, blank=True)  # as a file wrote it
    career_games = models.PositiveIntegerField(null=True, blank=True)
    extensions = models.JSONField(default=list)  # a .t line's fields: [[key, values]]
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


class PlayerRound(models.Model):
    """One player's round: the result the rules decided, and the standing after it.

    The one read model of results. Each row is ``rules.tournament.Entry`` (what
    round ``round`` was for the player) stored field for field, with the player's
    rank and running totals after that round (``rules.tournament.standings``).
    Standings, scorecards, pairings, the ratings lists and every submission file read
    these rows; none of them decides a result again. Round 0 holds the pre-event order
    (no entry: ``kind`` "unplayed"). Every player of a division has a row for
    every round from 0 to the division's last paired round.
    """

    # No index of its own: the composite keys below start with the tournament
    # (one index fewer to maintain on every rewrite).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    division = models.CharField(max_length=64)
    round = models.PositiveIntegerField()
    player_id = models.CharField(max_length=64)
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    rating = models.IntegerField()
    withdrawn = models.BooleanField(default=False)
    # The standing after the round (rules.tournament.standings.StandingRow): the
    # place in the standings' order (1 first) and the rank (shared by equals; none
    # for a player left out of the ranking, as tsh leaves out withdrawn players).
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True)
    wins = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    draws = models.PositiveIntegerField()
    running_spread = models.IntegerField()
    total_score = models.IntegerField()
    games = models.PositiveIntegerField()
    byes = models.PositiveIntegerField()
    # The round itself (rules.tournament.Entry).
    kind = models.CharField(max_length=24)
    method = models.CharField(max_length=32, blank=True)  # how the round was paired
    opponent_id = models.CharField(max_length=64, blank=True)
    went_first = models.BooleanField(null=True)
    # False: the file the pairing came from does not say who went first
    # (rules.tournament.Board.first_known); went_first is then the listed order.
    first_known = models.BooleanField(default=True)
    board = models.PositiveIntegerField(null=True)
    own_score = models.IntegerField(null=True)
    opponent_score = models.IntegerField(null=True)
    own_pre_adjustment = models.IntegerField(null=True)
    opponent_pre_adjustment = models.IntegerField(null=True)
    outcome = models.CharField(max_length=8, blank=True)  # win, draw, loss, ""
    tie_break = models.BooleanField(default=False)
    round_spread = models.IntegerField(default=0)
    counted_spread = models.IntegerField(default=0)
    has_result = models.BooleanField(default=False)
    rated = models.BooleanField(default=False)
    game_id = models.UUIDField(null=True)
    amended = models.BooleanField(default=False)
    # The event that last changed the round's entry: its stream version, global log
    # position and time. Ratings bodies sync on these.
    changed_version = models.PositiveIntegerField()
    changed_position = models.BigIntegerField()
    changed_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_player_round"
        ordering = ["tournament", "division", "round", "position"]
        constraints = [
            # One row per player per round; also serves the rewrite of a division's
            # rounds (DELETE WHERE tournament_id = … AND division = … AND round >= …)
            # and an opponent's row (… AND round = … AND player_id = …).
            models.UniqueConstraint(
                fields=["tournament", "division", "round", "player_id"],
                name="player_round_unique",
            ),
        ]
        indexes = [
            # Serves a standings page and a round's pairings (WHERE tournament_id =
            # … AND division = … AND round = … ORDER BY position).
            models.Index(
                fields=["tournament", "division", "round", "position"],
                name="player_round_standings",
            ),
            # Serves a player's scorecard (WHERE tournament_id = … AND player_id = …).
            models.Index(
                fields=["tournament", "player_id", "round"],
                name="player_round_player",
            ),
            # Serve the ratings games list, one row per game (the first player's)
            # or per bye, forfeit or credit: paged by the log position of the
            # last change, or filtered by its time.
            models.Index(
                fields=["changed_position"],
                condition=LISTED,
                name="player_round_listed_pos",
            ),
            models.Index(
                fields=["changed_at"],
                condition=LISTED,
                name="player_round_listed_at",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}, round {self.round}: {self.kind}"

    @property
    def points(self) -> float:
        from rules.outcome import record_points

        return record_points(self.wins, self.draws)

    @property
    def record(self) -> str:
        from rules.tournament.standings import format_record

        return format_record(self.wins, self.losses, self.draws)


class MemberProfile(models.Model):
    """The membership id (a ratings body's) a user says is theirs.

    Not a fact of any tournament: a claim, proved by nothing. It becomes a link to
    a tournament's player with that id (``PlayerAccountLinked``) only when one of
    the tournament's directors confirms it; until then it is pending and gives no
    right (``tournaments.players.accounts``).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="member_profile",
    )
    # Unique: one account per member; a second claimant asks a director.
    member_id = models.CharField(max_length=64, unique=True)

    class Meta:
        db_table = "tournaments_member_profile"

    def __str__(self) -> str:
        return f"{self.user} is member {self.member_id}"


class SelfEntryCodeFailure(models.Model):
    """A wrong self-entry code (``tournaments.room.selfentry``): who was named,
    for which round, from which address, and when.

    Not a projection and not the record: the shared count every worker reads
    before it checks a code (a few wrong codes for a player and round, or from an
    address, and the codes are refused with a 429 for a while), and the list the
    director's self-entry page shows. No foreign key to ``Tournament``: a rebuild
    empties the projections, never these rows (old ones are pruned as new ones
    come).
    """

    tournament_id = models.UUIDField()
    player_id = models.CharField(max_length=64)
    round = models.PositiveIntegerField()
    address = models.CharField(max_length=64)
    failed_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_selfentry_code_failure"
        indexes = [
            # The count for a player and round (WHERE tournament_id, player_id,
            # round AND failed_at > …) and the director's list of a tournament.
            models.Index(
                fields=["tournament_id", "player_id", "round", "failed_at"],
                name="selfentry_failure_player",
            ),
            # The count for an address, and pruning (failed_at < …).
            models.Index(
                fields=["address", "failed_at"], name="selfentry_failure_addr"
            ),
            models.Index(fields=["failed_at"], name="selfentry_failure_at"),
        ]

    def __str__(self) -> str:
        return f"wrong code for {self.player_id} round {self.round} from {self.address}"


class IssuedFile(models.Model):
    """A file the system issued (``tournaments.issued``): each distinct body once.

    Not a projection and not the record: the register a verifier asks whether a
    file is one the site issued. Append-only (a trigger refuses UPDATE and
    DELETE); a body issued again (a poller of tourney.js, a second download at the
    same version) adds nothing, so the row says who first asked, when, and at which
    position of the tournament's log. No foreign key to ``Tournament``: a rebuild
    empties the projections, never this register. The bytes are not kept (they may
    hold what only the team may read, such as self-entry codes): ``lines`` holds an
    8-byte digest of each line, enough to name the first line a changed copy
    differs in.
    """

    sha256 = models.CharField(max_length=64, primary_key=True)
    tournament_id = models.UUIDField()
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    name = models.CharField(max_length=200)
    size = models.PositiveIntegerField()
    line_count = models.PositiveIntegerField()
    lines = models.BinaryField()
    # The first and last lines' digests: a copy changed in one line keeps one of
    # them, so the best-matching record is found by an index, never a scan.
    first_line = models.BigIntegerField()
    last_line = models.BigIntegerField()
    issued_at = models.DateTimeField()
    issued_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        # Append-only: an account deleted later leaves its id here.
        on_delete=models.DO_NOTHING,
        related_name="+",
        db_constraint=False,
    )
    key_id = models.CharField(max_length=40)

    class Meta:
        db_table = "tournaments_issued_file"
        indexes = [
            models.Index(fields=["first_line"], name="issued_file_first_line"),
            models.Index(fields=["last_line"], name="issued_file_last_line"),
            models.Index(
                fields=["tournament_id", "position"], name="issued_file_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.position} ({self.sha256[:12]})"
