"""Rating estimates as tsh and the ABSP compute them, against hand arithmetic.

Throughout, E(d) is NASPA's expectation for a rating difference d:
E(d) = 1 - 1 / (1 + exp(0.0031879 * d)); E(0) = 0.5, E(100) = 0.57903,
E(-100) = 0.42097. Unknown career games count as 100 (established), as tsh does.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from rules.ratings import (
    ABSP,
    NASPA_CSW,
    NSA2008,
    WESPA,
    AbspEvent,
    RatedGame,
    RatedPlayer,
    RatingsError,
    absp_event_ratings,
    absp_running_rating,
    convert_excess,
    division_rated_games,
    elo_system,
    expected,
    multiplier,
    performance_rating,
    rate_division,
    rate_event,
    rate_newcomers,
    rated_entries,
    search_rating,
    segments,
)
from rules.records import DivisionRecord, EntryKind, PlayerRecord, RoundEntry


def naspa_e(d: float) -> float:
    return 1 - 1 / (1 + math.exp(0.0031879 * d))


def players(*ratings: int, career: int | None = None) -> list[RatedPlayer]:
    """Players 1, 2, ... with the given ratings (0: a newcomer)."""
    return [RatedPlayer(i, r, career) for i, r in enumerate(ratings, start=1)]


def wins(player: int, opponent: int, *rounds: int) -> list[RatedGame]:
    return [RatedGame(r, player, opponent, 1) for r in rounds]


# Rule 1: expectation ----------------------------------------------------------------


def test_naspa_expectation_matches_the_published_example() -> None:
    """1800 against 1700 expects 0.57903 of a win; equals expect a half."""
    assert expected(1800, 1700) == pytest.approx(0.57903, abs=5e-6)
    assert expected(1500, 1500) == 0.5
    assert expected(1234, 2109) + expected(2109, 1234) == pytest.approx(1)


def test_wespa_expectation_is_tsh_s_logistic_over_172() -> None:
    """tsh's wespa: 1 / (1 + exp((r_opp - r_self) / 172)); 172 points: 0.73106."""
    assert expected(1672, 1500, WESPA) == pytest.approx(1 / (1 + math.exp(-1)))


def test_byes_and_forfeits_are_not_rated_and_a_tie_counts_a_half() -> None:
    """Only the game entries reach the rating; a draw between equals changes nothing.

    R1: 1 and 2 draw; 3 has a bye; R2: 3 wins by forfeit against 1.
    """
    division = DivisionRecord(
        "A",
        (
            PlayerRecord(
                1,
                "Ann",
                1500,
                (
                    game_entry(1, 2, 0.5),
                    RoundEntry(2, EntryKind.FORFEIT_LOSS, opponent=3, own_score=-50),
                ),
            ),
            PlayerRecord(2, "Bob", 1500, (game_entry(1, 1, 0.5),)),
            PlayerRecord(
                3,
                "Cy",
                1500,
                (
                    RoundEntry(1, EntryKind.BYE, own_score=50, result=1),
                    RoundEntry(2, EntryKind.FORFEIT_WIN, opponent=1, own_score=50),
                ),
            ),
        ),
    )
    changes = rate_division(division)
    assert [(c.new, c.games, c.actual) for c in changes.values()] == [
        (1500, 1, 0.5),
        (1500, 1, 0.5),
        (1500, 0, 0),
    ]


# Rule 2: multipliers and bands ------------------------------------------------------


@pytest.mark.parametrize(
    ("career", "rating", "expected_multiplier"),
    [
        (49, 1799, 30),
        (50, 1799, 20),
        (49, 1800, 24),
        (50, 1800, 16),
        (0, 1999.5, 24),
        (500, 1999, 16),
        (49, 2000, 15),
        (50, 2000, 10),
        (None, 1500, 20),  # unknown career games: established, as tsh counts them
    ],
)
def test_multiplier_by_career_games_and_rating(
    career: int | None, rating: float, expected_multiplier: int
) -> None:
    assert multiplier(career, rating) == expected_multiplier


