"""Properties of every system pairing on generated tournaments (issue 22).

Each example plays a few rounds with random results, then pairs the next round by
King of the Hill, Swiss, Chew pairings or COP under random options, and checks,
with the test's own brute force and its own catch-up rule (not the module's):

- every player is seated exactly once (a game or the one bye);
- no pair beyond the repeat limit while the players left after the Gibsons'
  games could be paired within it;
- a clinched leader (a Gibson) never meets a player who can still win a prize,
  unless every other player can;
- Chew and COP give the top contender an opponent who can still catch them;
- a pinned player's game is on their board.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.division_rules import FixedBoard
from rules.pairing import (
    PairingOptions,
    System,
    pair_round,
    pairing_inputs,
    repeat_limit,
)
from rules.tournament import (
    DivisionAdded,
    PlayerRegistered,
    Ranking,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    apply,
    replay,
)

SYSTEMS = [System.KING_OF_THE_HILL, System.SWISS, System.CHEW, System.COP]


def _matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, partner in enumerate(rest):
        for tail in _matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *tail]


def _pairable_within(players: list[str], met: Counter, limit: int) -> bool:
    """Brute force: can ``players`` (any one of them having the bye when odd) be
    paired with no pair that met more than ``limit`` times?"""
    options = [None] if len(players) % 2 == 0 else players
    for bye in options:
        field = [p for p in players if p != bye]
        for matching in _matchings(field):
            if all(met[frozenset(pair)] <= limit for pair in matching):
                return True
    return False


def _gibson_must_meet_the_out(g, ranked, gibsons, contenders, met, limit) -> bool:
    """Whether the Gibson rule makes ``g`` meet a player out of the money.

    The repeat limit holds for Gibsons too (issue 32, item 10): ``g`` meets a
    contender when nobody else is out of the money, or when every game with one
    is beyond the limit or would force a game beyond it elsewhere. That last
    test is exact for an even field with one Gibson (every other player is
    unpaired when the Gibson is paired); elsewhere the bye and the other
    Gibsons' games decide it first, so the property is asked only without a
    limit.
    """
    out = [p for p in ranked if p not in gibsons and p not in contenders]
    if not out:
        return False
    if limit is None:
        return True
    if len(gibsons) > 1 or len(ranked) % 2:
        return False
    return any(
        met[frozenset((g, p))] <= limit
        and _pairable_within([x for x in ranked if x not in (g, p)], met, limit)
        for p in out
    )


def _catches(leader, chaser, rounds_left, spread) -> bool:
    """The test's own catch-up rule: win every game, the leader losing every one."""
    gap = leader[0] - chaser[0]
    if gap != 2 * rounds_left:
        return gap < 2 * rounds_left
    return leader[1] - chaser[1] <= 2 * spread * rounds_left


@st.composite
def tournaments(draw):
    n = draw(st.integers(4, 9))
    rounds = draw(st.integers(2, 6))
    played = draw(st.integers(1, rounds - 1))
    state = replay(
        [
            TournamentCreated(
                "T", "2025-01-01", "2025-01-02", rounds, ranking=Ranking.TSH
            ),
            DivisionAdded("A"),
            *[PlayerRegistered(f"p{i}", "A", f"P{i}", 1800 - 10 * i) for i in range(n)],
        ]
    )
    for round_ in range(1, played + 1):
        pairing = pair_round(state, "A", round_, System.SWISS, [True] * n)
        state = apply(state, RoundPaired("A", round_, pairing.games, pairing.byes))
        for game in pairing.games:
            a = draw(st.integers(150, 650))
            b = draw(st.integers(150, 650).filter(lambda s, a=a: s != a))
            state = apply(state, ResultRecorded(round_, game.first, game.second, a, b))
    return state, played + 1


@settings(max_examples=150, deadline=None)
@given(
    data=tournaments(),
    system=st.sampled_from(SYSTEMS),
    gibson=st.booleans(),
    places=st.integers(1, 3),
    limit=st.sampled_from([None, 0, 1, 99]),
    spread=st.sampled_from([25, 100, 500]),
    pins=st.integers(0, 2),
)
def test_system_pairings_keep_their_promises(
    data, system, gibson, places, limit, spread, pins
):
    """Seated once; repeat limit; Gibsons never meet a contender; pins honoured."""
    state, round_ = data
    inputs = pairing_inputs(state, "A", round_)
    ranked = list(inputs.ranked)
    fixed = tuple((ranked[-1 - k], 3 + 2 * k) for k in range(pins))
    options = PairingOptions(
        max_repeats=limit,
        gibson=gibson,
        gibson_spread=spread,
        prize_places=places,
        fixed_boards=tuple(FixedBoard(p, b) for p, b in fixed),
    )
    pairing = pair_round(state, "A", round_, system, [True] * 9, options=options)
    # Every player seated exactly once; a bye only for an odd field.
    seated = [p for g in pairing.games for p in (g.first, g.second)]
    assert sorted(seated + list(pairing.byes)) == sorted(ranked)
    assert len(pairing.byes) == len(ranked) % 2
    opponent = {g.first: g.second for g in pairing.games}
    opponent.update({g.second: g.first for g in pairing.games})
    # Pinned players' games are on their boards (pins here are all different).
    board = {p: g.board for g in pairing.games for p in (g.first, g.second)}
    for player, pinned in fixed:
        if player in board:
            mate_pin = dict(fixed).get(opponent[player], pinned)
            assert board[player] == min(pinned, mate_pin)
    # The test's own contention: points and spread after the last round.
    record = {p: (inputs.score_groups[p], inputs.spreads[p]) for p in ranked}
    left = inputs.rounds_left
    gibsons = []
    for position, player in enumerate(ranked[:places]):
        below = ranked[position + 1 :]
        if not below or any(
            _catches(record[player], record[o], left, spread) for o in below
        ):
            break
        gibsons.append(player)
    if not (gibson or system in (System.CHEW, System.COP)):
        gibsons = []

    def best(player):
        return 1 + sum(
            1
            for other in ranked
            if other != player
            and not _catches(record[other], record[player], left, spread)
        )

    contenders = {p for p in ranked if p not in gibsons and best(p) <= places}
    met = Counter(frozenset(pair) for pair in inputs.played)
    for g in gibsons:
        if g in opponent and _gibson_must_meet_the_out(
            g, ranked, gibsons, contenders, met, limit
        ):
            assert opponent[g] not in contenders, "a Gibson met a prize contender"
    # Repeat limit: none beyond it among the players left after the Gibsons'
    # games, while they could be paired within it.
    if limit is not None:
        rest = [
            p for p in ranked if p not in gibsons and opponent.get(p) not in gibsons
        ]
        if _pairable_within(rest, met, limit):
            for game in pairing.games:
                if game.first in rest and game.second in rest:
                    assert met[frozenset((game.first, game.second))] <= limit
    # Chew and COP: the top contender meets someone who can catch them.
    # (With a repeat limit, a catcher the top contender already met may be out.)
    if system in (System.CHEW, System.COP) and repeat_limit(options, system) in (
        None,
        99,
    ):
        top = next((p for p in ranked if p not in gibsons), None)
        if top in contenders and top in opponent:
            catchers = [
                o
                for o in ranked
                if o != top
                and o not in gibsons
                and _catches(record[top], record[o], left, spread)
            ]
            if catchers and all(o not in gibsons for o in [opponent[top]]):
                assert opponent[top] in catchers
