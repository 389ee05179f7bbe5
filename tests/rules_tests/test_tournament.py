"""Tournament events: set-up, pairings, results, withdrawals, amendments, errors."""

from __future__ import annotations

import dataclasses
import typing
from enum import StrEnum

import pytest

from rules.errors import RulesError
from rules.records import EntryKind
from rules.tournament import (
    EVENT_TYPES,
    Board,
    ChallengeRule,
    DivisionAdded,
    ForfeitRecorded,
    Outcome,
    PlayerReactivated,
    PlayerRegistered,
    PlayerWithdrawn,
    Preset,
    ResultAmended,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    TournamentState,
    UnpairedRoundRecorded,
    WithdrawalPolicy,
    apply,
    derive_cards,
    replay,
    tournament_to_records,
)
from rules.tournament.standings import standings


def created(players: int = 4, **settings: object) -> TournamentState:
    """A tournament with division A and players p1..pN (p1 highest rated)."""
    fields: dict[str, object] = {
        "name": "Riverside Club Championship",
        "start_date": "2025-03-01",
        "end_date": "2025-03-02",
        "rounds": 7,
    }
    fields.update(settings)
    return replay(
        [
            TournamentCreated(**fields),  # type: ignore[arg-type]
            DivisionAdded("A"),
            *[
                PlayerRegistered(f"p{i}", "A", f"Player {i}", 1600 - 10 * i)
                for i in range(1, players + 1)
            ],
        ]
    )


def paired(state: TournamentState, round_: int, *pairs: str) -> TournamentState:
    """Pair ``round_``: each "a-b" is a game (a first), a lone id is a bye."""
    games = []
    byes = []
    for item in pairs:
        if "-" in item:
            first, second = item.split("-")
            games.append(Board(len(games) + 1, first, second))
        else:
            byes.append(item)
    return apply(state, RoundPaired("A", round_, tuple(games), tuple(byes)))


def entry(state: TournamentState, player: str, round_: int):
    return state.cards[player].entries[round_ - 1]


def row(state: TournamentState, player: str, after_round: int | None = None):
    return next(r for r in standings(state, "A", after_round) if r.player_id == player)


def check_consistent(state: TournamentState) -> None:
    assert dict(state.cards) == derive_cards(state)


# --- Contracts ------------------------------------------------------------------------


def test_event_types_map_stable_names_to_classes_with_matching_type_name():
    """Every event class is registered under its own ``type_name``."""
    assert set(EVENT_TYPES) >= {
        "tournament_created",
        "division_added",
        "player_registered",
        "player_withdrawn",
        "player_reactivated",
        "round_paired",
        "result_recorded",
        "result_amended",
        "forfeit_recorded",
        "unpaired_round_recorded",
    }
    for name, cls in EVENT_TYPES.items():
        assert cls.type_name == name


def _storable(hint: object) -> bool:
    origin = typing.get_origin(hint)
    if hint in (str, int, bool):
        return True
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return True
    if origin is typing.Union or origin is __import__("types").UnionType:
        args = typing.get_args(hint)
        return type(None) in args and all(
            _storable(a) for a in args if a is not type(None)
        )
    if origin is tuple:
        args = typing.get_args(hint)
        return len(args) == 2 and args[1] is Ellipsis and _storable(args[0])
    if dataclasses.is_dataclass(hint):
        params = getattr(hint, "__dataclass_params__", None)
        hints = typing.get_type_hints(hint)
        return bool(params and params.frozen) and all(
            _storable(hints[f.name]) for f in dataclasses.fields(hint)
        )
    return False


@pytest.mark.parametrize("cls", list(EVENT_TYPES.values()))
def test_event_fields_are_json_encodable_by_type_hint(cls):
    """Events are frozen, slotted, and made only of kinds the codec can store."""
    assert cls.__dataclass_params__.frozen
    assert hasattr(cls, "__slots__")
    hints = typing.get_type_hints(cls)
    for field in dataclasses.fields(cls):
        assert _storable(hints[field.name]), (cls.__name__, field.name)