def test_a_change_within_a_band_is_multiplier_times_excess() -> None:
    assert convert_excess(1500, 0.5, 100) == pytest.approx(1510)


def test_going_up_across_1800_stops_at_1800() -> None:
    """1790, excess 1: 10 points to 1800 cost 0.5 win at 20; 0.5 more at 16: 1808."""
    assert convert_excess(1790, 1.0, 100) == pytest.approx(1808)


def test_going_down_across_2000_stops_at_1999() -> None:
    """2005, excess -1: to 1999 is -6 points at 10 (-0.6 win); -0.4 at 16: 1992.6."""
    assert convert_excess(2005, -1.0, 100) == pytest.approx(1992.6)


def test_going_down_across_1800_stops_at_1799() -> None:
    """1800, excess -0.5: 1799 is -1 point at 16 (-1/16 win); the rest at 20.

    1799 + 20 x (-0.5 + 1/16) = 1790.25.
    """
    assert convert_excess(1800, -0.5, 100) == pytest.approx(1790.25)


def test_going_up_across_2000_stops_at_2000() -> None:
    """1990, excess 2 (provisional): to 2000 costs 10/24; the rest at 15.

    2000 + 15 x (2 - 10/24) = 2023.75.
    """
    assert convert_excess(1990, 2.0, 10) == pytest.approx(2023.75)


def test_crossing_two_bands() -> None:
    """1790, excess 15: 0.5 to 1800, 12.5 to 2000, the last 2 at 10: 2020."""
    assert convert_excess(1790, 15.0, 100) == pytest.approx(2020)


def test_wespa_ignores_the_bands() -> None:
    """tsh's wespa converts at the starting multiplier: 1790 + 20 = 1810."""
    assert convert_excess(1790, 1.0, 100, WESPA) == pytest.approx(1810)


def test_rating_uses_the_career_games() -> None:
    """1600 beats 1500 with 10 career games: 30 x 0.42097 = 12.63, accelerated by
    7.63 -> 1620.26 -> 1620; with 100: 20 x 0.42097 = 8.42 + 3.42 -> 1612."""
    games = wins(1, 2, 1)
    assert rate_event(players(1600, 1500, career=10), games)[1].new == 1620
    assert rate_event(players(1600, 1500, career=100), games)[1].new == 1612


# Rule 3: acceleration and feedback --------------------------------------------------


def test_acceleration_has_no_minimum_and_feeds_back_once_per_game() -> None:
    """All at 1500. Ann beats Bob in rounds 1 and 2, Cy beats Bob in round 3.

    Ann: 2 - 2 x 0.5 = 1 win over: +20 -> 1520; 20 - 5 x 2 = 10 more -> 1530.
    Cy: +10 -> 1510; 10 - 5 = 5 more -> 1515 (one game is enough).
    Bob: -1.5 x 20 = -30 -> 1470, plus feedback 10/20 twice and 5/20: 1471.25.
    """
    changes = rate_event(
        players(1500, 1500, 1500), [*wins(1, 2, 1, 2), *wins(3, 2, 3)], rounds=3
    )
    assert [c.new for c in changes.values()] == [1530, 1471, 1515]
    assert changes[1].acceleration == pytest.approx(10)
    assert changes[2].feedback == pytest.approx(1.25)


def test_feedback_goes_to_rated_opponents_only() -> None:
    """A newcomer gets no feedback: their rating is their performance."""
    changes = rate_event(players(1500, 0), wins(1, 2, 1))
    assert changes[2].feedback == 0


def test_feedback_is_added_after_every_player_is_rated() -> None:
    """Listing the players in another order changes nothing."""
    games = [*wins(1, 2, 1, 2), *wins(2, 3, 3), *wins(3, 1, 4)]
    forward = rate_event(players(1500, 1600, 1700), games)
    backward = rate_event(list(reversed(players(1500, 1600, 1700))), games)
    assert forward == backward


# Rule 4: floor and rounding ---------------------------------------------------------


