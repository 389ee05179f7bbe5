"""NASPA and ABSP rating estimates, against published examples and hand arithmetic.

Throughout, E(d) is NASPA's expectation for a rating difference d:
E(d) = 1 - 1 / (1 + exp(0.0031879 * d)); E(0) = 0.5, E(100) = 0.57903,
E(-100) = 0.42097.
"""

from __future__ import annotations

import dataclasses

import pytest

from rules.ratings import (
    ABSP,
    NASPA,
    AbspGame,
    RatedGame,
    RatedPlayer,
    RatingsError,
    absp_event_rating,
    absp_game_points,
    absp_rate_division,
    division_rated_games,
    naspa_band_change,
    naspa_expected,
    naspa_multiplier,
    naspa_rate_event,
    naspa_segments,
    performance_rating,
    rate_division,
    rated_entries,
    record_performance,
)
from rules.records import DivisionRecord, EntryKind, PlayerRecord, RoundEntry

ESTABLISHED = 100  # career games: well past the 50 of the provisional multiplier


def players(*ratings: int | None, career: int = ESTABLISHED) -> list[RatedPlayer]:
    """Players 1, 2, ... with the given ratings (None: unrated, 0 career games)."""
    return [
        RatedPlayer(i, rating, 0 if rating is None else career)
        for i, rating in enumerate(ratings, start=1)
    ]


# Expectation and multipliers


def test_expected_matches_the_published_example() -> None:
    """1800 against 1700 expects 0.57903 of a win."""
    assert naspa_expected(1800, 1700) == pytest.approx(0.57903, abs=5e-6)


def test_expected_is_a_half_for_equals_and_sums_to_one() -> None:
    """Equal ratings expect 0.5; the two sides of a game expect 1 between them."""
    assert naspa_expected(1500, 1500) == 0.5
    assert naspa_expected(1234, 2109) + naspa_expected(2109, 1234) == pytest.approx(1)


@pytest.mark.parametrize(
    ("rating", "career", "multiplier"),
    [
        (1799, 49, 30),
        (1799, 50, 20),
        (1800, 49, 24),
        (1800, 50, 16),
        (1999, 0, 24),
        (1999, 500, 16),
        (2000, 49, 15),
        (2000, 50, 10),
    ],
)
def test_multiplier_by_band_and_career_games(
    rating: int, career: int, multiplier: float
) -> None:
    """Under 1800: 30/20; 1800-1999: 24/16; 2000 up: 15/10 (fewer than 50 games/not)."""
    assert naspa_multiplier(rating, career) == multiplier


# Band by band


def test_change_within_a_band_is_multiplier_times_surplus() -> None:
    """1500, surplus 0.5, M 20: 20 * 0.5 = 10."""
    assert naspa_band_change(1500, 0.5, ESTABLISHED) == pytest.approx(10)


def test_change_crossing_1800_upwards_is_rescaled_beyond_the_boundary() -> None:
    """1790, surplus 1.0: 20 * 1.0 = 20, of which 10 reach 1800; 10 * 16/20 = 8.

    1790 + 10 + 8 = 1808, a change of 18 (not 20, and not 16).
    """
    assert naspa_band_change(1790, 1.0, ESTABLISHED) == pytest.approx(18)


def test_change_crossing_2000_downwards_is_rescaled_beyond_the_boundary() -> None:
    """2005, surplus -1.0: 10 * -1 = -10, of which -5 reach 2000; -5 * 16/10 = -8.

    2005 - 5 - 8 = 1992, a change of -13.
    """
    assert naspa_band_change(2005, -1.0, ESTABLISHED) == pytest.approx(-13)


def test_change_crossing_two_boundaries() -> None:
    """1790, surplus 15: 0.5 of it reaches 1800 (+10), 12.5 more reach 2000 (+200).

    The last 2.0 moves at 10 a win: +20, so 2020. As the rescaling computes it:
    20 * 15 = 300; (300 - 10) * 16/20 = 232 -> 2032 crosses 2000;
    (232 - 200) * 10/16 = 20 -> 2020, a change of 230.
    """
    assert naspa_band_change(1790, 15.0, ESTABLISHED) == pytest.approx(230)


def test_provisional_players_cross_bands_at_their_own_multipliers() -> None:
    """1790, 10 career games, surplus 1.0: 30 * 1 = 30; 10 to 1800, 20 * 24/30 = 16."""
    assert naspa_band_change(1790, 1.0, 10) == pytest.approx(26)