def test_tournament_error_is_a_rules_error_with_code_message_and_field():
    """Errors carry a stable code, a director-readable message and the field."""
    with pytest.raises(RulesError) as caught:
        apply(created(), ResultRecorded(0, "p1", "p2", 400, 300))
    error = caught.value
    assert isinstance(error, TournamentError)
    assert error.code == "invalid_round"
    assert error.field == "round"
    assert "1 to 7" in error.message


# --- Set-up ---------------------------------------------------------------------------


def test_presets_resolve_challenge_rule_and_tie_rule():
    """classic breaks ties by pre-adjustment score; naspa/wespa score ties as draws."""
    classic = created().settings
    assert classic.challenge_rule is ChallengeRule.DOUBLE
    assert classic.ties_are_draws is False
    assert classic.bye_spread == 50
    assert classic.forfeit_spread == 50
    wespa = created(preset=Preset.WESPA).settings
    assert wespa.challenge_rule is ChallengeRule.FIVE_POINT
    assert wespa.ties_are_draws is True
    naspa = created(preset=Preset.NASPA, ties_are_draws=False).settings
    assert naspa.ties_are_draws is False
    assert created(challenge_rule=ChallengeRule.VOID).settings.challenge_rule is (
        ChallengeRule.VOID
    )


def test_players_get_stable_numbers_in_registration_order():
    """The player number is the registration order within the division."""
    state = apply(created(2), DivisionAdded("B"))
    state = apply(state, PlayerRegistered("x", "B", "Xavier", 1200, member_id="N1"))
    state = apply(state, PlayerRegistered("p3", "A", "Player 3", 1000))
    assert [state.players[p].number for p in ("p1", "p2", "p3")] == [1, 2, 3]
    assert state.players["x"].number == 1
    assert state.players["x"].member_id == "N1"
    assert state.division_players["A"] == ("p1", "p2", "p3")


def test_apply_returns_a_new_state_and_counts_versions():
    """apply never mutates the state it is given."""
    before = paired(created(), 1, "p1-p2", "p3-p4")
    after = apply(before, ResultRecorded(1, "p1", "p2", 400, 300))
    assert before.round_state("A", 1).results == {}
    assert entry(before, "p1", 1).outcome is None
    assert entry(after, "p1", 1).outcome is Outcome.WIN
    assert after.version == before.version + 1


# --- Pairings -------------------------------------------------------------------------


def test_round_pairing_records_boards_firsts_and_byes():
    """A pairing event gives each player a seat: board, opponent, first or second."""
    state = paired(created(5), 1, "p1-p2", "p3-p4", "p5")
    seats = state.round_state("A", 1).seats
    assert seats["p1"].opponent == "p2"
    assert seats["p1"].went_first is True
    assert seats["p2"].went_first is False
    assert seats["p2"].board == 1
    assert seats["p5"].opponent is None
    assert entry(state, "p5", 1).kind is EntryKind.BYE
    assert entry(state, "p5", 1).round_spread == 50


def test_repairing_replaces_the_pairing_until_a_result_is_in():
    """A later RoundPaired replaces the earlier one; after a result it is refused."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = paired(state, 1, "p1-p3", "p2-p4")
    round_state = state.round_state("A", 1)
    assert round_state.seats["p1"].opponent == "p3"
    assert round_state.superseded_pairings[0].games[0] == Board(1, "p1", "p2")
    state = apply(state, ResultRecorded(1, "p1", "p3", 400, 300))
    with pytest.raises(TournamentError) as caught:
        paired(state, 1, "p1-p2", "p3-p4")
    assert caught.value.code == "round_has_results"


def test_a_bye_counts_as_a_win_with_the_bye_spread():
    """Bye: a win with +bye_spread (a tournament setting)."""
    state = paired(created(3, bye_spread=75), 1, "p1-p2", "p3")
    assert row(state, "p3").wins == 1
    assert row(state, "p3").spread == 75
    assert row(state, "p3").total_score == 0


# --- Results --------------------------------------------------------------------------


def test_result_in_either_player_order_gives_both_players_their_side():
    """A result names the two players in any order; each gets own scores and spread."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p2", "p1", 350, 420))
    p1 = entry(state, "p1", 1)
    assert (p1.own_score, p1.opponent_score, p1.outcome) == (420, 350, Outcome.WIN)
    assert p1.went_first is True
    p2 = entry(state, "p2", 1)
    assert (p2.round_spread, p2.outcome, p2.went_first) == (-70, Outcome.LOSS, False)