def test_nsa2008_floors_an_established_player_at_1_naspa_csw_does_not() -> None:
    """2 beats 2: the loser drops 10 to -8, plus a feedback of (10 - 5) / 20.

    nsa2008: max(-8, 1) + 0.25 -> 1; naspa-csw: -7.75, rounded as tsh does
    (int(0.5 + x)) -> -7. The winner: 12 + 5 = 17.
    """
    games = wins(1, 2, 1)
    assert [c.new for c in rate_event(players(2, 2), games, NSA2008).values()] == [
        17,
        1,
    ]
    assert [c.new for c in rate_event(players(2, 2), games, NASPA_CSW).values()] == [
        17,
        -7,
    ]


def test_ratings_round_half_up() -> None:
    """All at 1500: Ann and Cy each beat Bob once (+10, then 10 - 5 = 5 more each).

    Bob: 1500 - 2 x 10 + 2 x 5/20 = 1480.5 -> 1481 (half up, not to even).
    """
    changes = rate_event(players(1500, 1500, 1500), [*wins(1, 2, 1), *wins(3, 2, 2)])
    assert changes[2].feedback == pytest.approx(0.5)
    assert changes[2].new == 1481


# Rule 5: split events ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounds", "expected_segments"),
    [
        (1, ((1, 1),)),
        (16, ((1, 16),)),
        (17, ((1, 9), (10, 17))),
        (20, ((1, 10), (11, 20))),
        (23, ((1, 12), (13, 23))),
        (31, ((1, 16), (17, 31))),
        (35, ((1, 18), (19, 35))),
        (36, ((1, 12), (13, 24), (25, 36))),
        (40, ((1, 14), (15, 27), (28, 40))),
    ],
)
def test_segments_cut_the_configured_rounds_as_tsh_does(
    rounds: int, expected_segments: tuple[tuple[int, int], ...]
) -> None:
    assert segments(rounds) == expected_segments


def test_wespa_does_not_split() -> None:
    assert segments(40, WESPA) == ((1, 40),)


def test_segments_follow_the_configured_rounds_not_the_rounds_played() -> None:
    """23 rounds configured, 14 played: rounds 1-12 and 13-14 are rated apart.

    Ann (1500) beats Bob (1500) every round. Segment 1: 12 x 0.5 = 6 over, +120 ->
    1620, 120 - 60 = 60 more -> 1680. Segment 2 starts there: Bob is at
    1500 - 120 + 60/20 x 12 = 1416 after segment 1.
    """
    games = wins(1, 2, *range(1, 15))
    split = rate_event(players(1500, 1500), games, rounds=23)
    assert [s.new for s in split[1].segments] == [1680, split[1].new]
    assert [(s.first_round, s.last_round) for s in split[1].segments] == [
        (1, 12),
        (13, 23),
    ]
    assert split[2].segments[0].new == 1416
    whole = rate_event(players(1500, 1500), games, rounds=14)
    assert len(whole[1].segments) == 1
    assert whole[1].new != split[1].new


def test_segment_two_starts_from_segment_one_s_rounded_result() -> None:
    """The second segment equals rating its games from the first one's results."""
    games = [*wins(1, 2, *range(1, 10)), *wins(2, 1, *range(10, 18))]
    split = rate_event(players(1500, 1400), games, rounds=17)
    first = rate_event(players(1500, 1400), games[:9], rounds=9)
    second = rate_event(
        [RatedPlayer(1, first[1].new), RatedPlayer(2, first[2].new)],
        [dataclasses.replace(g, round=g.round - 9) for g in games[9:]],
        rounds=8,
    )
    assert (split[1].new, split[2].new) == (second[1].new, second[2].new)


# Rule 6: the estimate after round k -------------------------------------------------


def test_the_estimate_after_round_k_uses_rounds_1_to_k_only() -> None:
    games = [*wins(1, 2, 1), *wins(2, 1, 2), *wins(1, 2, 3)]
    after_two = rate_event(players(1500, 1500), games, rounds=3, after_round=2)
    only_two = rate_event(players(1500, 1500), games[:2], rounds=3)
    assert after_two == only_two
    assert after_two[1].games == 2