def test_event_crossing_1800_applies_band_by_band() -> None:
    """Two 1790s meet twice; player 1 wins both: surplus 1.0 each way.

    Player 1: 1790 -> 1808 (see above). Player 2: 20 * -1.0 = -20 -> 1770.
    Two games are too few for an acceleration bonus.
    """
    games = [RatedGame(1, 1, 2, 1), RatedGame(2, 1, 2, 1)]
    changes = naspa_rate_event(players(1790, 1790), games)
    assert (changes[1].new, changes[2].new) == (1808, 1770)
    assert changes[1].bonus == 0


# Acceleration bonus and feedback


def six_wins() -> tuple[list[RatedPlayer], list[RatedGame]]:
    """Player 1 (1500) beats six 1500s, one a round."""
    games = [RatedGame(i - 1, 1, i, 1) for i in range(2, 8)]
    return players(*([1500] * 7)), games


def test_acceleration_bonus_and_its_feedback() -> None:
    """Six wins against 1500s: expected 3, actual 6, change 20 * 3 = 60.

    Bonus: 60 - 5 * 6 = 30, so player 1 ends at 1500 + 60 + 30 = 1590.
    Each opponent: 20 * (0 - 0.5) = -10, plus 30 / 20 = 1.5 of feedback:
    1491.5, rounded half up to 1492.
    """
    changes = naspa_rate_event(*six_wins())
    assert changes[1].bonus == pytest.approx(30)
    assert changes[1].new == 1590
    for opponent in range(2, 8):
        assert changes[opponent].feedback == pytest.approx(1.5)
        assert changes[opponent].new == 1492
        assert changes[opponent].change == -8


def test_no_bonus_below_the_minimum_games() -> None:
    """Four wins against 1500s: change 20 * 2 = 40 > 5 * 4, but 4 games are too few.

    With ``bonus_min_games`` lowered to 4 (parameters are data) the bonus is
    40 - 20 = 20: 1500 + 40 + 20 = 1560.
    """
    games = [RatedGame(i - 1, 1, i, 1) for i in range(2, 6)]
    roster = players(*([1500] * 5))
    assert naspa_rate_event(roster, games)[1].new == 1540
    lowered = dataclasses.replace(NASPA, bonus_min_games=4)
    changes = naspa_rate_event(roster, games, lowered)
    assert changes[1].bonus == pytest.approx(20)
    assert changes[1].new == 1560


def test_no_bonus_below_the_minimum_career_games() -> None:
    """``bonus_min_career_games`` above the player's career withholds the bonus."""
    strict = dataclasses.replace(NASPA, bonus_min_career_games=ESTABLISHED + 1)
    changes = naspa_rate_event(*six_wins(), strict)
    assert changes[1].bonus == 0
    assert changes[1].new == 1560
    assert changes[2].feedback == 0


def test_feedback_goes_once_to_each_distinct_opponent() -> None:
    """Player 1 beats 2 and 3 three times each: change 60, bonus 30.

    Player 2 gets 30 / 20 = 1.5 once, not once a game: -30 + 1.5 = -28.5 -> 1472.
    """
    games = [RatedGame(r, 1, 2 if r % 2 else 3, 1) for r in range(1, 7)]
    changes = naspa_rate_event(players(1500, 1500, 1500), games)
    assert changes[1].bonus == pytest.approx(30)
    assert changes[2].feedback == pytest.approx(1.5)
    assert changes[2].new == 1472


def test_no_feedback_to_an_unrated_opponent() -> None:
    """Unrated players take their initial rating; the bonus feeds back to rated ones."""
    roster = players(1500, 1500, 1500, 1500, 1500, 1500, None)
    games = [RatedGame(i - 1, 1, i, 1) for i in range(2, 8)]
    changes = naspa_rate_event(roster, games)
    assert changes[1].bonus > 0
    assert changes[7].feedback == 0
    assert changes[2].feedback == pytest.approx(changes[1].bonus / 20)


# Segments