def test_tied_final_scores_need_the_pre_adjustment_scores_by_default():
    """Classic tie rule: the higher score before the end-of-game adjustments wins."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    with pytest.raises(TournamentError) as caught:
        apply(state, ResultRecorded(1, "p1", "p2", 400, 400))
    assert caught.value.code == "pre_adjustment_scores_required"
    assert caught.value.field == "pre_adjustment_a"
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 400, 390, 396))
    assert entry(state, "p2", 1).outcome is Outcome.WIN
    assert entry(state, "p1", 1).outcome is Outcome.LOSS
    assert entry(state, "p1", 1).round_spread == 0
    state = apply(state, ResultRecorded(1, "p3", "p4", 380, 380, 370, 370))
    assert entry(state, "p3", 1).outcome is Outcome.DRAW


def test_ties_are_draws_option_scores_every_tie_as_a_draw():
    """With ties_are_draws a tie is a draw; no pre-adjustment scores needed."""
    state = paired(created(ties_are_draws=True), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 400))
    assert entry(state, "p1", 1).outcome is Outcome.DRAW
    state = apply(state, ResultRecorded(1, "p3", "p4", 400, 400, 380, 402))
    assert entry(state, "p3", 1).outcome is Outcome.DRAW
    assert row(state, "p1").draws == 1
    assert row(state, "p1").record == "0.5-0.5"


def test_negative_scores_are_legal():
    """Six passes can end below zero: -16 is a legal score."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p1", "p2", 12, -16))
    assert entry(state, "p2", 1).own_score == -16
    assert entry(state, "p1", 1).round_spread == 28


def test_game_id_links_a_game_recorded_move_by_move():
    """The result keeps the id of the game whose replay gave its scores."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p1", "p2", 401, 377, game_id="g-17"))
    assert state.round_state("A", 1).result_of("p2", "p1").game_id == "g-17"


def test_forfeit_of_a_paired_game():
    """Forfeit: a loss with -forfeit_spread for the absentee, a win for the opponent."""
    state = paired(created(forfeit_spread=100), 1, "p1-p2", "p3-p4")
    state = apply(state, ForfeitRecorded(1, "p2"))
    assert entry(state, "p2", 1).kind is EntryKind.FORFEIT_LOSS
    assert row(state, "p2").spread == -100
    assert row(state, "p2").losses == 1
    assert entry(state, "p1", 1).kind is EntryKind.FORFEIT_WIN
    assert row(state, "p1").spread == 100
    assert row(state, "p1").wins == 1
    # A forfeit is not a played game: no first or second.
    assert state.cards["p1"].totals.firsts == 0


# --- Amendments -----------------------------------------------------------------------


def test_amendment_keeps_the_superseded_result_visible():
    """ResultAmended replaces the result and keeps the old one in its history."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 350))
    recorded_at = state.version
    state = apply(state, ResultAmended(1, "p2", "p1", 450, 400, reason="slip misread"))
    result = state.round_state("A", 1).result_of("p1", "p2")
    assert result.winner == "p2"
    assert result.reason == "slip misread"
    assert result.previous is not None
    assert result.previous.winner == "p1"
    assert result.previous.version == recorded_at
    assert [r.version for r in result.history] == [state.version, recorded_at]
    assert row(state, "p2").wins == 1
    assert row(state, "p1").losses == 1