def test_a_player_without_a_rated_game_keeps_the_pre_event_rating() -> None:
    changes = rate_event(players(1500, 1500, 1700, 0), wins(1, 2, 1))
    assert (changes[3].new, changes[3].change, changes[3].games) == (1700, 0, 0)
    assert (changes[4].new, changes[4].change) == (0, None)


# Rule 7: newcomers ------------------------------------------------------------------


def test_a_newcomer_who_beats_a_1600_is_capped_at_2000() -> None:
    """One win: the performance (95% of a win) is far above; the cap is
    1600 + 400 x 1/1 = 2000. The 1600 expected E(-400) = 0.21837 -> 1596."""
    changes = rate_event(players(0, 1600), wins(1, 2, 1))
    assert (changes[1].new, changes[1].change) == (2000, None)
    assert changes[2].new == 1596


def test_a_winless_newcomer_is_raised_to_500() -> None:
    changes = rate_event(players(0, 600), [RatedGame(1, 1, 2, 0)])
    assert changes[1].new == 500


def test_a_newcomer_s_rating_is_tsh_s_whole_point_search() -> None:
    """Beating a 1500 and a 1600 and losing to a 1900: the whole point the search
    finds for 2 expected wins (below the cap 1900 + 400 x 2/3)."""
    changes = rate_event(
        players(0, 1500, 1600, 1900),
        [RatedGame(1, 1, 2, 1), RatedGame(2, 1, 3, 1), RatedGame(3, 1, 4, 0)],
    )
    found = search_rating(
        lambda r: naspa_e(r - 1500) + naspa_e(r - 1600) + naspa_e(r - 1900) - 2
    )
    assert 1500 < found < 1900 + 400 * 2 / 3
    assert changes[1].new == found


def test_the_search_returns_the_last_middle_tried() -> None:
    """A root at exactly 1500: the range closes on 1499..1500 after trying 1499."""
    assert search_rating(lambda r: r - 1500) == 1499
    assert search_rating(lambda r: r - 1234.5) == 1234


def test_newcomers_who_met_only_each_other_follow_tsh_s_iteration() -> None:
    """Both start at 1500. The winner is capped at the strongest newcomer met +
    400 each pass, the loser raised to 500: 1900/577, 977/977, 1377/500, 900/500,
    then 900/500 again."""
    changes = rate_event(players(0, 0), wins(1, 2, 1))
    assert (changes[1].new, changes[2].new) == (900, 500)


def test_newcomer_ratings_are_a_fixed_point_of_the_search() -> None:
    """Two newcomers who met each other and rated players: each final rating is
    what the search gives against the others' final ratings, within the caps."""
    ratings = {1: 0, 2: 0, 3: 1500, 4: 1700}
    results = {
        1: [(2, 1.0), (3, 1.0), (4, 0.0)],
        2: [(1, 0.0), (3, 0.5), (4, 1.0)],
        3: [(1, 0.0), (2, 0.5)],
        4: [(1, 1.0), (2, 0.0)],
    }
    found = rate_newcomers(results, ratings)
    for pid in (1, 2):
        played = results[pid]
        score = sum(s for _, s in played)
        opponents = [ratings[o] or found[o] for o, _ in played]
        searched = search_rating(
            lambda r, opponents=opponents, score=score: (
                sum(naspa_e(r - o) for o in opponents) - score
            )
        )
        cap = 1700 + 400 * score / len(played)
        assert found[pid] == min(max(searched, 500), cap)


def test_a_newcomer_is_rated_normally_in_the_second_segment() -> None:
    """Rated in segment 1, the newcomer starts segment 2 at that rating."""
    games = [*wins(1, 2, *range(1, 10)), *wins(2, 1, *range(10, 18))]
    changes = rate_event(players(0, 1500), games, rounds=17)
    first, second = changes[1].segments
    assert (first.old, first.multiplier) == (0, None)
    assert (second.old, second.multiplier) == (first.new, 16)