@pytest.mark.parametrize(
    ("rounds", "segments"),
    [
        (0, ()),
        (16, ((1, 16),)),
        (17, ((1, 9), (10, 17))),
        (20, ((1, 10), (11, 20))),
        (35, ((1, 18), (19, 35))),
        (36, ((1, 12), (13, 24), (25, 36))),
        (40, ((1, 14), (15, 27), (28, 40))),
    ],
)
def test_segments_split_rounds_as_evenly_as_possible(
    rounds: int, segments: tuple[tuple[int, int], ...]
) -> None:
    """Over 16 rounds: two segments; over 35: three; earlier ones take the extra."""
    assert naspa_segments(rounds) == segments


def test_twenty_rounds_are_rated_in_two_segments() -> None:
    """Two 1500s meet 20 times; player 1 wins all 20.

    Segment 1 (rounds 1-10): expected 5, change 20 * 5 = 100, bonus 100 - 50 = 50:
    player 1 -> 1650. Player 2: -100 + 50/20 = -97.5 -> 1402.5, half up 1403.
    Segment 2 (rounds 11-20) from 1650 and 1403, difference 247:
    E(247) = 0.687275, surplus 10 * 0.312725 = 3.127248, change 62.545,
    bonus 62.545 - 50 = 12.545: 1650 + 62.545 + 12.545 = 1725.09 -> 1725.
    Player 2: 1403 - 62.545 + 12.545/20 = 1341.08 -> 1341.
    (Rated as one segment player 1 would reach 1500 + 200 + 100 = 1800.)
    """
    games = [RatedGame(r, 1, 2, 1) for r in range(1, 21)]
    changes = naspa_rate_event(players(1500, 1500), games)
    first, second = changes[1].segments
    assert (first.first_round, first.last_round, first.new) == (1, 10, 1650)
    assert (second.first_round, second.last_round, second.old) == (11, 20, 1650)
    assert changes[2].segments[0].new == 1403
    assert second.bonus == pytest.approx(12.545, abs=1e-3)
    assert (changes[1].new, changes[2].new) == (1725, 1341)
    assert changes[1].change == 225
    assert changes[1].games == 20


def test_forty_rounds_are_rated_in_three_chained_segments() -> None:
    """Rounds 1-14, 15-27, 28-40; each segment starts where the last one ended."""
    games = [RatedGame(r, 1, 2, 1 if r % 3 else 0) for r in range(1, 41)]
    changes = naspa_rate_event(players(1600, 1500), games)
    for pid in (1, 2):
        segments = changes[pid].segments
        assert [(s.first_round, s.last_round) for s in segments] == [
            (1, 14),
            (15, 27),
            (28, 40),
        ]
        assert segments[0].old == (1600 if pid == 1 else 1500)
        assert segments[1].old == segments[0].new
        assert segments[2].old == segments[1].new
        assert changes[pid].new == segments[2].new
        assert [s.games for s in segments] == [14, 13, 13]


def test_unrated_player_is_rated_normally_after_the_first_segment() -> None:
    """Unrated in segment 1 (initial rating), then a provisional player in segment 2."""
    games = [RatedGame(r, 1, 2, 1 if r % 2 else 0) for r in range(1, 21)]
    changes = naspa_rate_event(players(None, 1500), games)
    first, second = changes[1].segments
    assert first.old is None
    assert first.multiplier is None
    assert first.new == 1500  # 5 wins of 10 against a 1500
    assert second.old == 1500
    assert second.multiplier == 30  # 10 career games now: provisional
    assert changes[1].change is None


# Unrated players and performance ratings


def test_unrated_player_gets_the_performance_rating_and_opponents_rate_against_it():
    """Against 1400 and 1600 with one win, the performance is 1500 by symmetry.

    Player 2 (1400) lost to a 1500: 20 * (0 - 0.42097) = -8.42 -> 1392.
    Player 3 (1600) beat a 1500: 20 * (1 - 0.57903) = 8.42 -> 1608.
    """
    games = [RatedGame(1, 1, 2, 1), RatedGame(2, 1, 3, 0)]
    changes = naspa_rate_event(players(None, 1400, 1600), games)
    assert changes[1].old is None
    assert changes[1].new == 1500
    assert (changes[2].new, changes[3].new) == (1392, 1608)


def test_unrated_all_wins_is_capped_at_best_opponent_plus_400() -> None:
    """Three wins against 1400, 1500 and 1600: 1600 + 400 = 2000."""
    games = [RatedGame(r, 1, r + 1, 1) for r in range(1, 4)]
    changes = naspa_rate_event(players(None, 1400, 1500, 1600), games)
    assert changes[1].new == 2000


