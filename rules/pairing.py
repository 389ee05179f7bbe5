"""System pairings, who goes first, repeats and boards.

The systems: round robin, InitFontes (tsh's fixed opening rounds), King of the
Hill, Swiss, Chew pairings (tsh's ChewPair, prize-aware) and Castellano O'Connor
Pairings (COP, as NASPA uses them; weights in ``rules.cop``). Every system but the
fixed schedules honours a repeat limit (``PairingOptions.max_repeats``: no pair
beyond it while any pairing of the field avoids it, and the fewest beyond it when
none does) and can Gibsonize the last rounds (a player who has clinched their
place meets a player out of the money, or has the bye). Fixed boards put a pinned
player's game on their board whatever the system.

The pairing functions are pure: they take the players (ranked where it matters), the
history they need and the coin flips the caller drew, and return a ``Pairing``.
``rules/`` never draws random numbers: the service draws the coin flips, and the
``RoundPaired`` event records the ones consumed, so a pairing is reproducible from
the log. ``pair_next_round`` gathers the inputs from a ``TournamentState`` and
returns the event; the options it is given are the tournament's settings, so the
same settings and log give the same pairing.

Usage::

    event = pair_next_round(state, "A", 2, PairingMethod.SWISS, coin_flips=bits)
    state = apply(state, event)
    options = PairingOptions(gibson=True, prize_places=3, max_repeats=1)
    pairing = pair_round(state, "A", 9, System.COP, bits, options=options)
    round_repeats(state, "A", 9, [("p1", "p2")])  # before storing a hand pairing

Who goes first (``assign_firsts``), following NASPA practice as tsh implements it:
the player who has gone first fewer times goes first; if equal, the one who has gone
second more times; if still equal, a coin flip decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import count

from rules.contention import Standing, best_finishes, gibsons
from rules.cop import cop_costs
from rules.division_rules import PairingOptions
from rules.matching import Matcher, min_cost_perfect_matching
from rules.outcome import half_points
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
    "PairingOptions",
    "Repeat",
    "System",
    "assign_boards",
    "assign_firsts",
    "choose_bye",
    "coin_flips_needed",
    "count_repeats",
    "init_fontes_groups",
    "pair_chew",
    "pair_cop",
    "pair_init_fontes",
    "pair_king_of_the_hill",
    "pair_next_round",
    "pair_ranked",
    "pair_round",
    "pair_round_robin",
    "pair_swiss",
    "pairing_inputs",
    "repeat_limit",
    "round_repeats",
]


class System(StrEnum):
    """A system pairing method (``PairingMethod`` names the same values)."""

    ROUND_ROBIN = "round_robin"
    KING_OF_THE_HILL = "king_of_the_hill"
    SWISS = "swiss"
    INIT_FONTES = "init_fontes"
    CHEW = "chew"
    COP = "cop"


# How many times a pair may have met before a round, by system, unless the options
# say otherwise (None: no limit). Swiss and Chew avoid every repeat they can (tsh
# pairs Swiss and ChewPair with the fewest repeats); King of the Hill pairs the
# leaders whatever they played before.
DEFAULT_MAX_REPEATS: Mapping[System, int | None] = {
    System.KING_OF_THE_HILL: None,
    System.SWISS: 0,
    System.CHEW: 0,
    # NASPA's COP weighs repeats (``rules.cop``) rather than forbidding them: its
    # last round is King of the Hill among the players who can still cash.
    System.COP: None,
}


def repeat_limit(options: PairingOptions, system: System) -> int | None:
    """Return the repeat limit ``system`` pairs under with ``options``."""
    if options.max_repeats is not None:
        return options.max_repeats
    return DEFAULT_MAX_REPEATS.get(system)


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


# --- Boards ---------------------------------------------------------------------------


def assign_boards(
    pairs: Sequence[tuple[str, str]], fixed: Mapping[str, int] | None = None
) -> tuple[Board, ...]:
    """Number the games: a pinned player's game on their board, the rest in order.

    ``pairs`` is in board order (best first); the games without a pinned player
    take the lowest free numbers in that order. When both players of a game are
    pinned to different boards, the lower board is used. Raises TournamentError
    (``board_conflict``) when two games would need the same board.
    """
    fixed = fixed or {}
    wanted: dict[int, int] = {}
    holder: dict[int, tuple[str, str]] = {}
    for index, pair in enumerate(pairs):
        boards = [fixed[p] for p in pair if p in fixed]
        if not boards:
            continue
        board = min(boards)
        if board in holder:
            raise TournamentError(
                "board_conflict",
                f"Board {board} is fixed for both {' v '.join(holder[board])} and"
                f" {' v '.join(pair)}; change one of the fixed boards.",
                "fixed_boards",
            )
        wanted[index] = board
        holder[board] = pair
    free = (number for number in count(1) if number not in holder)
    return tuple(
        Board(wanted[index] if index in wanted else next(free), first, second)
        for index, (first, second) in enumerate(pairs)
    )


# --- Repeats --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Repeat:
    """A proposed game between players who met before, and the rounds they met."""

    players: tuple[str, str]
    rounds: tuple[int, ...]

    @property
    def times(self) -> int:
        """How many times they met before."""
        return len(self.rounds)


def count_repeats(
    pairs: Iterable[tuple[str, str]], meetings: Mapping[frozenset[str], Sequence[int]]
) -> tuple[Repeat, ...]:
    """Return the repeats among ``pairs``: the games whose players met before.

    ``meetings`` maps a pair of players to the rounds they met in.
    """
    repeats = []
    for first, second in pairs:
        rounds = meetings.get(frozenset((first, second)), ())
        if rounds:
            repeats.append(Repeat((first, second), tuple(rounds)))
    return tuple(repeats)


def meetings_before(
    state: TournamentState, division: str, round_: int
) -> dict[frozenset[str], list[int]]:
    """Return who met whom in ``division`` before ``round_``, with the rounds.

    A forfeited pairing counts as a meeting: the players were paired, and pairing
    them again would look like a repeat.
    """
    met: dict[frozenset[str], list[int]] = {}
    for earlier in range(1, round_):
        round_state = state.round_state(division, earlier)
        if round_state is None:
            continue
        for game in round_state.pairing.games:
            met.setdefault(frozenset((game.first, game.second)), []).append(earlier)
    return met


def round_repeats(
    state: TournamentState,
    division: str,
    round_: int,
    pairs: Iterable[tuple[str, str] | Board],
) -> tuple[Repeat, ...]:
    """Return the repeats a proposed pairing of ``round_`` would make.

    For the warning shown before a hand pairing is stored: each game whose players
    already met in an earlier round, with those rounds.
    """
    games = [
        (pair.first, pair.second) if isinstance(pair, Board) else pair for pair in pairs
    ]
    return count_repeats(games, meetings_before(state, division, round_))


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
    return Pairing(assign_boards(games), tuple(b for b in byes if b is not None))


# --- The bye --------------------------------------------------------------------------


def choose_bye(ranked: Sequence[str], byes: Mapping[str, int]) -> list[str]:
    """Return the bye candidates in order: fewest byes, then lowest ranked.

    The fewest-byes rule: the bye goes to the lowest-ranked player among those who
    have had the fewest byes.
    """
    position = {player: index for index, player in enumerate(ranked)}
    return sorted(ranked, key=lambda p: (byes.get(p, 0), -position[p]))


def _check_field(ranked: Sequence[str]) -> None:
    if len(ranked) < 2:
        raise TournamentError(
            "too_few_players", "At least two players are needed to pair.", "players"
        )
    if len(set(ranked)) != len(ranked):
        raise TournamentError(
            "player_paired_twice", "A player is listed twice.", "players"
        )


# --- Pairing with a repeat limit ------------------------------------------------------


class _Planner:
    """Pairs a ranked field game by game, never needlessly over the repeat limit.

    Players are indices into ``ranked`` (best first). A pair is over the limit
    when its players met more than ``limit`` times (None: no limit). The planner
    keeps a maximum matching of the within-limit pairs among the players still
    unpaired: it tells how many over-limit games the rest of the round needs at
    least (the deficit), so each tentative game is accepted only while the round
    can still be completed with the fewest over-limit games possible. The choice
    is exact (Edmonds' blossom algorithm), not a greedy guess.
    """

    def __init__(
        self,
        ranked: Sequence[str],
        played: Iterable[tuple[str, str]],
        limit: int | None,
    ) -> None:
        self.ranked = list(ranked)
        self.index = {player: i for i, player in enumerate(self.ranked)}
        self.meetings: Counter[tuple[int, int]] = Counter()
        for first, second in played:
            if first in self.index and second in self.index and first != second:
                i, j = sorted((self.index[first], self.index[second]))
                self.meetings[(i, j)] += 1
        self.limit = limit
        n = len(self.ranked)
        self.matcher = (
            None
            if limit is None
            else Matcher(
                [
                    [j for j in range(n) if j != i and self.times(i, j) <= limit]
                    for i in range(n)
                ]
            )
        )
        self.unpaired = list(range(n))
        self.pairs: list[tuple[int, int]] = []
        self.bye: int | None = None
        self.budget = self._deficit(n)

    def times(self, i: int, j: int) -> int:
        return self.meetings.get((i, j) if i < j else (j, i), 0)

    def over(self, i: int, j: int) -> bool:
        return self.limit is not None and self.times(i, j) > self.limit

    def _deficit(self, remaining: int) -> int:
        return 0 if self.matcher is None else remaining // 2 - self.matcher.size

    def give_bye(self, candidates: Sequence[int]) -> None:
        """Give the bye to the first candidate among those leaving the fewest
        over-limit games for the rest."""
        remaining = len(self.unpaired) - 1
        if self.matcher is None:
            chosen, deficit = candidates[0], 0
        else:
            before = self.matcher.snapshot()
            best: tuple[int, int, tuple[list[int], list[bool], int]] | None = None
            for candidate in candidates:
                self.matcher.restore(before)
                self.matcher.remove([candidate])
                deficit = self._deficit(remaining)
                if best is None or deficit < best[0]:
                    best = (deficit, candidate, self.matcher.snapshot())
                if deficit == 0:
                    break
            assert best is not None
            deficit, chosen, after = best
            self.matcher.restore(after)
        self.unpaired.remove(chosen)
        self.bye = chosen
        self.budget = deficit

    def try_pair(self, a: int, b: int, *, force: bool = False) -> bool:
        """Pair a and b if the round can still be completed within the budget of
        over-limit games (``force``: pair them anyway, raising the budget)."""
        over = int(self.over(a, b))
        deficit = 0
        if self.matcher is not None:
            before = self.matcher.snapshot()
            self.matcher.remove([a, b])
            deficit = self._deficit(len(self.unpaired) - 2)
            if not force and deficit + over > self.budget:
                self.matcher.restore(before)
                return False
        elif not force and over > self.budget:
            return False
        self.budget = max(self.budget - over, deficit)
        self.unpaired.remove(a)
        self.unpaired.remove(b)
        self.pairs.append((a, b))
        return True

    def pair_first_fit(self, a: int, candidates: Iterable[int]) -> None:
        """Pair a with the first candidate that keeps the round completable; if a
        restricted list has none, with the best of everyone still unpaired."""
        listed = [b for b in candidates if b != a and b in self.unpaired]
        rest = sorted(
            (b for b in self.unpaired if b != a and b not in listed),
            key=lambda b: (self.over(a, b), abs(b - a), b),
        )
        for b in (*listed, *rest):
            if self.try_pair(a, b):
                return
        raise AssertionError("a completion always exists: repeats are allowed")

    def pair_group(
        self, group: Sequence[int], order: Callable[[int, list[int]], Sequence[int]]
    ) -> None:
        """Pair the group's players top down, each by ``order``'s preference among
        the group's other unpaired players (anyone else when none fits)."""
        while True:
            waiting = [i for i in group if i in self.unpaired]
            if not waiting:
                return
            a = waiting[0]
            self.pair_first_fit(a, order(a, waiting[1:]))

    def pairing(
        self,
        firsts: Mapping[str, int],
        seconds: Mapping[str, int],
        coin_flips: Sequence[bool],
        fixed_boards: Mapping[str, int] | None = None,
    ) -> Pairing:
        pairs = [(self.ranked[a], self.ranked[b]) for a, b in self.pairs]
        oriented, used = assign_firsts(
            pairs, firsts=firsts, seconds=seconds, coin_flips=coin_flips
        )
        bye = () if self.bye is None else (self.ranked[self.bye],)
        return Pairing(assign_boards(oriented, fixed_boards), bye, used)


def _rank_order(a: int, others: list[int]) -> list[int]:
    """King of the Hill's preference: the next player down first."""
    return sorted(others)


def _swiss_order(
    planner: _Planner, groups: Mapping[str, int]
) -> Callable[[int, list[int]], list[int]]:
    """Swiss preference: own score group, fewer meetings, then the opponent closest
    to half the score group down (tsh's ideal Swiss distance: 1v5, 2v6, 3v7, 4v8
    in a group of eight), as close as possible."""

    def order(a: int, others: list[int]) -> list[int]:
        group = groups.get(planner.ranked[a], 0)
        size = 1 + sum(1 for i in others if groups.get(planner.ranked[i], 0) == group)
        ideal = (size + size % 2) // 2

        def preference(position: int) -> tuple[int, int, int, int]:
            b = others[position]
            return (
                abs(groups.get(planner.ranked[b], 0) - group),
                planner.times(a, b),
                abs(position + 1 - ideal),
                position,
            )

        return [others[p] for p in sorted(range(len(others)), key=preference)]

    return order


# --- King of the Hill and Swiss -------------------------------------------------------


def pair_king_of_the_hill(
    ranked: Sequence[str],
    *,
    byes: Mapping[str, int] | None = None,
    firsts: Mapping[str, int] | None = None,
    seconds: Mapping[str, int] | None = None,
    coin_flips: Sequence[bool] = (),
    played: Iterable[tuple[str, str]] = (),
    max_repeats: int | None = None,
) -> Pairing:
    """Pair 1v2, 3v4, ... in ``ranked`` order (best first).

    King of the Hill deliberately ignores earlier meetings (it is used for the last
    round, where the leaders must meet whatever they played before), unless a
    ``max_repeats`` limit is given: then each player meets the next player down
    within the limit, as long as the rest can still be paired within it.

    With an odd number the bye goes by the fewest-byes rule, and the rest are paired
    in order. Raises TournamentError (``too_few_players``, ``not_enough_coin_flips``).
    """
    _check_field(ranked)
    planner = _Planner(ranked, played, max_repeats)
    _give_bye(planner, byes or {})
    planner.pair_group(list(planner.unpaired), _rank_order)
    return planner.pairing(firsts or {}, seconds or {}, coin_flips)


def pair_swiss(
    ranked: Sequence[str],
    *,
    score_groups: Mapping[str, int] | None = None,
    played: Iterable[tuple[str, str]] = (),
    byes: Mapping[str, int] | None = None,
    firsts: Mapping[str, int] | None = None,
    seconds: Mapping[str, int] | None = None,
    coin_flips: Sequence[bool] = (),
    max_repeats: int = 0,
) -> Pairing:
    """Pair ``ranked`` (best first) Swiss-style, never repeating needlessly.

    ``score_groups`` gives each player's score (e.g. twice the wins plus the draws;
    equal values form a score group; missing: one group); ``played`` lists earlier
    games (a pair once per meeting). A pair is a repeat beyond the limit when it
    met more than ``max_repeats`` times (0: any earlier meeting).

    Guarantees, in priority order:

    1. The fewest repeats beyond the limit possible: none at all whenever some
       pairing of the whole field (with any bye) has none. This is exact (maximum
       matching with Edmonds' blossom algorithm), not a greedy guess.
    2. The bye by the fewest-byes rule (lowest-ranked among the fewest byes) among
       the choices that keep (1).
    3. Swiss order: from the top, each player meets the opponent closest to the
       ideal Swiss distance (half their score group down, as in tsh: 1v5, 2v6,
       3v7, 4v8 in a group of eight), preferring their own score group, then fewer
       earlier meetings, while a completion keeping (1) still exists.

    Raises TournamentError (``too_few_players``, ``not_enough_coin_flips``).
    """
    _check_field(ranked)
    planner = _Planner(ranked, played, max_repeats)
    _give_bye(planner, byes or {})
    planner.pair_group(
        list(planner.unpaired), _swiss_order(planner, score_groups or {})
    )
    return planner.pairing(firsts or {}, seconds or {}, coin_flips)


def _give_bye(
    planner: _Planner, byes: Mapping[str, int], exclude: Iterable[int] = ()
) -> None:
    """With an odd number unpaired, give the bye by the fewest-byes rule (among
    the choices that keep the fewest over-limit games)."""
    if len(planner.unpaired) % 2 == 0:
        return
    skip = set(exclude)
    eligible = [planner.ranked[i] for i in planner.unpaired if i not in skip]
    order = choose_bye(eligible, byes) or [planner.ranked[planner.unpaired[-1]]]
    planner.give_bye([planner.index[p] for p in order])


# --- The last rounds: Gibsons, Chew pairings, COP -------------------------------------


@dataclass(frozen=True, slots=True)
class PairingInputs:
    """What the system pairings need to know before pairing a round."""

    ranked: tuple[str, ...]  # players to pair, best first
    score_groups: Mapping[str, int]  # twice the wins plus the draws
    played: tuple[tuple[str, str], ...]  # earlier meetings, one pair per game
    byes: Mapping[str, int]
    firsts: Mapping[str, int]
    seconds: Mapping[str, int]
    spreads: Mapping[str, int] = field(default_factory=dict)
    rounds_left: int = 1  # rounds still to play, the one being paired included
    rounds: int = 1  # the tournament's number of rounds
    previous: Mapping[str, str] = field(default_factory=dict)  # last round's opponent


def pair_chew(
    inputs: PairingInputs,
    options: PairingOptions | None = None,
    coin_flips: Sequence[bool] = (),
) -> Pairing:
    """Pair a round by Chew pairings (tsh's ChewPair), prize-aware.

    After the Gibsons (``_pair_gibsons``), from the top: the highest prize band
    still open is found, with its contenders (the players who can still reach
    it, as many as down to the lowest of them, made even, and no more than
    tsh's default flight cap for the top band: 2 in the last round, 4 and 8 with
    two and three left, 12 before). The flight's top four (the leaders) each meet
    the lowest-ranked leader who can still catch them (1v4, 2v3 when both can),
    the rest of the flight is paired Swiss, and the next band follows. Below the
    last band, or when everyone left contends, the rest is paired Swiss. The
    repeat limit holds throughout (``_Planner``). tsh splits off more than four
    leaders when four cannot be paired within the fewest repeats; here the planner
    moves a leader outside the group instead, keeping the fewest repeats.
    """
    return pair_ranked(System.CHEW, inputs, options or PairingOptions(), coin_flips)


def pair_cop(
    inputs: PairingInputs,
    options: PairingOptions | None = None,
    coin_flips: Sequence[bool] = (),
) -> Pairing:
    """Pair a round by Castellano O'Connor Pairings, as NASPA uses them.

    After the Gibsons (``_pair_gibsons``) and the bye, the rest is paired by a
    least-cost perfect matching of COP's weights (``rules.cop.cop_costs``).
    """
    return pair_ranked(System.COP, inputs, options or PairingOptions(), coin_flips)


def pair_ranked(
    system: System,
    inputs: PairingInputs,
    options: PairingOptions,
    coin_flips: Sequence[bool],
) -> Pairing:
    """Pair ``inputs.ranked`` by King of the Hill, Swiss, Chew or COP.

    Gibsons first (always for Chew and COP, else when ``options.gibson``), then
    the bye (fewest-byes rule), then the system; games are numbered with the
    options' fixed boards. Raises TournamentError as ``pair_swiss`` does.
    """
    _check_field(inputs.ranked)
    planner = _Planner(inputs.ranked, inputs.played, repeat_limit(options, system))
    if options.gibson or system in (System.CHEW, System.COP):
        _pair_gibsons(planner, inputs, options)
    _give_bye(planner, inputs.byes)
    if system is System.KING_OF_THE_HILL:
        planner.pair_group(list(planner.unpaired), _rank_order)
    elif system is System.SWISS:
        planner.pair_group(
            list(planner.unpaired), _swiss_order(planner, inputs.score_groups)
        )
    elif system is System.CHEW:
        _fill_chew(planner, inputs, options)
    else:
        _fill_cop(planner, inputs, options)
    return planner.pairing(inputs.firsts, inputs.seconds, coin_flips, options.boards())


def _standing(inputs: PairingInputs) -> list[Standing]:
    return [
        Standing(p, inputs.score_groups.get(p, 0), inputs.spreads.get(p, 0))
        for p in inputs.ranked
    ]


def _places(inputs: PairingInputs, options: PairingOptions) -> int:
    """The prize places; tsh's default prize bands pay a quarter of the field."""
    if options.prize_places is not None:
        return options.prize_places
    return max(1, len(inputs.ranked) // 4)


def _pair_gibsons(
    planner: _Planner, inputs: PairingInputs, options: PairingOptions
) -> None:
    """Pair the players whose place is decided (tsh's PairAllGibsons).

    An even number of Gibsons meet each other, nearest first with the fewest
    meetings; of an odd number the lowest has the bye when the field is odd, and
    otherwise meets the highest-ranked player who can no longer reach a prize
    place, among those who met them least (tsh: "the highest-ranked player in the
    lowest prize band"). Only when everyone else can still reach a prize place
    does the Gibson meet one of them: the lowest-ranked (tsh's fallback).
    """
    standing = _standing(inputs)
    places = _places(inputs, options)
    decided = gibsons(standing, inputs.rounds_left, options.gibson_spread, places)
    if not decided:
        return
    best = best_finishes(standing, inputs.rounds_left, options.gibson_spread)
    ids = [planner.index[p] for p in decided]
    if len(planner.unpaired) % 2 and len(ids) % 2:
        planner.give_bye([ids.pop()])
    else:
        _give_bye(planner, inputs.byes, exclude=ids)
    while len(ids) >= 2:
        a = ids.pop(0)
        ids.remove(
            _first_fit(
                planner,
                a,
                sorted(ids, key=lambda b: (planner.over(a, b), planner.times(a, b), b)),
            )
        )
    if ids:
        a = ids[0]

        def victim(b: int) -> tuple[bool, int, int]:
            return (planner.over(a, b), planner.times(a, b), b)

        others = sorted((b for b in planner.unpaired if b != a), key=victim)
        out = [b for b in others if best[planner.ranked[b]] > places]
        # Nobody out of the money: the lowest-ranked contender (tsh's fallback).
        _first_fit(planner, a, out or sorted(others, key=lambda b: (victim(b)[:2], -b)))


def _first_fit(planner: _Planner, a: int, order: Sequence[int]) -> int:
    """Pair a with the first of ``order`` keeping the round completable within the
    fewest over-limit games, else (the Gibson rule first) with the first of all."""
    for b in order:
        if planner.try_pair(a, b):
            return b
    planner.try_pair(a, order[0], force=True)
    return order[0]


def _flight_cap(rounds_left: int) -> int:
    """tsh's default flight cap: the most contenders paired as one flight."""
    if rounds_left <= 1:
        return 2
    return 12 if rounds_left >= 4 else (rounds_left - 1) * 4


def _fill_chew(
    planner: _Planner, inputs: PairingInputs, options: PairingOptions
) -> None:
    best = best_finishes(_standing(inputs), inputs.rounds_left, options.gibson_spread)
    bands = options.prize_bands or tuple(range(1, _places(inputs, options) + 1))
    swiss = _swiss_order(planner, inputs.score_groups)

    def leader_order(a: int, others: list[int]) -> list[int]:
        # tsh's PairLeaders: who can catch up first, fewest repeats, lowest-ranked.
        return sorted(
            others,
            key=lambda b: (
                best[planner.ranked[b]] > a + 1,
                planner.over(a, b),
                planner.times(a, b),
                -b,
            ),
        )

    while planner.unpaired:
        rest = list(planner.unpaired)
        band = next((end for end in bands if end >= rest[0] + 1), None)
        if band is None:
            planner.pair_group(rest, swiss)
            return
        reach = [k for k, i in enumerate(rest) if best[planner.ranked[i]] <= band]
        size = (reach[-1] + 1) if reach else 1
        size += size % 2
        if band == bands[0]:
            size = min(size, _flight_cap(inputs.rounds_left))
        size = max(2, min(size, len(rest)))
        if size == len(rest):
            planner.pair_group(rest, swiss)
            return
        flight = rest[:size]
        planner.pair_group(flight[:4], leader_order)
        planner.pair_group(flight, swiss)


def _fill_cop(
    planner: _Planner, inputs: PairingInputs, options: PairingOptions
) -> None:
    players = list(planner.unpaired)
    if not players:
        return
    costs = cop_costs(
        [planner.ranked[i] for i in players],
        best=best_finishes(
            _standing(inputs), inputs.rounds_left, options.gibson_spread
        ),
        place={p: i + 1 for i, p in enumerate(inputs.ranked)},
        meetings=lambda a, b: planner.times(planner.index[a], planner.index[b]),
        previous=inputs.previous,
        places=_places(inputs, options),
        rounds_left=inputs.rounds_left,
        rounds=inputs.rounds,
        field_size=len(inputs.ranked),
        limit=planner.limit,
    )
    mate = min_cost_perfect_matching(len(players), costs)
    for k, i in enumerate(players):
        if mate[k] > k:
            planner.try_pair(i, players[mate[k]], force=True)


# --- InitFontes -----------------------------------------------------------------------


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


# --- From the state -------------------------------------------------------------------


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
    played = [
        tuple(sorted(pair))
        for pair, rounds in meetings_before(state, division, round_).items()
        for _ in rounds
    ]
    byes: Counter[str] = Counter()
    firsts: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    previous: dict[str, str] = {}
    for earlier in range(1, round_):
        for player_id in ids:
            entry = state.cards[player_id].entries[earlier - 1]
            if entry is None:
                continue
            if entry.kind is EntryKind.BYE:
                byes[player_id] += 1
            elif entry.kind is EntryKind.GAME and entry.first is not None:
                (firsts if entry.first else seconds)[player_id] += 1
            if earlier == round_ - 1 and entry.opponent is not None:
                previous[player_id] = entry.opponent
    groups = {}
    spreads = {}
    for player_id in ranked:
        totals = state.cards[player_id].totals_after(based)
        groups[player_id] = half_points(totals.wins, totals.draws)
        spreads[player_id] = totals.spread
    return PairingInputs(
        ranked=ranked,
        score_groups=groups,
        played=tuple((a, b) for a, b in played),
        byes=dict(byes),
        firsts=dict(firsts),
        seconds=dict(seconds),
        spreads=spreads,
        rounds_left=state.settings.rounds - based,
        rounds=state.settings.rounds,
        previous=previous,
    )


def pair_round(
    state: TournamentState,
    division: str,
    round_: int,
    method: PairingMethod | System | str,
    coin_flips: Sequence[bool] = (),
    *,
    based_on_round: int | None = None,
    schedule_start: int = 1,
    options: PairingOptions | None = None,
) -> Pairing:
    """Pair ``round_`` of ``division`` by ``method`` under ``options``.

    Round robin: the players registered and not withdrawn when the schedule starts
    (round ``schedule_start``), in player-number order, follow the Berger table;
    InitFontes likewise, in pre-event order, for ``options.init_fontes_rounds``
    rounds from ``schedule_start``. In a later round of either schedule a player
    withdrawn under ``not_paired`` drops out and their opponent has the bye, and
    one withdrawn under ``forfeit`` stays paired and forfeits (tsh practice for
    keeping a schedule intact). The other systems pair the standings after
    ``based_on_round`` (``pairing_inputs``). Raises TournamentError as the pairing
    functions and ``pairing_inputs`` do, and (``invalid_setting``) for a method a
    director pairs by hand or a bad option.
    """
    system = _system(method)
    options = options or PairingOptions()
    options.check()
    fixed = options.boards()
    for player_id in fixed:
        state.player(player_id, "options.fixed_boards")
    if system is System.ROUND_ROBIN:
        players = list(state.division_players.get(division, ()))
        return _schedule_from_state(
            state, division, round_, schedule_start, players, pair_round_robin, fixed
        )
    if system is System.INIT_FONTES:
        order = list(_checked_ranking(state, division))
        rounds = options.init_fontes_rounds

        def schedule(players: Sequence[str], k: int) -> Pairing:
            return pair_init_fontes(players, rounds, k)

        return _schedule_from_state(
            state, division, round_, schedule_start, order, schedule, fixed
        )
    inputs = pairing_inputs(state, division, round_, based_on_round)
    return pair_ranked(system, inputs, options, tuple(coin_flips))


def pair_next_round(
    state: TournamentState,
    division: str,
    round_: int,
    method: PairingMethod | System | str,
    coin_flips: Sequence[bool] = (),
    *,
    based_on_round: int | None = None,
    schedule_start: int = 1,
    options: PairingOptions | None = None,
) -> RoundPaired:
    """Return the ``RoundPaired`` event pairing ``round_`` by ``method``.

    See ``pair_round``. The event records the method and the coin flips consumed.
    """
    system = _system(method)
    try:
        recorded = PairingMethod(system.value)
    except ValueError:
        raise TournamentError(
            "invalid_setting",
            f"{system.value} pairings cannot be recorded: the tournament's pairing"
            " methods do not list it.",
            "method",
        ) from None
    pairing = pair_round(
        state,
        division,
        round_,
        system,
        coin_flips,
        based_on_round=based_on_round,
        schedule_start=schedule_start,
        options=options,
    )
    return RoundPaired(
        division=division,
        round=round_,
        games=pairing.games,
        byes=pairing.byes,
        method=recorded,
        coin_flips=pairing.coin_flips,
    )


def _system(method: PairingMethod | System | str) -> System:
    value = method.value if isinstance(method, StrEnum) else method
    try:
        return System(value)
    except ValueError:
        raise TournamentError(
            "invalid_setting",
            f"{value} pairings are made by the director, not the system.",
            "method",
        ) from None


def _checked_ranking(state: TournamentState, division: str) -> tuple[str, ...]:
    if division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    return ranked_player_ids(state, division, 0)


def _schedule_from_state(
    state: TournamentState,
    division: str,
    round_: int,
    schedule_start: int,
    order: Sequence[str],
    schedule: Callable[[Sequence[str], int], Pairing],
    fixed: Mapping[str, int],
) -> Pairing:
    if division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    if type(round_) is not int or not 1 <= schedule_start <= round_:
        raise TournamentError(
            "invalid_round",
            "The schedule must start at or before the round being paired.",
            "round",
        )
    players = [
        player_id
        for player_id in order
        if state.players[player_id].withdrawn_in(schedule_start) is None
        and state.players[player_id].joined_after_round < schedule_start
    ]
    table = schedule(players, round_ - schedule_start + 1)
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
    return Pairing(assign_boards(games, fixed), tuple(byes))
