"""System pairings: round robin, King of the Hill and Swiss, and who goes first.

The pairing functions are pure: they take the players (ranked where it matters), the
history they need and the coin flips the caller drew, and return a ``Pairing``.
``rules/`` never draws random numbers: the service draws the coin flips, and the
``RoundPaired`` event records the ones consumed, so a pairing is reproducible from
the log. ``pair_next_round`` gathers the inputs from a ``TournamentState`` and
returns the event.

Usage::

    event = pair_next_round(state, "A", 2, PairingMethod.SWISS, coin_flips=bits)
    state = apply(state, event)

Who goes first (``assign_firsts``), following NASPA practice as tsh implements it:
the player who has gone first fewer times goes first; if equal, the one who has gone
second more times; if still equal, a coin flip decides.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.records import EntryKind
from rules.standings import ranked_player_ids
from rules.tournament import (
    Board,
    PairingMethod,
    RoundPaired,
    TournamentError,
    TournamentState,
    WithdrawalPolicy,
)

__all__ = [
    "Pairing",
    "PairingInputs",
    "assign_firsts",
    "choose_bye",
    "coin_flips_needed",
    "pair_king_of_the_hill",
    "pair_next_round",
    "pair_round_robin",
    "pair_swiss",
    "pairing_inputs",
]


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's games (board 1 first), its byes, and the coin flips consumed."""

    games: tuple[Board, ...]
    byes: tuple[str, ...] = ()
    coin_flips: tuple[bool, ...] = ()


# --- Who goes first -------------------------------------------------------------------


def assign_firsts(
    pairs: Sequence[tuple[str, str]],
    *,
    firsts: Mapping[str, int],
    seconds: Mapping[str, int],
    coin_flips: Sequence[bool] = (),
) -> tuple[tuple[tuple[str, str], ...], tuple[bool, ...]]:
    """Orient each pair as (first, second); return them and the coin flips used.

    Fewer firsts goes first; then more seconds; then the next coin flip decides
    (True: the pair's first-listed player goes first). Raises TournamentError
    (``not_enough_coin_flips``) when more ties need a flip than flips were given.
    """
    oriented = []
    used = 0
    for a, b in pairs:
        key_a = (firsts.get(a, 0), -seconds.get(a, 0))
        key_b = (firsts.get(b, 0), -seconds.get(b, 0))
        if key_a < key_b:
            oriented.append((a, b))
        elif key_b < key_a:
            oriented.append((b, a))
        else:
            if used >= len(coin_flips):
                raise TournamentError(
                    "not_enough_coin_flips",
                    "More games need a coin flip for who goes first than coin flips"
                    " were given.",
                    "coin_flips",
                )
            flip = coin_flips[used]
            used += 1
            oriented.append((a, b) if flip else (b, a))
    return tuple(oriented), tuple(coin_flips[:used])


def coin_flips_needed(state: TournamentState, division: str) -> int:
    """The most coin flips pairing a round of `division` can consume.

    One per game at most (``assign_firsts``), and a round has at most half the
    division's players as games: the caller draws this many, and the event keeps
    the ones used. 0 for a division that does not exist (pairing it is refused).
    """
    return len(state.division_players.get(division, ())) // 2


def _boards(pairs: Iterable[tuple[str, str]]) -> tuple[Board, ...]:
    return tuple(
        Board(number, first, second)
        for number, (first, second) in enumerate(pairs, start=1)
    )


# --- Round robin ----------------------------------------------------------------------