# Club events and WESPA --------------------------------------------------------------


def test_a_club_event_divides_the_change_by_three_without_acceleration() -> None:
    """1500 beats 1500: +10 / 3 -> 1503; no acceleration; the loser 1496.67 -> 1497."""
    club = elo_system("nsa2008", club=True)
    changes = rate_event(players(1500, 1500), wins(1, 2, 1), club)
    assert [c.new for c in changes.values()] == [1503, 1497]
    assert changes[1].acceleration == 0


def test_a_club_event_caps_the_change_at_50() -> None:
    """16 wins over an equal: 8 over, +160 / 3 = 53.3, capped to +50."""
    club = elo_system("naspa-csw", club=True)
    changes = rate_event(players(1500, 1500), wins(1, 2, *range(1, 17)), club)
    assert [c.new for c in changes.values()] == [1550, 1450]


def test_wespa_accelerates_by_two_thirds() -> None:
    """1790 beats 1790: +10 -> 1800 (no band change), 2/3 x (10 - 5) more -> 1803;
    the loser 1780 + 3.33/20 -> 1780."""
    changes = rate_event(players(1790, 1790), wins(1, 2, 1), WESPA)
    assert [c.new for c in changes.values()] == [1803, 1780]
    assert changes[1].acceleration == pytest.approx(10 / 3)


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(RatingsError) as caught:
        elo_system("absp")
    assert caught.value.code == "unknown_system"


# Performance and validation ---------------------------------------------------------


def test_performance_is_tsh_s_search_with_95_percent_for_all_wins() -> None:
    """One win over a 1700: E(d) = 0.95 at d = ln(19) / 0.0031879 = 923.6; the
    search closes on 2623..2624 and reports 2624, the last middle it tried."""
    assert math.log(19) / 0.0031879 == pytest.approx(923.6, abs=0.05)
    assert performance_rating([1700.0], 1) == 2624
    assert performance_rating([], 0) is None


@pytest.mark.parametrize(
    ("game", "code"),
    [
        (RatedGame(1, 1, 9, 1), "unknown_player"),
        (RatedGame(1, 1, 1, 1), "self_game"),
        (RatedGame(1, 1, 2, 0.25), "bad_score"),
        (RatedGame(0, 1, 2, 1), "bad_round"),
    ],
)
def test_rate_event_rejects_inconsistent_games(game: RatedGame, code: str) -> None:
    with pytest.raises(RatingsError) as caught:
        rate_event(players(1500, 1500), [game])
    assert caught.value.code == code


def test_rate_event_rejects_a_player_listed_twice() -> None:
    with pytest.raises(RatingsError) as caught:
        rate_event([RatedPlayer(1, 1500), RatedPlayer(1, 1600)], [])
    assert caught.value.code == "duplicate_player"


# Records ----------------------------------------------------------------------------


def game_entry(round_: int, opponent: int, result: float) -> RoundEntry:
    return RoundEntry(
        round=round_,
        kind=EntryKind.GAME,
        opponent=opponent,
        own_score=400 if result == 1 else 375 if result else 350,
        opponent_score=350 if result == 1 else 375 if result else 400,
        went_first=None,
        result=result,
    )


def small_division() -> DivisionRecord:
    """Three players, three rounds.

    R1: 1 beats 2; 3 has a bye. R2: 1 wins by forfeit against 3; 2 has a bye.
    R3: 3 (a newcomer) beats 2; 1 is absent.
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
                career_games=10,
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
    division = small_division()
    assert [e.round for e in rated_entries(division.players[0])] == [1]
    assert [e.round for e in rated_entries(division.players[2])] == [3]


def test_division_rated_games_lists_each_game_once() -> None:
    assert division_rated_games(small_division()) == (
        RatedGame(1, 1, 2, 1),
        RatedGame(3, 2, 3, 0),
    )


def test_rate_division_rates_the_played_games_with_the_records_career_games() -> None:
    """Numbers are the ids; Ann's 10 career games give her the provisional 30."""
    changes = rate_division(small_division())
    assert changes == rate_event(
        [RatedPlayer(1, 1600, 10), RatedPlayer(2, 1500), RatedPlayer(3, 0)],
        [RatedGame(1, 1, 2, 1), RatedGame(3, 2, 3, 0)],
    )
    assert changes[1].segments[0].multiplier == 30


