"""The tournament as the neutral records every submission-file writer reads.

``tournament_to_records`` turns a replayed state into ``rules.records`` values (the
players by number, one ``RoundEntry`` per round, their ranks after each round); the
writers in ``rules.tsh`` and ``rules.submissions`` never see the state itself.

Usage::

    record = tournament_to_records(state)
    write_t(record.divisions[0])
"""

from __future__ import annotations

from rules.outcome import points_of
from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)
from rules.tournament.standings import standings
from rules.tournament.state import Entry, Player, TournamentState


def tournament_to_records(state: TournamentState) -> TournamentRecord:
    """Return the neutral records every submission writer works from.

    Each division lists its players by number with one entry per round up to the
    division's last paired round. For a bye or forfeit ``own_score`` is the signed
    spread credited (+bye, +forfeit for the winner, -forfeit for the absentee) and
    ``opponent_score`` is None; a forfeit keeps the opponent's number.
    """
    divisions = []
    for division in state.divisions:
        last = state.paired_rounds(division)
        ids = state.division_players[division]
        ranks: dict[str, list[int | None]] = {player_id: [] for player_id in ids}
        for round_ in range(0, last + 1):
            for row in standings(state, division, after_round=round_):
                ranks[row.player_id].append(row.rank)
        players = []
        for player_id in ids:
            player = state.players[player_id]
            card = state.cards[player_id]
            rounds = tuple(
                _round_entry(state, round_, card.entries[round_ - 1])
                for round_ in range(1, last + 1)
            )
            players.append(player_record(player, rounds, tuple(ranks[player_id])))
        divisions.append(DivisionRecord(name=division, players=tuple(players)))
    settings = state.settings
    return TournamentRecord(
        name=state.name,
        date=state.start_date,
        divisions=tuple(divisions),
        rating_system=settings.rating_system.value,
        club_event=settings.club_event,
        rounds=settings.rounds,
    )


def player_record(
    player: Player,
    rounds: tuple[RoundEntry, ...],
    ranks: tuple[int | None, ...] = (),
) -> PlayerRecord:
    """Return ``player`` with their rounds (and ranks) as the writers' record."""
    return PlayerRecord(
        number=player.number,
        name=player.name,
        rating=player.rating,
        rounds=rounds,
        member_id=player.member_id,
        withdrawn=player.withdrawn,
        rating_text=player.rating_text,
        career_games=player.career_games,
        extensions=tuple((ext.key, ext.value) for ext in player.extensions),
        ranks=ranks,
    )


def _round_entry(
    state: TournamentState, round_: int, entry: Entry | None
) -> RoundEntry:
    if entry is None:
        entry = Entry.unplayed(round_)
    opponent = None if entry.opponent is None else state.players[entry.opponent].number
    return round_entry(entry, opponent)


def round_entry(entry: Entry, opponent_number: int | None) -> RoundEntry:
    """Return ``entry`` as the writers' neutral record.

    For a played game both scores; for a bye, forfeit or credit ``own_score`` is
    the signed spread credited and ``opponent_score`` is None; a forfeit keeps the
    opponent's number. ``result`` is None until the round counts.
    """
    result = None if entry.outcome is None else points_of(entry.outcome)
    if entry.kind is EntryKind.GAME:
        return RoundEntry(
            round=entry.round,
            kind=EntryKind.GAME,
            opponent=opponent_number,
            own_score=entry.own_score,
            opponent_score=entry.opponent_score,
            # A file never says who went first when the system does not know.
            went_first=entry.went_first if entry.first_known else None,
            result=result,
            board=entry.board,
        )
    if entry.kind is EntryKind.UNPLAYED:
        return RoundEntry(round=entry.round, kind=EntryKind.UNPLAYED)
    return RoundEntry(
        round=entry.round,
        kind=entry.kind,
        opponent=opponent_number,
        own_score=entry.round_spread,
        result=result,
        board=entry.board,
    )
