"""InitFontes: tsh's fixed opening rounds, a round robin within rating groups.

Usage::

    groups = init_fontes_groups(players, rounds=3)
    pairing = pair_init_fontes(players, rounds=3, round_=1)
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.pairing.boards import assign_boards
from rules.pairing.bye import _check_field
from rules.pairing.round_robin import pair_round_robin
from rules.pairing.systems import Pairing
from rules.tournament import (
    TournamentError,
)


def init_fontes_groups(
    players: Sequence[str], rounds: int
) -> tuple[tuple[str, ...], ...]:
    """Return InitFontes' round-robin groups of ``players`` (best first).

    As tsh does with ``initial_snaked``: the number of rounds is made odd, groups
    have one more player than that (four for three rounds), one from each part of
    the field, dealt boustrophedonically (1st, 8th, 9th, 16th... in one group of
    four from sixteen). A field too small for two groups is one group. When the
    field does not divide evenly, players from the middle of the field join the
    last group, unless the field is just one short (then one group is short and
    its round robin has the bye).
    """
    size = rounds + 1 if rounds % 2 else rounds + 2
    field_ = list(players)
    if len(field_) <= 2 * (size - 1):
        return (tuple(field_),)
    extra: list[str] = []
    if len(field_) % size != size - 1:
        while len(field_) % size:
            extra.append(field_.pop((len(field_) + 1) // 2))
    groups = -(-len(field_) // size)
    rows = [field_[r * groups : (r + 1) * groups] for r in range(size)]
    rows = [row[::-1] if r % 2 else row for r, row in enumerate(rows)]
    dealt = [[row[g] for row in rows if g < len(row)] for g in range(groups)]
    dealt[-1].extend(extra)
    return tuple(tuple(group) for group in dealt)


def pair_init_fontes(players: Sequence[str], rounds: int, round_: int) -> Pairing:
    """Return round ``round_`` (1-based) of InitFontes over ``rounds`` rounds.

    ``players`` are in pre-event order (by rating). Each group of
    ``init_fontes_groups`` plays a round robin (Berger tables, as tsh's
    InitFontes does), so nobody meets twice in the opening rounds. Raises
    TournamentError (``too_few_players``, ``invalid_round``).
    """
    _check_field(players)
    if type(round_) is not int or not 1 <= round_ <= rounds:
        raise TournamentError(
            "invalid_round",
            f"InitFontes schedules rounds 1 to {rounds} of its own.",
            "round",
        )
    games: list[tuple[str, str]] = []
    byes: list[str] = []
    for group in init_fontes_groups(players, rounds):
        if len(group) < 2:
            byes.extend(group)
            continue
        table = pair_round_robin(group, round_)
        games.extend((game.first, game.second) for game in table.games)
        byes.extend(table.byes)
    return Pairing(assign_boards(games), tuple(byes))