def test_unrated_all_losses_is_floored_at_500() -> None:
    """Two losses against 700 and 800: 700 - 400 = 300, floored at 500."""
    games = [RatedGame(1, 1, 2, 0), RatedGame(2, 1, 3, 0)]
    changes = naspa_rate_event(players(None, 700, 800), games)
    assert changes[1].new == 500


def test_unrated_players_who_met_each_other_are_iterated_jointly() -> None:
    """Each initial rating makes expected wins equal actual wins against the others'.

    Player 1 (unrated): beat 1600, lost to player 2, beat 1400.
    Player 2 (unrated): beat player 1, lost to 1500 and to 1700.
    """
    games = [
        RatedGame(1, 1, 3, 1),
        RatedGame(2, 1, 2, 0),
        RatedGame(3, 1, 4, 1),
        RatedGame(4, 2, 5, 0),
        RatedGame(5, 2, 6, 0),
    ]
    roster = players(None, None, 1600, 1400, 1500, 1700)
    changes = naspa_rate_event(roster, games)
    one, two = changes[1].new, changes[2].new
    expected_one = sum(naspa_expected(one, r) for r in (1600, two, 1400))
    expected_two = sum(naspa_expected(two, r) for r in (one, 1500, 1700))
    # Rounding to whole points moves an expectation by well under 0.01.
    assert expected_one == pytest.approx(2, abs=0.01)
    assert expected_two == pytest.approx(1, abs=0.01)
    assert one > 1600 > 1500 > two


def test_unrated_players_who_met_only_each_other_are_anchored_at_the_start() -> None:
    """1-1 between two unrated players: both stay at ``unrated_start`` (1500).

    2-0: the winner is 400 above the loser, computed in player order from 1500:
    player 1 against 1500 with all wins is 1900; player 2 against 1900 with all
    losses is 1500, which changes nothing: both converge.
    """
    split = [RatedGame(1, 1, 2, 1), RatedGame(2, 1, 2, 0)]
    changes = naspa_rate_event(players(None, None), split)
    assert (changes[1].new, changes[2].new) == (1500, 1500)
    sweep = [RatedGame(1, 1, 2, 1), RatedGame(2, 1, 2, 1)]
    changes = naspa_rate_event(players(None, None), sweep)
    assert (changes[1].new, changes[2].new) == (1900, 1500)


def test_performance_rating_hand_computed() -> None:
    """1.5 of 2 against two 1500s: E = 0.75 each, so d = ln(3) / 0.0031879 = 344.62."""
    assert performance_rating([1500, 1500], 1.5) == pytest.approx(1844.62, abs=0.01)


def test_performance_rating_symmetric_case() -> None:
    """One win of two against 1400 and 1600: E(100) + E(-100) = 1 at 1500."""
    assert performance_rating([1400, 1600], 1) == pytest.approx(1500, abs=1e-3)


def test_performance_rating_is_kept_within_400_of_the_opponents() -> None:
    """9 of 10 against 1500s would be 1500 + ln(9)/k = 2189: capped at 1900 like 10/10.

    0 of 2 against 1500s is 1100 (above the 500 floor).
    """
    assert performance_rating([1500] * 10, 9) == 1900
    assert performance_rating([1500] * 10, 10) == 1900
    assert performance_rating([1500, 1500], 0) == 1100


@pytest.mark.parametrize(
    ("opponents", "score", "code"),
    [([], 0, "no_games"), ([1500], 2, "bad_score"), ([1500], -1, "bad_score")],
)
def test_performance_rating_rejects_impossible_input(
    opponents: list[float], score: float, code: str
) -> None:
    """No games, or a score outside 0..games, raise RatingsError."""
    with pytest.raises(RatingsError) as caught:
        performance_rating(opponents, score)
    assert caught.value.code == code


def test_event_performance_is_reported_for_rated_players() -> None:
    """A rated player's performance uses the same iteration (0 of 1 vs 1500: 1100)."""
    changes = naspa_rate_event(players(1500, 1500), [RatedGame(1, 1, 2, 1)])
    assert changes[2].performance == 1100
    assert changes[1].performance == 1900


# Club events and the floor


