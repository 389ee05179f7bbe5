"""The exceptions of the rules engine.

Every problem the engine detects is a :class:`RulesError` with a stable ``code``
(snake_case, safe to store, compare and translate) and a ``message`` a tournament
director can act on. The layers above ``rules/`` map them to their own errors (an API
returns 400 with the code); nothing above re-implements a rule.

Usage::

    try:
        state = apply(state, event)
    except RulesError as error:
        print(error.code, error.message)
"""

from __future__ import annotations


class RulesError(Exception):
    """Raised when an event or a record breaks a rule of the game.

    ``code`` names the kind of problem and never changes for a given subclass;
    ``message`` says what is wrong in words a director understands; ``version`` is the
    version of the offending event when the error came from replaying a stream.
    """

    code: str = "rules_error"

    def __init__(self, message: str, *, version: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.version = version

    def __str__(self) -> str:
        return self.message


# --- Starting and ordering -------------------------------------------------------


class GameNotStartedError(RulesError):
    """Raised when a stream does not begin with the game's start."""

    code = "not_started"


class GameAlreadyStartedError(RulesError):
    """Raised when a game is started a second time."""

    code = "already_started"


class GameOverError(RulesError):
    """Raised when a turn or a draw is recorded after the game has ended."""

    code = "game_over"


class GameNotOverError(RulesError):
    """Raised when an event that belongs after the end (a time penalty, the end-of-game
    rack adjustments) arrives while the game is still running."""

    code = "game_not_over"


class OutOfTurnError(RulesError):
    """Raised when a player acts when it is another player's turn."""

    code = "out_of_turn"


class InvalidEventError(RulesError):
    """Raised when an event's fields are impossible on their own (a player number that
    does not exist, a negative count, an unknown tile letter)."""

    code = "invalid_event"


class InvalidTileSetError(RulesError):
    """Raised when a tile set cannot be used (duplicate letters, a letter that is not a
    single upper-case character, a negative count)."""

    code = "bad_tile_set"


class UnknownTileSetError(RulesError):
    """Raised when a tile set's name is not one of the tile sets there are."""

    code = "unknown_tile_set"


class UnknownRulesetError(RulesError):
    """Raised when a ruleset preset name is not one of the known presets."""

    code = "unknown_ruleset"


class InvalidRulesetError(RulesError):
    """Raised when a ruleset written as text names a field or a value no ruleset
    has."""

    code = "bad_ruleset"


# --- Placements ------------------------------------------------------------------


class InvalidPositionError(RulesError):
    """Raised when a position is not a GCG coordinate (``8D`` across, ``D8`` down)."""

    code = "bad_position"


class OffBoardError(RulesError):
    """Raised when a play runs past the edge of the board."""

    code = "off_board"


class NotInLineError(RulesError):
    """Raised when the tiles of one play are not all in one row or one column."""

    code = "not_in_line"


class GapError(RulesError):
    """Raised when a play leaves an empty square between its tiles."""

    code = "gap"


class BoardMismatchError(RulesError):
    """Raised when a recorded word names a played-through letter that differs from the
    tile on the board."""

    code = "board_mismatch"


class IncompleteWordError(RulesError):
    """Raised when the recorded word is not the whole word along its line (a tile
    touches one of its ends)."""

    code = "word_incomplete"


class NoTilesError(RulesError):
    """Raised when a play places no new tile."""

    code = "no_tiles"


class OccupiedSquareError(RulesError):
    """Raised when a tile is placed on a square that already holds one."""

    code = "occupied"


class FirstPlayCenterError(RulesError):
    """Raised when the first play of the game does not cover the centre square H8."""

    code = "first_play_center"


class FirstPlayTooShortError(RulesError):
    """Raised when the first play of the game places fewer than two tiles."""

    code = "first_play_too_short"


class NotConnectedError(RulesError):
    """Raised when a play does not touch any tile already on the board."""

    code = "not_connected"


# --- Racks, bag and draws --------------------------------------------------------


class TilesNotOnRackError(RulesError):
    """Raised when a player plays or exchanges tiles that are not on their rack."""

    code = "not_on_rack"


class TileUnavailableError(RulesError):
    """Raised when tiles are said to be drawn or held that cannot be in the bag: every
    copy of the letter is already on the board or on a known rack."""

    code = "tile_unavailable"


class RackOverflowError(RulesError):
    """Raised when a draw would put more tiles on a rack than it holds."""

    code = "rack_overflow"


class BagTooSmallError(RulesError):
    """Raised when a draw takes more tiles than the bag holds."""

    code = "bag_too_small"


class ExchangeNotAllowedError(RulesError):
    """Raised when a player exchanges while the bag holds fewer tiles than the ruleset
    requires (7 in every preset)."""

    code = "exchange_not_allowed"


class RackNotRefilledError(RulesError):
    """Raised when a player takes a turn while their rack is short and the bag still has
    tiles: the draw after their previous turn was not recorded."""

    code = "rack_not_refilled"


class RackMismatchError(RulesError):
    """Raised when a recorded rack cannot be the player's rack given the tiles known to
    be on it."""

    code = "rack_mismatch"


class RackUnknownError(RulesError):
    """Raised when the game must count a rack (end-of-game adjustments) whose tiles are
    not all known."""

    code = "rack_unknown"


# --- Challenges ------------------------------------------------------------------


class NoPlayToChallengeError(RulesError):
    """Raised when a challenge or a withdrawal has no play to apply to: no placement was
    just recorded, or the next turn has already begun."""

    code = "no_play_to_challenge"


class ChallengesNotAllowedError(RulesError):
    """Raised when a challenge is recorded under the ``void`` challenge rule, or a
    challenge bonus under a rule that has none."""

    code = "challenges_not_allowed"


class WordNotFormedError(RulesError):
    """Raised when a challenge names a word the challenged play did not form."""

    code = "word_not_formed"


class DrawBeforeWithdrawalError(RulesError):
    """Raised when a phony is withdrawn after its player already drew replacement
    tiles: the withdrawal must be recorded before the draw."""

    code = "drawn_before_withdrawal"


class PhonyRefusedError(RulesError):
    """Raised under the ``void`` challenge rule when a lexicon is configured and a play
    forms a word that is not in it."""

    code = "phony_refused"


# --- Scores ----------------------------------------------------------------------


class ImpossibleScoreError(RulesError):
    """Raised when a recorded score is larger than any line of a game can score."""

    code = "impossible_score"


class TimePenaltyRepeatedError(RulesError):
    """Raised when a second time penalty is recorded for a player: one penalty counts
    every minute over time."""

    code = "time_penalty_repeated"


# --- Ending ----------------------------------------------------------------------


class EndReasonError(RulesError):
    """Raised when the recorded reason for the end of the game does not match the
    board: nobody went out, or the scoreless turns are not yet enough."""

    code = "bad_end_reason"


# --- Stream positions ------------------------------------------------------------


class NoteTargetError(RulesError):
    """Raised when a note refers to a version that is not a turn of the game."""

    code = "bad_note_target"


class SupersedeError(RulesError):
    """Raised when a correction supersedes an impossible range of versions."""

    code = "bad_supersede"


class LimitExceededError(RulesError):
    """Raised when a new event goes beyond what a game accepts from now on (a note
    or a reason too long, a player's name too long). ``field`` names the event's
    field at fault. Checked only when an event is added, never on a replay."""

    code = "too_long"

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


class TooManyNotesError(LimitExceededError):
    """Raised when a note would take a game past the notes it may hold."""

    code = "too_many_notes"


class ReplayRequiredError(RulesError):
    """Raised when ``apply`` is given a correction (events superseded): only a replay
    of the whole stream can resolve it."""

    code = "replay_required"


# --- Records ---------------------------------------------------------------------


class GcgError(RulesError):
    """Raised when a GCG record cannot be right.

    ``problems`` lists every problem found as ``(line, code, message)``: all the
    problems of the file's syntax at once, or the first rule broken by the game.
    ``state`` is the game just before the first rule problem, when the file got that
    far.
    """

    code = "gcg"

    def __init__(
        self,
        problems: list[tuple[int, str, str]],
        *,
        state: object | None = None,
    ) -> None:
        first = problems[0] if problems else (0, "gcg", "Unreadable record")
        super().__init__(f"Line {first[0]}: {first[2]}")
        self.problems = problems
        self.state = state


class FileLineError(RulesError):
    """Raised when a file a director uploads (a ``.TOU``, a ratings list) cannot be
    read: ``code`` says what, ``line`` is the physical line at fault (or None), and
    the message starts with it; ``field`` is always ``file``."""

    code = "file"

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.code = code
        self.field = "file"
        self.line = line


# --- Tournaments ------------------------------------------------------------------


class TournamentError(RulesError):
    """Raised when a tournament event is illegal in the current state.

    ``code`` is a stable snake_case identifier, ``message`` tells the director what to
    do, and ``field`` names the offending input field (an event field name such as
    ``"round"`` or ``"score_a"``) or is None when no single field is at fault.
    """

    code: str = "tournament_error"

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