def test_amendment_to_a_forfeit_and_back():
    """An amendment can turn a game into a forfeit and back into a game."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 350))
    state = apply(state, ResultAmended(1, "p1", "p2", absentee="p1"))
    assert entry(state, "p1", 1).kind is EntryKind.FORFEIT_LOSS
    state = apply(state, ResultAmended(1, "p1", "p2", 300, 310))
    assert entry(state, "p2", 1).outcome is Outcome.WIN
    assert len(state.round_state("A", 1).result_of("p1", "p2").history) == 3
    check_consistent(state)


def test_amendment_in_round_2_of_7_changes_every_later_standing():
    """Correcting round 2 recomputes the standings after rounds 2..7, not round 1."""
    players = [f"p{i}" for i in range(1, 9)]
    state = created(8)
    # Round robin of 8 by the circle method, fixed by hand.
    rotating = players[:-1]
    for round_ in range(1, 8):
        order = rotating[round_ - 1 :] + rotating[: round_ - 1]
        pairs = [f"{order[0]}-{players[-1]}"] + [
            f"{order[i]}-{order[7 - i]}" for i in range(1, 4)
        ]
        state = paired(state, round_, *pairs)
        for index, game in enumerate(state.round_state("A", round_).pairing.games):
            state = apply(
                state,
                ResultRecorded(round_, game.first, game.second, 400 + index, 380),
            )
    before = {r: standings(state, "A", r) for r in range(1, 8)}
    game = state.round_state("A", 2).pairing.games[0]
    amended = apply(
        state, ResultAmended(2, game.first, game.second, 300, 500, reason="misread")
    )
    after = {r: standings(amended, "A", r) for r in range(1, 8)}
    assert after[1] == before[1]
    for round_ in range(2, 8):
        assert after[round_] != before[round_]
        winner = next(r for r in after[round_] if r.player_id == game.second)
        old = next(r for r in before[round_] if r.player_id == game.second)
        assert winner.wins == old.wins + 1
        assert winner.spread == old.spread + 220
    # The running totals are the standings after the last round, less its entry.
    latest = tuple(dataclasses.replace(r, entry=None) for r in after[7])
    assert standings(amended, "A") == latest
    check_consistent(amended)


# --- Withdrawals, late entries, re-activation -----------------------------------------


def test_withdrawal_with_forfeit_policy_gives_forfeit_losses_in_later_rounds():
    """Policy forfeit: every later paired round is a forfeit loss for the player."""
    state = paired(created(5), 1, "p1-p2", "p3-p4", "p5")
    state = apply(state, PlayerWithdrawn("p5", 2, WithdrawalPolicy.FORFEIT))
    state = paired(state, 2, "p1-p3", "p2-p4")
    assert entry(state, "p5", 2).kind is EntryKind.WITHDRAWAL_FORFEIT
    assert entry(state, "p5", 2).round_spread == -50
    assert entry(state, "p5", 3) is None  # round 3 not paired yet
    assert row(state, "p5").record == "1-1"
    assert row(state, "p5").withdrawn is True
    check_consistent(state)


def test_withdrawal_forfeits_an_already_paired_game_under_either_policy():
    """A withdrawn player's paired game is a forfeit: the opponent wins by forfeit."""
    for policy in WithdrawalPolicy:
        state = paired(created(), 1, "p1-p2", "p3-p4")
        state = paired(state, 2, "p1-p3", "p2-p4")
        state = apply(state, PlayerWithdrawn("p4", 2, policy))
        assert entry(state, "p4", 2).kind is EntryKind.WITHDRAWAL_FORFEIT
        assert entry(state, "p2", 2).kind is EntryKind.FORFEIT_WIN
        assert row(state, "p2").spread == 50
        check_consistent(state)


def test_withdrawal_with_not_paired_policy_leaves_the_player_out():
    """Policy not_paired: no entry for later rounds, and pairing them is refused."""
    state = paired(created(5), 1, "p1-p2", "p3-p4", "p5")
    state = apply(state, PlayerWithdrawn("p5", 2, WithdrawalPolicy.NOT_PAIRED))
    state = paired(state, 2, "p1-p3", "p2-p4")
    assert entry(state, "p5", 2) is None
    assert row(state, "p5").record == "1-0"
    with pytest.raises(TournamentError) as caught:
        paired(state, 2, "p1-p5", "p2-p4")
    assert caught.value.code == "player_withdrawn"


def test_forfeit_policy_player_may_be_paired_but_not_given_a_bye():
    """A forfeit-policy withdrawal may stay in a pairing (a forfeit), never a bye."""
    state = apply(created(5), PlayerWithdrawn("p5", 1, WithdrawalPolicy.FORFEIT))
    state = paired(state, 1, "p1-p5", "p2-p3", "p4")
    assert entry(state, "p1", 1).kind is EntryKind.FORFEIT_WIN
    with pytest.raises(TournamentError) as caught:
        paired(state, 1, "p1-p2", "p3-p4", "p5")
    assert caught.value.code == "player_withdrawn"
    assert caught.value.field == "byes"


