"""Self-entry: both players of a game report its final scores from their phones,
and the result stands when the two reports agree.

RULES.md leaves self-entry open. As on the online services and at NASPA events
that take results from players, a report counts only for a paired game without a
result, the two reports must match exactly (each player's score and the
opponent's), and the director decides anything else: a disagreement stays
pending for them, a tied game is theirs to record (the scores before the
end-of-game adjustments may decide it), and their own entry always wins.

Usage::

    report = check_report(state, round_=3, player_id="p1", own=412, opponent=388)
    if agree(report, opponents_report):
        ...  # record the result (rules.tournament.ResultRecorded)
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import tournament as rt


@dataclass(frozen=True, slots=True)
class Report:
    """One player's report of a round's game: their score and their opponent's."""

    round: int
    player_id: str
    opponent_id: str
    own_score: int
    opponent_score: int

    def as_result(self) -> rt.ResultRecorded:
        """The result this report says, from the reporter's side."""
        return rt.ResultRecorded(
            round=self.round,
            player_a=self.player_id,
            player_b=self.opponent_id,
            score_a=self.own_score,
            score_b=self.opponent_score,
        )


def check_report(
    state: rt.TournamentState,
    *,
    round_: int,
    player_id: str,
    own: int,
    opponent: int,
) -> Report:
    """Validate a player's report of their round's game.

    Raises TournamentError (with the field it concerns) when the player has no
    game in that round, the game already has a result, a score is out of range
    (the rules' own check of a result), or the scores tie (the director's).
    """
    player = state.player(player_id, "player_id")
    round_state = (
        state.round_state(player.division, round_) if type(round_) is int else None
    )
    if round_state is None:
        raise rt.TournamentError(
            "round_not_paired", f"Round {round_} is not paired yet.", "round"
        )
    seat = round_state.seats.get(player_id)
    if seat is None or seat.opponent is None:
        raise rt.TournamentError(
            "no_game", f"{player.name} has no game in round {round_}.", "round"
        )
    if own == opponent:
        raise rt.TournamentError(
            "tie_for_director",
            "A tied game is the director's to record: tell them the scores.",
            "score_a",
        )
    report = Report(round_, player_id, seat.opponent, own, opponent)
    # The rules' checks of a result (scores in range, none recorded yet), on a
    # trial: the state is a value, nothing is kept.
    rt.apply(state, report.as_result())
    return report


def agree(report: Report, other: Report) -> bool:
    """Whether two reports are the two players' of one game, with the same scores."""
    return (
        report.round == other.round
        and report.player_id == other.opponent_id
        and report.opponent_id == other.player_id
        and report.own_score == other.opponent_score
        and report.opponent_score == other.own_score
    )