def test_club_event_divides_the_change_by_three() -> None:
    """1500 beats 1500: 20 * 0.5 = 10, / 3 = 3.33 -> 1503; the loser 1497."""
    changes = naspa_rate_event(players(1500, 1500), [RatedGame(1, 1, 2, 1)], club=True)
    assert (changes[1].new, changes[2].new) == (1503, 1497)


def test_club_event_caps_the_change_at_50_and_gives_no_bonus() -> None:
    """A new player (multiplier 30) wins 12 against 1500s: 30 * 6 / 3 = 60 -> 50.

    Out of club, 30 * 6 = 180 would also earn a bonus of 180 - 60 = 120.
    """
    roster = [RatedPlayer(1, 1500, 0), *players(*([1500] * 13))[1:]]
    games = [RatedGame(i - 1, 1, i, 1) for i in range(2, 14)]
    club = naspa_rate_event(roster, games, club=True)
    assert club[1].new == 1550
    assert club[1].bonus == 0
    assert club[2].feedback == 0
    assert naspa_rate_event(roster, games)[1].new == 1500 + 180 + 120


def test_no_rating_goes_below_the_floor() -> None:
    """505 loses to 505: 20 * -0.5 = -10 -> 495, floored at 500."""
    changes = naspa_rate_event(players(505, 505), [RatedGame(1, 2, 1, 1)])
    assert changes[1].new == 500


# Validation


@pytest.mark.parametrize(
    ("game", "code"),
    [
        (RatedGame(1, 1, 9, 1), "unknown_player"),
        (RatedGame(1, 1, 1, 1), "self_game"),
        (RatedGame(1, 1, 2, 0.7), "bad_score"),
        (RatedGame(0, 1, 2, 1), "bad_round"),
    ],
)
def test_rate_event_rejects_inconsistent_games(game: RatedGame, code: str) -> None:
    """Games naming unknown players, self-pairings and odd scores raise RatingsError."""
    with pytest.raises(RatingsError) as caught:
        naspa_rate_event(players(1500, 1500), [game])
    assert caught.value.code == code


def test_rate_event_rejects_a_player_listed_twice() -> None:
    """Two RatedPlayers with one id raise RatingsError."""
    with pytest.raises(RatingsError) as caught:
        naspa_rate_event([RatedPlayer(1, 1500), RatedPlayer(1, 1600)], [])
    assert caught.value.code == "duplicate_player"


def test_players_without_rated_games_are_left_out() -> None:
    """Player 3 played no rated game: nothing to rate."""
    changes = naspa_rate_event(players(1500, 1500, 1500), [RatedGame(1, 1, 2, 1)])
    assert set(changes) == {1, 2}


# Records


def game_entry(round_: int, opponent: int, result: float) -> RoundEntry:
    return RoundEntry(
        round=round_,
        kind=EntryKind.GAME,
        opponent=opponent,
        own_score=400 if result else 350,
        opponent_score=350 if result else 400,
        went_first=None,
        result=result,
    )


def small_division() -> DivisionRecord:
    """Three players, three rounds: one game a round, the third player idle.

    R1: 1 beats 2; 3 has a bye. R2: 1 wins by forfeit against 3; 2 has a bye.
    R3: 3 (unrated) beats 2; 1 is absent.
    """
    return DivisionRecord(
        name="A",
        players=(
            PlayerRecord(
                1,
                "Ann",
                1600,
                (
                    game_entry(1, 2, 1),
                    RoundEntry(2, EntryKind.FORFEIT_WIN, opponent=3, own_score=50),
                    RoundEntry(3, EntryKind.UNPLAYED),
                ),
            ),
            PlayerRecord(
                2,
                "Bob",
                1500,
                (
                    game_entry(1, 1, 0),
                    RoundEntry(2, EntryKind.BYE, own_score=50),
                    game_entry(3, 3, 0),
                ),
            ),
            PlayerRecord(
                3,
                "Cy",
                0,
                (
                    RoundEntry(1, EntryKind.BYE, own_score=50),
                    RoundEntry(2, EntryKind.FORFEIT_LOSS, opponent=1, own_score=-50),
                    game_entry(3, 2, 1),
                ),
            ),
        ),
    )


def test_rated_entries_skip_byes_forfeits_and_absences() -> None:
    """Only played games are rated."""
    division = small_division()
    assert [e.round for e in rated_entries(division.players[0])] == [1]
    assert [e.round for e in rated_entries(division.players[2])] == [3]


