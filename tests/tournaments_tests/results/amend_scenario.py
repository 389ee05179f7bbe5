"""A 5-round Swiss of six players stored through the services, the scenario of
tests/rules_tests/test_impact.py: Gibsonization on, prizes for 1st and 2nd; round
2's board 1 entered as Cy Cole beating Ann Able (the slip the tests amend)."""

from __future__ import annotations

import uuid

from rules import tournament as rt
from rules.division_rules import PairingOptions, Prize, PrizeKind, PrizeTable
from rules.pairing import pair_next_round
from tournaments.core.aggregate import tournament_state
from tournaments.core.writes import tournament_append
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

NAMES = [
    ("Ann Able", 1800),
    ("Ben Baker", 1700),
    ("Cy Cole", 1600),
    ("Di Dane", 1500),
    ("Ed Eames", 1400),
    ("Flo Fox", 1300),
]
# Each round's winners by player number (every game 450 – 350): the higher
# rated, but for round 2's Cy over Ann (amended), round 3's Ed over Ann and
# round 4's Di over Cy.
WINNERS = {1: {1, 2, 3}, 2: {3, 2, 5}, 3: {2, 5, 4}, 4: {2, 4, 1}}


def swiss_five(director) -> tuple[uuid.UUID, dict[int, str]]:
    """The tournament, rounds 1-4 played and round 5 paired; its ids by number.
    Each round is paired as the pairing service pairs it (``pair_next_round``),
    with fixed coin flips instead of drawn ones."""
    tid = setup_services.tournament_create(
        user=director,
        name="Amendment Open",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=5,
    ).stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(name, rating, "") for name, rating in NAMES],
        user=director,
    )
    _, state = tournament_state(tid)
    ids = {state.rules.players[p].number: p for p in state.rules.division_players["A"]}
    numbers = {player_id: number for number, player_id in ids.items()}
    tournament_append(
        tournament_id=tid,
        events=[
            rt.PairingRulesSet("A", PairingOptions(gibson=True, prize_places=1)),
            rt.PrizeTableSet(
                "A",
                PrizeTable(
                    (Prize(PrizeKind.PLACE, 10000, 1), Prize(PrizeKind.PLACE, 5000, 2))
                ),
            ),
        ],
        user=director,
    )
    for round_ in range(1, 6):
        _, state = tournament_state(tid)
        paired = pair_next_round(
            state.rules,
            "A",
            round_,
            rt.PairingMethod.SWISS,
            (True, False) * 6,
            options=state.rules.options_of("A"),
        )
        tournament_append(tournament_id=tid, events=[paired], user=director)
        for game in paired.games if round_ < 5 else ():
            won = numbers[game.first] in WINNERS[round_]
            results_services.result_record(
                tournament_id=tid,
                round_=round_,
                player_a=game.first,
                player_b=game.second,
                score_a=450 if won else 350,
                score_b=350 if won else 450,
                user=director,
            )
    return tid, ids