def test_a_tie_won_on_the_adjustments_is_rated_a_half() -> None:
    """Equal final scores: tsh reads the scores, so the game is a tie for the
    ratings whoever won it on the scores before the end-of-game adjustments."""
    division = small_division()
    ann, bob = division.players[0], division.players[1]
    tied = dataclasses.replace(ann.rounds[0], own_score=380, opponent_score=380)
    lost = dataclasses.replace(bob.rounds[0], own_score=380, opponent_score=380)
    division = dataclasses.replace(
        division,
        players=(
            dataclasses.replace(ann, rounds=(tied, *ann.rounds[1:])),
            dataclasses.replace(bob, rounds=(lost, *bob.rounds[1:])),
            division.players[2],
        ),
    )
    assert division_rated_games(division)[0] == RatedGame(1, 1, 2, 0.5)


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


# ABSP -------------------------------------------------------------------------------


def absp_division(*rows: tuple[int, list[tuple[int, float]]]) -> DivisionRecord:
    """Players numbered from 1 with (rating, [(opponent, result) by round])."""
    return DivisionRecord(
        "A",
        tuple(
            PlayerRecord(
                number,
                f"P{number}",
                rating,
                tuple(
                    game_entry(round_, opponent, result)
                    for round_, (opponent, result) in enumerate(games, start=1)
                ),
            )
            for number, (rating, games) in enumerate(rows, start=1)
        ),
    )


