"""Hand-made writers' records shared by the submission-file tests."""

from __future__ import annotations

import dataclasses

from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)

GAME = EntryKind.GAME
BYE = EntryKind.BYE


def game(
    round_: int, opponent: int, own: int, theirs: int, result: float, first: bool
) -> RoundEntry:
    return RoundEntry(
        round=round_,
        kind=GAME,
        opponent=opponent,
        own_score=own,
        opponent_score=theirs,
        went_first=first,
        result=result,
    )


def spring_open() -> TournamentRecord:
    """Two divisions with byes, a forfeit, a draw, a tie-rule win and a withdrawal.

    Division A, 5 players, 4 rounds:
      R1  1-2 (1 first) 400-350; 3-4 (4 first) 380-380 draw; 5 bye
      R2  1-3 (1 first) 390-420; 2-5 (5 first) 410-300; 4 bye
      R3  1 wins by forfeit against 4; 2-3 (2 first) 455-370; 5 absent (withdrew)
      R4  1-2 (2 first) 399-401; 3-4 (3 first) 350-433; 5 forfeits (withdrawn)
    Division B, 3 players, 2 rounds:
      R1  1-2 (2 first) 512-345; 3 bye
      R2  2-3 (3 first) 372-372, won by 3 on the pre-adjustment tie rule; 1 bye
    """
    division_a = DivisionRecord(
        name="A",
        players=(
            PlayerRecord(
                number=1,
                name="Anderson, Ann",
                rating=1650,
                rounds=(
                    game(1, 2, 400, 350, 1, True),
                    game(2, 3, 390, 420, 0, True),
                    RoundEntry(
                        3, EntryKind.FORFEIT_WIN, opponent=4, own_score=50, result=1
                    ),
                    game(4, 2, 399, 401, 0, False),
                ),
            ),
            PlayerRecord(
                number=2,
                name="Björk, Zoë",
                rating=1500,
                rounds=(
                    game(1, 1, 350, 400, 0, False),
                    game(2, 5, 410, 300, 1, False),
                    game(3, 3, 455, 370, 1, True),
                    game(4, 1, 401, 399, 1, True),
                ),
            ),
            PlayerRecord(
                number=3,
                name="Chen, Wei",
                rating=1400,
                rounds=(
                    game(1, 4, 380, 380, 0.5, False),
                    game(2, 1, 420, 390, 1, False),
                    game(3, 2, 370, 455, 0, False),
                    game(4, 4, 350, 433, 0, True),
                ),
            ),
            PlayerRecord(
                number=4,
                name="Díaz, José",
                rating=0,
                rounds=(
                    game(1, 3, 380, 380, 0.5, True),
                    RoundEntry(2, BYE, own_score=50, result=1),
                    RoundEntry(
                        3,
                        EntryKind.FORFEIT_LOSS,
                        opponent=1,
                        own_score=-50,
                        result=0,
                    ),
                    game(4, 3, 433, 350, 1, False),
                ),
            ),
            PlayerRecord(
                number=5,
                name="Evans-Łukaszewicz, Tom",
                rating=1300,
                withdrawn=True,
                rounds=(
                    RoundEntry(1, BYE, own_score=50, result=1),
                    game(2, 2, 300, 410, 0, True),
                    RoundEntry(3, EntryKind.UNPLAYED),
                    RoundEntry(
                        4, EntryKind.WITHDRAWAL_FORFEIT, own_score=-50, result=0
                    ),
                ),
            ),
        ),
    )
    division_b = DivisionRecord(
        name="B",
        players=(
            PlayerRecord(
                number=1,
                name="O'Brien, Seán",
                rating=1720,
                rounds=(
                    game(1, 2, 512, 345, 1, False),
                    RoundEntry(2, BYE, own_score=50, result=1),
                ),
            ),
            PlayerRecord(
                number=2,
                name="Park, Min-jun",
                rating=1690,
                rounds=(
                    game(1, 1, 345, 512, 0, True),
                    game(2, 3, 372, 372, 0, False),
                ),
            ),
            PlayerRecord(
                number=3,
                name='Quinn, Ruth "Ru"',
                rating=0,
                rounds=(
                    RoundEntry(1, BYE, own_score=50, result=1),
                    game(2, 2, 372, 372, 1, True),
                ),
            ),
        ),
    )
    return TournamentRecord(
        name="Café Spring Open", date="2024-03-09", divisions=(division_a, division_b)
    )


def replace_entry(
    record: TournamentRecord, number: int, round_: int, **changes: object
) -> TournamentRecord:
    """Return the record with one entry of division A changed."""
    division = record.divisions[0]
    players = []
    for player in division.players:
        if player.number == number:
            rounds = tuple(
                dataclasses.replace(entry, **changes)
                if entry.round == round_
                else entry
                for entry in player.rounds
            )
            player = dataclasses.replace(player, rounds=rounds)
        players.append(player)
    division = dataclasses.replace(division, players=tuple(players))
    return dataclasses.replace(record, divisions=(division, *record.divisions[1:]))