def test_reactivation_restores_pairing_from_its_round():
    """Re-activated from round 3: round 2 stays a forfeit loss, round 3 is playable."""
    state = paired(created(5), 1, "p1-p2", "p3-p4", "p5")
    state = apply(state, PlayerWithdrawn("p5", 2))
    state = paired(state, 2, "p1-p3", "p2-p4")
    state = apply(state, PlayerReactivated("p5", 3))
    assert state.players["p5"].withdrawn is False
    assert entry(state, "p5", 2).kind is EntryKind.WITHDRAWAL_FORFEIT
    state = paired(state, 3, "p5-p1", "p2-p3", "p4")
    state = apply(state, ResultRecorded(3, "p5", "p1", 410, 400))
    assert row(state, "p5").record == "2-1"
    check_consistent(state)


def test_reactivation_from_the_withdrawal_round_cancels_the_withdrawal():
    """Re-activating from the round the withdrawal began undoes it entirely."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, PlayerWithdrawn("p4", 1))
    assert entry(state, "p3", 1).kind is EntryKind.FORFEIT_WIN
    state = apply(state, PlayerReactivated("p4", 1))
    assert state.players["p4"].withdrawals == ()
    assert entry(state, "p3", 1).kind is EntryKind.GAME
    check_consistent(state)


def test_late_entry_gets_nothing_for_missed_rounds_unless_recorded():
    """tsh practice: missed rounds are absent, unless the director records one."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = paired(state, 2, "p1-p3", "p2-p4")
    state = apply(state, PlayerRegistered("late", "A", "Late Comer", 1400))
    assert state.players["late"].joined_after_round == 2
    assert row(state, "late").games == 0
    state = apply(state, UnpairedRoundRecorded(1, "late", -50))
    state = apply(state, UnpairedRoundRecorded(2, "late", 50))
    assert entry(state, "late", 1).kind is EntryKind.CREDIT
    assert entry(state, "late", 1).outcome is Outcome.LOSS
    assert entry(state, "late", 2).kind is EntryKind.CREDIT
    assert entry(state, "late", 2).outcome is Outcome.WIN
    assert row(state, "late").record == "1-1"
    check_consistent(state)