def test_absp_published_example_2001_over_12_games_is_167() -> None:
    """Opponents 161, 157, 154, 167, 155, 167, 160, 159, 154, 156, 155, 156 (1901),
    7 won and 5 lost: 1901 + 350 - 250 = 2001; 2001 / 12 = 166.75 -> 167.

    Player X is rated 160 here: every opponent is within 40 and counts as rated.
    """
    opponents = [161, 157, 154, 167, 155, 167, 160, 159, 154, 156, 155, 156]
    won = [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    # Player 1 meets players 2.. once each, in order; opponent 0 marks an absence.
    rows = [(160, [(i + 2, float(w)) for i, w in enumerate(won)])]
    for round_, (rating, w) in enumerate(zip(opponents, won, strict=True), start=1):
        rows.append((rating, [(0, 0.0)] * (round_ - 1) + [(1, 1.0 - w)]))
    rating, event = absp_event_ratings(_absences(absp_division(*rows)))[1]
    assert (rating, event.points, event.games) == (167, 2001, 12)


def test_absp_moves_a_rated_opponent_to_within_40() -> None:
    """169 beats 120 (counts 129) and loses to 250 (counts 209):
    (129 + 50 + 209 - 50) / 2 = 169. The 120 sees 169 as 160: 160 - 50 = 110."""
    division = absp_division(
        (169, [(2, 1.0), (3, 0.0)]), (120, [(1, 0.0)]), (250, [(0, 0.0), (1, 1.0)])
    )
    division = _absences(division)
    ratings = absp_event_ratings(division)
    assert ratings[1][0] == 169
    assert ratings[2][0] == 110


def _absences(division: DivisionRecord) -> DivisionRecord:
    """The rounds against "player 0" as absences."""
    return dataclasses.replace(
        division,
        players=tuple(
            dataclasses.replace(
                p,
                rounds=tuple(
                    RoundEntry(e.round, EntryKind.UNPLAYED) if e.opponent == 0 else e
                    for e in p.rounds
                ),
            )
            for p in division.players
        ),
    )


def test_absp_newcomers_are_rated_in_two_passes_then_the_rated_players() -> None:
    """N1 (new) beats R (150) and loses to N2 (new); N2 also beats R.

    Pass 1 (rated opponents only): N1 = 150 + 50 = 200; N2 = 200.
    Pass 2: N1 = (150 + 50 + 200 - 50) / 2 = 175; N2 = (200 + 50 + 150 + 50) / 2
    = 225. R, against newcomers, unclamped (225 would count as 190):
    (175 - 50 + 225 - 50) / 2 = 150.
    """
    division = _absences(
        absp_division(
            (0, [(3, 1.0), (2, 0.0)]),
            (0, [(0, 0.0), (1, 1.0), (3, 1.0)]),
            (150, [(1, 0.0), (0, 0.0), (2, 0.0)]),
        )
    )
    ratings = absp_event_ratings(division)
    assert {n: r for n, (r, _) in ratings.items()} == {1: 175, 2: 225, 3: 150}


def test_absp_floors_an_event_rating_at_40_and_a_newcomer_s_at_80() -> None:
    """45 loses to 45: 45 - 50 = -5 -> 40. A newcomer losing to 60: 10 -> 80."""
    division = absp_division((45, [(2, 0.0)]), (45, [(1, 1.0)]))
    assert absp_event_ratings(division)[1][0] == 40
    division = absp_division((0, [(2, 0.0)]), (60, [(1, 1.0)]))
    assert absp_event_ratings(division)[1][0] == 80


def test_absp_event_after_round_k() -> None:
    division = absp_division((150, [(2, 1.0), (2, 1.0)]), (150, [(1, 0.0), (1, 0.0)]))
    assert absp_event_ratings(division, after_round=1)[1][1].games == 1


def test_absp_running_rating_weighs_recent_games_more() -> None:
    """Newest 12 games at 2001/12 weigh 225..214; the 10 before at 1500/10 weigh
    213..204."""
    newest = sum(range(214, 226))
    older = sum(range(204, 214))
    rating = absp_running_rating([AbspEvent(2001, 12), AbspEvent(1500, 10)])
    expect = (newest * 2001 / 12 + older * 150) / (newest + older)
    assert rating == math.floor(expect + 0.5)


def test_absp_running_rating_counts_whole_events_up_to_150_games() -> None:
    """140 games, then an event of 20 (counted whole: weights 85..66), then one more
    that is left out."""
    events = [AbspEvent(140 * 150, 140), AbspEvent(20 * 100, 20), AbspEvent(9000, 30)]
    first, second = sum(range(86, 226)), sum(range(66, 86))
    expect = (first * 150 + second * 100) / (first + second)
    assert absp_running_rating(events) == math.floor(expect + 0.5)
    assert absp_running_rating(events[:2]) == absp_running_rating(events)


def test_absp_running_rating_is_never_below_50() -> None:
    assert absp_running_rating([AbspEvent(30 * 5, 5)]) == ABSP.floor == 50
    assert absp_running_rating([]) is None


def test_the_rated_record_counts_rated_games_and_the_rounds_beside_them():
    from rules.ratings import rated_record
    from rules.records import EntryKind, PlayerRecord, RoundEntry

    rounds = (
        RoundEntry(
            1, EntryKind.GAME, opponent=2, own_score=400, opponent_score=350, result=1.0
        ),
        RoundEntry(2, EntryKind.BYE, own_score=50, result=1.0),
        RoundEntry(
            3, EntryKind.GAME, opponent=3, own_score=300, opponent_score=380, result=0.0
        ),
        RoundEntry(
            4, EntryKind.GAME, opponent=4, own_score=390, opponent_score=390, result=0.5
        ),
        RoundEntry(5, EntryKind.FORFEIT_LOSS, result=0.0),
    )
    player = PlayerRecord(number=1, name="Ann", rating=1500, rounds=rounds)
    assert rated_record(player, 5) == {
        "games": 3,
        "wins": 1,
        "losses": 1,
        "draws": 1,
        "spread": -30,
        "byes": 1,
        "forfeits": 1,
    }
    assert rated_record(player, 2)["games"] == 1