def test_division_rated_games_lists_each_game_once() -> None:
    """From the lower-numbered player's side."""
    assert division_rated_games(small_division()) == (
        RatedGame(1, 1, 2, 1),
        RatedGame(3, 2, 3, 0),
    )


def test_rate_division_equals_rating_the_played_games() -> None:
    """Rating 0 is unrated; byes and forfeits change nothing; numbers are the ids."""
    changes = rate_division(small_division())
    expected = naspa_rate_event(
        [RatedPlayer(1, 1600, 50), RatedPlayer(2, 1500, 50), RatedPlayer(3, None, 0)],
        [RatedGame(1, 1, 2, 1), RatedGame(3, 2, 3, 0)],
    )
    assert changes == expected
    assert changes[3].old is None
    assert changes[1].games == 1


def test_rate_division_uses_the_career_games_given() -> None:
    """Player 1 with 10 career games rates with the provisional multiplier, 30.

    1600 beats 1500: 30 * (1 - 0.57903) = 12.63 -> 1613 (20 would give 1608).
    """
    changes = rate_division(small_division(), career_games={1: 10})
    assert changes[1].new == 1613
    assert rate_division(small_division())[1].new == 1608


def test_division_rated_games_rejects_results_that_disagree() -> None:
    """Both players of round 1 claim the win."""
    division = small_division()
    bob = division.players[1]
    bob = dataclasses.replace(bob, rounds=(game_entry(1, 1, 1), *bob.rounds[1:]))
    division = dataclasses.replace(
        division, players=(division.players[0], bob, division.players[2])
    )
    with pytest.raises(RatingsError) as caught:
        rate_division(division)
    assert caught.value.code == "mismatched_result"


def test_record_performance_skips_non_games_and_unrated_opponents() -> None:
    """Bob played 1 (1600, lost) and 3 (unrated, lost): only the 1600 counts -> 1200.

    Cy beat Bob (1500): 1900. Ann without her game has only a forfeit and an absence.
    """
    division = small_division()
    assert record_performance(division.players[1], division) == pytest.approx(1200)
    assert record_performance(division.players[2], division) == pytest.approx(1900)
    ann = division.players[0]
    no_games = dataclasses.replace(ann, rounds=ann.rounds[1:])
    assert record_performance(no_games, division) is None


# ABSP


def test_absp_published_example_2001_over_12_games() -> None:
    """A 150 player, 7 wins and 5 losses, opponents clamped to 110..190.

    Opponents: 200 (counts 190), 90 (counts 110), nine at 160, one at 161:
    190 + 110 + 1440 + 161 = 1901; 7 * 50 - 5 * 50 = +100; 2001 / 12 = 166.75 ≈ 167.
    """
    opponents = [200, 90, *([160] * 9), 161]
    results = [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    games = [AbspGame(r, s) for r, s in zip(opponents, results, strict=True)]
    rating = absp_event_rating(150, games)
    assert rating * 12 == pytest.approx(2001)
    assert rating == pytest.approx(166.75)
    assert round(rating) == 167


@pytest.mark.parametrize(
    ("opponent", "score", "points"),
    [
        (200, 1, 190 + 50),  # clamped down to 150 + 40
        (90, 0, 110 - 50),  # clamped up to 150 - 40
        (170, 0.5, 170),  # a draw adds neither +50 nor -50
        (150, 0, 100),
    ],
)
def test_absp_game_points(opponent: int, score: float, points: int) -> None:
    """The opponent counts within 40 of the player; +50 a win, -50 a loss."""
    assert absp_game_points(150, opponent, score, ABSP) == points


def test_absp_rejects_an_empty_event_and_odd_scores() -> None:
    """No games, or a score that is not 1, 0.5 or 0, raise RatingsError."""
    with pytest.raises(RatingsError):
        absp_event_rating(150, [])
    with pytest.raises(RatingsError):
        absp_game_points(150, 150, 0.25)


def test_absp_rate_division_uses_rated_games_between_rated_players() -> None:
    """Ann (1600) beat Bob (1500): 1560 + 50 = 1610. Bob: 1540 - 50 = 1490.

    Bob's loss to the unrated Cy and all byes and forfeits are left out; Cy is unrated.
    """
    assert absp_rate_division(small_division()) == {1: 1610, 2: 1490}