def pair_round_robin(players: Sequence[str], cycle_round: int) -> Pairing:
    """Return round ``cycle_round`` (1-based) of a round robin of ``players``.

    Berger tables by the circle method: with an odd number of players a phantom
    joins and whoever meets it has the bye. Every pair meets once in each cycle of
    n-1 rounds (n rounded up to even); the second cycle reverses who goes first, as
    in a double round robin. Over a cycle each player goes first and second equally
    often, give or take one. Raises TournamentError (``too_few_players``,
    ``invalid_round``).
    """
    if len(players) < 2:
        raise TournamentError(
            "too_few_players", "A round robin needs at least two players.", "players"
        )
    if len(set(players)) != len(players):
        raise TournamentError(
            "player_paired_twice", "A player is listed twice.", "players"
        )
    if type(cycle_round) is not int or cycle_round < 1:
        raise TournamentError(
            "invalid_round", "The round of the schedule must be 1 or more.", "round"
        )
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.append(None)  # the phantom: meeting it is a bye
    n = len(seats)
    rounds_per_cycle = n - 1
    cycle, k = divmod(cycle_round - 1, rounds_per_cycle)
    fixed = seats[-1]
    rotating = [seats[(i + k) % rounds_per_cycle] for i in range(rounds_per_cycle)]
    tables: list[tuple[str | None, str | None]] = []
    # Table 1: the fixed seat alternates first and second from round to round.
    tables.append((fixed, rotating[0]) if k % 2 else (rotating[0], fixed))
    for i in range(1, n // 2):
        tables.append((rotating[i], rotating[rounds_per_cycle - i]))
    games = []
    byes = []
    for first, second in tables:
        if first is None or second is None:
            byes.append(second if first is None else first)
            continue
        games.append((second, first) if cycle % 2 else (first, second))
    return Pairing(_boards(games), tuple(b for b in byes if b is not None))


# --- The bye --------------------------------------------------------------------------


def choose_bye(ranked: Sequence[str], byes: Mapping[str, int]) -> list[str]:
    """Return the bye candidates in order: fewest byes, then lowest ranked.

    The fewest-byes rule: the bye goes to the lowest-ranked player among those who
    have had the fewest byes.
    """
    position = {player: index for index, player in enumerate(ranked)}
    return sorted(ranked, key=lambda p: (byes.get(p, 0), -position[p]))


# --- King of the Hill -----------------------------------------------------------------


def pair_king_of_the_hill(
    ranked: Sequence[str],
    *,
    byes: Mapping[str, int] | None = None,
    firsts: Mapping[str, int] | None = None,
    seconds: Mapping[str, int] | None = None,
    coin_flips: Sequence[bool] = (),
) -> Pairing:
    """Pair 1v2, 3v4, ... in ``ranked`` order (best first), repeats allowed.

    King of the Hill deliberately ignores earlier meetings (it is used for the last
    round, where the leaders must meet whatever they played before).

    With an odd number the bye goes by the fewest-byes rule, and the rest are paired
    in order. Raises TournamentError (``too_few_players``, ``not_enough_coin_flips``).
    """
    _check_field(ranked)
    byes = byes or {}
    field = list(ranked)
    bye: tuple[str, ...] = ()
    if len(field) % 2:
        chosen = choose_bye(field, byes)[0]
        field.remove(chosen)
        bye = (chosen,)
    pairs = [(field[i], field[i + 1]) for i in range(0, len(field), 2)]
    oriented, used = assign_firsts(
        pairs, firsts=firsts or {}, seconds=seconds or {}, coin_flips=coin_flips
    )
    return Pairing(_boards(oriented), bye, used)


def _check_field(ranked: Sequence[str]) -> None:
    if len(ranked) < 2:
        raise TournamentError(
            "too_few_players", "At least two players are needed to pair.", "players"
        )
    if len(set(ranked)) != len(ranked):
        raise TournamentError(
            "player_paired_twice", "A player is listed twice.", "players"
        )


# --- Maximum matching (Edmonds' blossom algorithm) ------------------------------------


class _Matcher:
    """A maximum-cardinality matching of a general graph that survives deletions.

    Vertices can be deleted (``remove``) and the matching repaired: after deleting
    vertices from a maximum matching, any augmenting path starts at a vertex the
    deletion freed, so searching from those alone restores a maximum matching.
    """

    def __init__(self, adjacency: list[list[int]]) -> None:
        self.adjacency = adjacency
        n = len(adjacency)
        self.match = [-1] * n
        self.alive = [True] * n
        self.size = 0
        for v in range(n):
            if self.match[v] == -1:
                for u in adjacency[v]:
                    if self.match[u] == -1:
                        self.match[u], self.match[v] = v, u
                        self.size += 1
                        break
        for v in range(n):
            if self.match[v] == -1 and self._augment(v):
                self.size += 1

    def remove(self, vertices: Sequence[int]) -> None:
        """Delete ``vertices`` and repair the matching to a maximum one."""
        freed = []
        for v in vertices:
            self.alive[v] = False
            partner = self.match[v]
            if partner != -1:
                self.match[v] = self.match[partner] = -1
                self.size -= 1
                if partner not in vertices:
                    freed.append(partner)
        for v in freed:
            if self.match[v] == -1 and self._augment(v):
                self.size += 1

    def snapshot(self) -> tuple[list[int], list[bool], int]:
        return self.match[:], self.alive[:], self.size

    def restore(self, snapshot: tuple[list[int], list[bool], int]) -> None:
        self.match, self.alive, self.size = snapshot[0][:], snapshot[1][:], snapshot[2]

    def _augment(self, root: int) -> bool:
        """Find an augmenting path from the free vertex ``root`` and apply it."""
        n = len(self.adjacency)
        match = self.match
        alive = self.alive
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        while queue:
            v = queue.popleft()
            for to in self.adjacency[v]:
                if not alive[to] or base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    current = lca(v, to)
                    blossom = [False] * n
                    mark_path(v, current, to, blossom)
                    mark_path(to, current, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = current
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        u = to
                        while u != -1:
                            pv = parent[u]
                            ppv = match[pv]
                            match[u] = pv
                            match[pv] = u
                            u = ppv
                        return True
                    used[match[to]] = True
                    queue.append(match[to])
        return False


# --- Swiss ----------------------------------------------------------------------------


def pair_swiss(
    ranked: Sequence[str],
    *,
    score_groups: Mapping[str, int] | None = None,
    played: Iterable[tuple[str, str]] = (),
    byes: Mapping[str, int] | None = None,
    firsts: Mapping[str, int] | None = None,
    seconds: Mapping[str, int] | None = None,
    coin_flips: Sequence[bool] = (),
) -> Pairing:
    """Pair ``ranked`` (best first) Swiss-style, never repeating needlessly.

    ``score_groups`` gives each player's score (e.g. twice the wins plus the draws;
    equal values form a score group; missing: one group); ``played`` lists earlier
    games (a pair once per meeting).

    Guarantees, in priority order:

    1. The fewest repeat pairings possible: no repeat at all whenever some pairing
       of the whole field (with any bye) has none. This is exact (maximum matching
       with Edmonds' blossom algorithm), not a greedy guess.
    2. The bye by the fewest-byes rule (lowest-ranked among the fewest byes) among
       the choices that keep (1).
    3. Swiss order: from the top, each player meets the opponent closest to the
       ideal Swiss distance (half their score group down, as in tsh: 1v5, 2v6,
       3v7, 4v8 in a group of eight), preferring their own score group, then fewer
       earlier meetings, while a completion with the fewest repeats still exists.

    Raises TournamentError (``too_few_players``, ``not_enough_coin_flips``).
    """
    _check_field(ranked)
    groups = score_groups or {}
    byes = byes or {}
    index = {player: i for i, player in enumerate(ranked)}
    n = len(ranked)
    meetings: Counter[tuple[int, int]] = Counter()
    for first, second in played:
        if first in index and second in index and first != second:
            i, j = sorted((index[first], index[second]))
            meetings[(i, j)] += 1

    def times(i: int, j: int) -> int:
        return meetings.get((i, j) if i < j else (j, i), 0)

    adjacency = [[j for j in range(n) if j != i and not times(i, j)] for i in range(n)]
    matcher = _Matcher(adjacency)

    bye: tuple[str, ...] = ()
    if n % 2:
        best: tuple[int, str, tuple[list[int], list[bool], int]] | None = None
        before = matcher.snapshot()
        for candidate in choose_bye(ranked, byes):
            matcher.restore(before)
            matcher.remove([index[candidate]])
            repeats = (n - 1) // 2 - matcher.size
            if best is None or repeats < best[0]:
                best = (repeats, candidate, matcher.snapshot())
            if repeats == 0:
                break
        assert best is not None
        matcher.restore(best[2])
        bye = (best[1],)

    allowed = (n - len(bye)) // 2 - matcher.size
    unpaired = [i for i in range(n) if matcher.alive[i]]
    pairs: list[tuple[str, str]] = []
    while unpaired:
        a = unpaired[0]
        group = groups.get(ranked[a], 0)
        size = sum(1 for i in unpaired if groups.get(ranked[i], 0) == group)
        ideal = (size + size % 2) // 2

        def preference(
            position: int, a: int = a, group: int = group, ideal: int = ideal
        ) -> tuple[int, int, int, int]:
            b = unpaired[position]
            return (
                abs(groups.get(ranked[b], 0) - group),
                times(a, b),
                abs(position - ideal),
                position,
            )

        chosen = None
        for position in sorted(range(1, len(unpaired)), key=preference):
            b = unpaired[position]
            repeat = times(a, b) > 0
            if repeat and allowed == 0:
                continue
            before = matcher.snapshot()
            matcher.remove([a, b])
            remaining = len(unpaired) - 2
            if matcher.size >= remaining // 2 - (allowed - int(repeat)):
                chosen = b
                allowed -= int(repeat)
                break
            matcher.restore(before)
        assert chosen is not None  # a completion always exists: repeats are allowed
        pairs.append((ranked[a], ranked[chosen]))
        unpaired.remove(a)
        unpaired.remove(chosen)
    oriented, used = assign_firsts(
        pairs, firsts=firsts or {}, seconds=seconds or {}, coin_flips=coin_flips
    )
    return Pairing(_boards(oriented), bye, used)


# --- From the state -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairingInputs:
    """What the system pairings need to know before pairing a round."""

    ranked: tuple[str, ...]  # players to pair, best first
    score_groups: Mapping[str, int]  # twice the wins plus the draws
    played: tuple[tuple[str, str], ...]  # earlier meetings, one pair per game
    byes: Mapping[str, int]
    firsts: Mapping[str, int]
    seconds: Mapping[str, int]


def pairing_inputs(
    state: TournamentState,
    division: str,
    round_: int,
    based_on_round: int | None = None,
) -> PairingInputs:
    """Collect the inputs for pairing ``round_`` of ``division``.

    Players withdrawn in ``round_`` (either policy) are left out: with the forfeit
    policy the state gives them a forfeit loss for the round. The ranking is the
    standings after ``based_on_round`` (default: the previous round), which must be
    complete. Raises TournamentError (``unknown_division``, ``invalid_round``,
    ``previous_round_incomplete``).
    """
    if division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    if type(round_) is not int or not 1 <= round_ <= state.settings.rounds:
        raise TournamentError(
            "invalid_round",
            f"Round must be from 1 to {state.settings.rounds}.",
            "round",
        )
    based = round_ - 1 if based_on_round is None else based_on_round
    if type(based) is not int or not 0 <= based < round_:
        raise TournamentError(
            "invalid_round",
            "Pairings can only be based on standings after an earlier round.",
            "based_on_round",
        )
    ids = state.division_players[division]
    for player_id in ids:
        entry = state.cards[player_id].entries[based - 1] if based else None
        if entry is not None and not entry.has_result and entry.kind is EntryKind.GAME:
            raise TournamentError(
                "previous_round_incomplete",
                f"Round {based} still has games without a result; enter them before"
                f" pairing round {round_}.",
                "round",
            )
    active = {
        player_id
        for player_id in ids
        if state.players[player_id].withdrawn_in(round_) is None
    }
    ranked = tuple(p for p in ranked_player_ids(state, division, based) if p in active)
    played = []
    byes: Counter[str] = Counter()
    firsts: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    for earlier in range(1, round_):
        round_state = state.round_state(division, earlier)
        if round_state is None:
            continue
        for game in round_state.pairing.games:
            # A forfeited pairing still counts as a meeting: the players were
            # paired, and pairing them again would look like a repeat.
            played.append((game.first, game.second))
        for player_id in ids:
            entry = state.cards[player_id].entries[earlier - 1]
            if entry is None:
                continue
            if entry.kind is EntryKind.BYE:
                byes[player_id] += 1
            elif entry.kind is EntryKind.GAME and entry.first is not None:
                (firsts if entry.first else seconds)[player_id] += 1
    groups = {}
    for player_id in ranked:
        totals = state.cards[player_id].totals_after(based)
        groups[player_id] = 2 * totals.wins + totals.draws
    return PairingInputs(
        ranked=ranked,
        score_groups=groups,
        played=tuple(played),
        byes=dict(byes),
        firsts=dict(firsts),
        seconds=dict(seconds),
    )


def pair_next_round(
    state: TournamentState,
    division: str,
    round_: int,
    method: PairingMethod,
    coin_flips: Sequence[bool] = (),
    *,
    based_on_round: int | None = None,
    schedule_start: int = 1,
) -> RoundPaired:
    """Return the ``RoundPaired`` event pairing ``round_`` by ``method``.

    Round robin: the players registered and not withdrawn when the schedule starts
    (round ``schedule_start``), in player-number order, follow the Berger table;
    in a later round a player withdrawn under ``not_paired`` drops out and their
    opponent has the bye, and one withdrawn under ``forfeit`` stays paired and
    forfeits (tsh practice for keeping a round robin's schedule intact).
    Raises TournamentError as the pairing functions and ``pairing_inputs`` do.
    """
    method = PairingMethod(method)
    coin_flips = tuple(coin_flips)
    if method is PairingMethod.ROUND_ROBIN:
        pairing = _round_robin_from_state(state, division, round_, schedule_start)
    else:
        inputs = pairing_inputs(state, division, round_, based_on_round)
        if method is PairingMethod.KING_OF_THE_HILL:
            pairing = pair_king_of_the_hill(
                inputs.ranked,
                byes=inputs.byes,
                firsts=inputs.firsts,
                seconds=inputs.seconds,
                coin_flips=coin_flips,
            )
        elif method is PairingMethod.SWISS:
            pairing = pair_swiss(
                inputs.ranked,
                score_groups=inputs.score_groups,
                played=inputs.played,
                byes=inputs.byes,
                firsts=inputs.firsts,
                seconds=inputs.seconds,
                coin_flips=coin_flips,
            )
        else:
            raise TournamentError(
                "invalid_setting",
                f"{method.value} pairings are made by the director, not the system.",
                "method",
            )
    return RoundPaired(
        division=division,
        round=round_,
        games=pairing.games,
        byes=pairing.byes,
        method=method,
        coin_flips=pairing.coin_flips,
    )


def _round_robin_from_state(
    state: TournamentState, division: str, round_: int, schedule_start: int
) -> Pairing:
    if division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    if type(round_) is not int or not 1 <= schedule_start <= round_:
        raise TournamentError(
            "invalid_round",
            "The round robin must start at or before the round being paired.",
            "round",
        )
    players = [
        player_id
        for player_id in state.division_players[division]
        if state.players[player_id].withdrawn_in(schedule_start) is None
        and state.players[player_id].joined_after_round < schedule_start
    ]
    table = pair_round_robin(players, round_ - schedule_start + 1)
    games = []
    byes = [
        player_id
        for player_id in table.byes
        if state.players[player_id].withdrawn_in(round_) is None
    ]
    for game in table.games:
        out = [
            player_id
            for player_id in (game.first, game.second)
            if state.players[player_id].withdrawn_in(round_)
            is WithdrawalPolicy.NOT_PAIRED
        ]
        if not out:
            games.append((game.first, game.second))
        elif len(out) == 1:
            other = game.second if out[0] == game.first else game.first
            if state.players[other].withdrawn_in(round_) is None:
                byes.append(other)
    return Pairing(_boards(games), tuple(byes))