def test_a_credit_of_zero_is_neither_a_win_nor_a_loss():
    """tsh stores a late entry's missed round as opponent 0, score 0: it counts
    neither as a win nor as a loss, but the round is accounted for."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, PlayerRegistered("late", "A", "Late Comer", 1400))
    state = apply(state, UnpairedRoundRecorded(1, "late", 0))
    late = entry(state, "late", 1)
    assert (late.kind, late.outcome, late.round_spread) == (EntryKind.CREDIT, None, 0)
    assert late.has_result
    assert row(state, "late").record == "0-0"
    check_consistent(state)


def test_late_entry_can_be_in_a_repairing_of_a_round_without_results():
    """A late entry joins a round that was paired but has no result yet."""
    state = paired(created(3), 1, "p1-p2", "p3")
    state = apply(state, PlayerRegistered("p4", "A", "Player 4", 1400))
    state = paired(state, 1, "p1-p2", "p3-p4")
    assert entry(state, "p3", 1).kind is EntryKind.GAME


# --- Records for file writers ---------------------------------------------------------


def test_tournament_to_records_lists_every_round_of_every_player():
    """Records: numbers as ids, byes/forfeits with their signed spread, absences."""
    state = paired(created(5), 1, "p1-p2", "p3-p4", "p5")
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 400, 380, 370))
    state = apply(state, ForfeitRecorded(1, "p4"))
    state = apply(state, PlayerRegistered("p6", "A", "Player 6", 900))
    record = tournament_to_records(state)
    assert record.name == "Riverside Club Championship"
    assert record.date == "2025-03-01"
    division = record.divisions[0]
    by_number = {p.number: p for p in division.players}
    p1 = by_number[1].rounds[0]
    assert (p1.kind, p1.opponent, p1.own_score, p1.result) == (
        EntryKind.GAME,
        2,
        400,
        1.0,
    )
    assert p1.went_first is True
    p3 = by_number[3].rounds[0]
    assert (p3.kind, p3.opponent, p3.own_score) == (EntryKind.FORFEIT_WIN, 4, 50)
    p4 = by_number[4].rounds[0]
    assert (p4.kind, p4.own_score, p4.result) == (EntryKind.FORFEIT_LOSS, -50, 0.0)
    assert by_number[5].rounds[0].kind is EntryKind.BYE
    assert by_number[6].rounds[0].kind is EntryKind.UNPLAYED


# --- Validation errors: every code ----------------------------------------------------


def _state_with_results() -> TournamentState:
    state = paired(created(5), 1, "p1-p2", "p3-p4", "p5")
    return apply(state, ResultRecorded(1, "p1", "p2", 400, 300))


ERRORS = [
    # (description, event, code, field)
    ("round zero", ResultRecorded(0, "p3", "p4", 1, 2), "invalid_round", "round"),
    ("negative round", ResultRecorded(-1, "p3", "p4", 1, 2), "invalid_round", "round"),
    ("round too large", ResultRecorded(8, "p3", "p4", 1, 2), "invalid_round", "round"),
    (
        "pair round too large",
        RoundPaired("A", 99, (Board(1, "p1", "p2"),)),
        "invalid_round",
        "round",
    ),
    (
        "unknown player",
        ResultRecorded(1, "p3", "nobody", 1, 2),
        "unknown_player",
        "player_b",
    ),
    (
        "score for an unpaired game",
        ResultRecorded(1, "p3", "p1", 400, 300),
        "game_not_paired",
        "player_b",
    ),
    (
        "score for a player with a bye",
        ResultRecorded(1, "p5", "p1", 400, 300),
        "game_not_paired",
        "player_b",
    ),
    (
        "result for a round not paired",
        ResultRecorded(2, "p1", "p2", 400, 300),
        "round_not_paired",
        "round",
    ),
    (
        "duplicate result",
        ResultRecorded(1, "p2", "p1", 300, 400),
        "duplicate_result",
        "round",
    ),
    (
        "amend a game without result",
        ResultAmended(1, "p3", "p4", 300, 400),
        "no_result_to_amend",
        "round",
    ),
    (
        "non-integer score",
        ResultRecorded(1, "p3", "p4", 400.5, 300),  # type: ignore[arg-type]
        "invalid_score",
        "score_a",
    ),
    (
        "boolean score",
        ResultRecorded(1, "p3", "p4", 400, True),
        "invalid_score",
        "score_b",
    ),
    (
        "absurd score",
        ResultRecorded(1, "p3", "p4", 4004, 300),
        "invalid_score",
        "score_a",
    ),
    (
        "absurd negative score",
        ResultRecorded(1, "p3", "p4", 300, -1001),
        "invalid_score",
        "score_b",
    ),
    (
        "one pre-adjustment score",
        ResultRecorded(1, "p3", "p4", 300, 200, 290, None),
        "pre_adjustment_scores_required",
        "pre_adjustment_b",
    ),
    (
        "empty game id",
        ResultRecorded(1, "p3", "p4", 300, 200, game_id=""),
        "invalid_game_id",
        "game_id",
    ),
    (
        "player paired twice",
        RoundPaired("A", 2, (Board(1, "p1", "p2"), Board(2, "p1", "p3"))),
        "player_paired_twice",
        "games",
    ),
    (
        "player paired and given a bye",
        RoundPaired("A", 2, (Board(1, "p1", "p2"),), ("p2",)),
        "player_paired_twice",
        "byes",
    ),
    (
        "pairing names an unknown player",
        RoundPaired("A", 2, (Board(1, "p1", "ghost"),)),
        "unknown_player",
        "games",
    ),
    (
        "pairing a player of another division",
        RoundPaired("A", 2, (Board(1, "p1", "b1"),)),
        "wrong_division",
        "games",
    ),
    (
        "pairing an unknown division",
        RoundPaired("Z", 2, (Board(1, "p1", "p2"),)),
        "unknown_division",
        "division",
    ),
    (
        "pairing round 3 before round 2",
        RoundPaired("A", 3, (Board(1, "p1", "p2"),)),
        "round_out_of_order",
        "round",
    ),
    (
        "re-pairing a round with results",
        RoundPaired("A", 1, (Board(1, "p1", "p3"),)),
        "round_has_results",
        "round",
    ),
    ("empty pairing", RoundPaired("A", 2, ()), "empty_pairing", "games"),
    (
        "board used twice",
        RoundPaired("A", 2, (Board(1, "p1", "p2"), Board(1, "p3", "p4"))),
        "invalid_board",
        "games",
    ),
    (
        "board zero",
        RoundPaired("A", 2, (Board(0, "p1", "p2"),)),
        "invalid_board",
        "games",
    ),
    ("forfeit of a bye", ForfeitRecorded(1, "p5"), "game_not_paired", "absentee"),
    (
        "unpaired entry for a paired player",
        UnpairedRoundRecorded(1, "p3", 50),
        "player_already_paired",
        "player_id",
    ),
    (
        "unpaired entry beyond the largest spread",
        UnpairedRoundRecorded(1, "p3", 1001),
        "invalid_spread",
        "spread",
    ),
    (
        "duplicate division",
        DivisionAdded("A"),
        "duplicate_division",
        "name",
    ),
    (
        "duplicate player",
        PlayerRegistered("p1", "A", "Again", 1500),
        "duplicate_player",
        "player_id",
    ),
    (
        "register into an unknown division",
        PlayerRegistered("q", "Z", "Q", 1500),
        "unknown_division",
        "division",
    ),
    (
        "negative rating",
        PlayerRegistered("q", "A", "Q", -5),
        "invalid_rating",
        "rating",
    ),
    ("empty name", PlayerRegistered("q", "A", "  ", 1500), "invalid_name", "name"),
    (
        "empty player id",
        PlayerRegistered("", "A", "Q", 1500),
        "invalid_player_id",
        "player_id",
    ),
    (
        "withdraw from a round with a result",
        PlayerWithdrawn("p1", 1),
        "results_after_withdrawal",
        "from_round",
    ),
    (
        "reactivate an active player",
        PlayerReactivated("p1", 2),
        "not_withdrawn",
        "player_id",
    ),
    (
        "created twice",
        TournamentCreated("Again", "2025-01-01", "2025-01-01", 3),
        "already_created",
        None,
    ),
]


@pytest.mark.parametrize(
    ("event", "code", "field"),
    [case[1:] for case in ERRORS],
    ids=[case[0] for case in ERRORS],
)
def test_illegal_events_are_refused_with_a_code_and_field(event, code, field):
    """Each illegal event raises its stable code, names the field, changes nothing."""
    state = _state_with_results()
    state = apply(state, DivisionAdded("B"))
    state = apply(state, PlayerRegistered("b1", "B", "Bea", 1500))
    snapshot = (dict(state.cards), dict(state.rounds), dict(state.players))
    with pytest.raises(TournamentError) as caught:
        apply(state, event)
    assert caught.value.code == code
    assert caught.value.field == field
    assert caught.value.message
    assert (dict(state.cards), dict(state.rounds), dict(state.players)) == snapshot


def test_already_withdrawn_and_reactivation_before_withdrawal_are_refused():
    """Withdrawing twice, or re-activating before the withdrawal round, is refused."""
    state = apply(created(), PlayerWithdrawn("p2", 3))
    with pytest.raises(TournamentError) as caught:
        apply(state, PlayerWithdrawn("p2", 4))
    assert caught.value.code == "already_withdrawn"
    with pytest.raises(TournamentError) as caught:
        apply(state, PlayerReactivated("p2", 2))
    assert caught.value.code == "invalid_round"
    assert caught.value.field == "from_round"


@pytest.mark.parametrize(
    ("settings", "code", "field"),
    [
        ({"rounds": 0}, "invalid_setting", "rounds"),
        ({"rounds": 101}, "invalid_setting", "rounds"),
        ({"bye_spread": -1}, "invalid_setting", "bye_spread"),
        ({"forfeit_spread": 5000}, "invalid_setting", "forfeit_spread"),
        ({"spread_cap": 0}, "invalid_setting", "spread_cap"),
        ({"preset": "scrabble"}, "invalid_setting", "preset"),
        ({"challenge_rule": "triple"}, "invalid_setting", "challenge_rule"),
        ({"start_date": "March 1"}, "invalid_date", "start_date"),
        ({"end_date": "2025-02-28"}, "invalid_date", "end_date"),
        ({"name": ""}, "invalid_name", "name"),
    ],
)
def test_invalid_settings_are_refused(settings, code, field):
    """TournamentCreated validates every setting."""
    fields = {"name": "T", "start_date": "2025-03-01", "end_date": "2025-03-01"}
    fields["rounds"] = 7
    fields.update(settings)
    with pytest.raises(TournamentError) as caught:
        apply(None, TournamentCreated(**fields))
    assert (caught.value.code, caught.value.field) == (code, field)


def test_events_before_creation_and_empty_logs_are_refused():
    """The first event must create the tournament."""
    with pytest.raises(TournamentError) as caught:
        apply(None, DivisionAdded("A"))
    assert caught.value.code == "not_created"
    with pytest.raises(TournamentError) as caught:
        replay([])
    assert caught.value.code == "not_created"


def test_unknown_event_objects_are_refused():
    """apply refuses anything that is not a tournament event."""
    with pytest.raises(TournamentError) as caught:
        apply(created(), object())  # type: ignore[arg-type]
    assert caught.value.code == "unknown_event"


@pytest.mark.parametrize(
    ("event", "code", "field"),
    [
        (
            RoundPaired("A", 1, [Board(1, "p1", "p2")]),  # type: ignore[arg-type]
            "invalid_pairing",
            "games",
        ),
        (
            RoundPaired("A", 1, (("p1", "p2"),)),  # type: ignore[arg-type]
            "invalid_pairing",
            "games",
        ),
        (
            RoundPaired("A", 1, (Board(1, "p1", "p2"),), coin_flips=(1,)),  # type: ignore[arg-type]
            "invalid_pairing",
            "coin_flips",
        ),
        (
            PlayerRegistered("q", "A", "Q", 1500, member_id=7),  # type: ignore[arg-type]
            "invalid_value",
            "member_id",
        ),
        (
            PlayerRegistered("q", "A", "Q", "1500"),  # type: ignore[arg-type]
            "invalid_rating",
            "rating",
        ),
        (
            PlayerWithdrawn("p1", 1, "vanish"),  # type: ignore[arg-type]
            "invalid_setting",
            "policy",
        ),
    ],
)
def test_malformed_event_fields_are_refused(event, code, field):
    """Fields of the wrong kind (as a faulty client might send) are refused."""
    with pytest.raises(TournamentError) as caught:
        apply(created(), event)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_amendment_reason_must_be_text():
    """An amendment's reason is text."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 350))
    with pytest.raises(TournamentError) as caught:
        apply(state, ResultAmended(1, "p1", "p2", 1, 2, reason=5))  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.field) == ("invalid_value", "reason")


def test_amendment_names_an_absentee_of_the_game_and_no_scores():
    """A forfeit amendment names one of the two players and carries no scores."""
    state = paired(created(), 1, "p1-p2", "p3-p4")
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 350))
    with pytest.raises(TournamentError) as caught:
        apply(state, ResultAmended(1, "p1", "p2", absentee="p3"))
    assert (caught.value.code, caught.value.field) == ("game_not_paired", "absentee")
    with pytest.raises(TournamentError) as caught:
        apply(state, ResultAmended(1, "p1", "p2", 400, None, absentee="p1"))
    assert caught.value.code == "invalid_score"


def test_zero_bye_and_forfeit_spreads_still_win_and_lose():
    """A bye spread of 0 is still a win; a forfeit spread of 0 still decides."""
    state = paired(created(3, bye_spread=0, forfeit_spread=0), 1, "p1-p2", "p3")
    state = apply(state, ForfeitRecorded(1, "p2"))
    assert (row(state, "p3").wins, row(state, "p3").spread) == (1, 0)
    assert (row(state, "p1").wins, row(state, "p2").losses) == (1, 1)
