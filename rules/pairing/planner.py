"""Pairing with a repeat limit: the planner that pairs a ranked field game by game,
never needlessly over the limit (a maximum matching of the within-limit pairs
tells how many over-limit games the rest of the round needs).

Usage::

    planner = _Planner(ranked, met, limit)
    partner = _first_fit(planner, a, order)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from rules.matching import Matcher
from rules.pairing.boards import assign_boards
from rules.pairing.firsts import assign_firsts
from rules.pairing.systems import Pairing


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
        previous: Mapping[str, str] | None = None,
    ) -> None:
        self.ranked = list(ranked)
        self.index = {player: i for i, player in enumerate(self.ranked)}
        self.meetings: Counter[tuple[int, int]] = Counter()
        for first, second in played:
            if first in self.index and second in self.index and first != second:
                i, j = sorted((self.index[first], self.index[second]))
                self.meetings[(i, j)] += 1
        self.limit = limit
        # Last round's games: a rematch the very next round is the repeat players
        # notice most (NASPA's COP weighs it as "back-to-back", ``rules.cop``), so
        # among otherwise equal choices the planner never prefers one.
        self.last_games = {
            (min(i, j), max(i, j))
            for a, b in (previous or {}).items()
            if a in self.index and b in self.index
            for i, j in [(self.index[a], self.index[b])]
        }
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
        # The second matching leaves out last round's games too: with it the
        # planner avoids back-to-back rematches as exactly as it avoids games
        # beyond the limit, second to them (a game beyond the limit is never
        # taken to spare a back-to-back one).
        self.clean = (
            None
            if limit is None
            else Matcher(
                [
                    [
                        j
                        for j in range(n)
                        if j != i
                        and self.times(i, j) <= limit
                        and not self.back_to_back(i, j)
                    ]
                    for i in range(n)
                ]
            )
        )
        self.unpaired = list(range(n))
        self.pairs: list[tuple[int, int]] = []
        self.bye: int | None = None
        # Why each game is what it is (``rules.pairing.reasons``): the opponents
        # each chooser was refused before the one they got, in the order tried,
        # and the bye candidates passed over.
        self.refused: dict[int, list[int]] = {}
        self.passed: dict[tuple[int, int], tuple[int, ...]] = {}
        self.bye_passed: tuple[int, ...] = ()
        self.considered: dict[int, tuple[int, ...]] = {}
        self.budget = self._deficit(n)
        self.clean_budget = self._clean_deficit(n)

    def times(self, i: int, j: int) -> int:
        return self.meetings.get((i, j) if i < j else (j, i), 0)

    def over(self, i: int, j: int) -> bool:
        return self.limit is not None and self.times(i, j) > self.limit

    def back_to_back(self, i: int, j: int) -> bool:
        """True when i and j met in the round before this one."""
        return (min(i, j), max(i, j)) in self.last_games

    def rematch_cost(self, i: int, j: int) -> tuple[bool, bool, int]:
        """How much a game of i and j repeats, least first: beyond the limit,
        back to back, then how often they met."""
        return (self.over(i, j), self.back_to_back(i, j), self.times(i, j))

    def _deficit(self, remaining: int) -> int:
        return 0 if self.matcher is None else remaining // 2 - self.matcher.size

    def _clean_deficit(self, remaining: int) -> int:
        return 0 if self.clean is None else remaining // 2 - self.clean.size

    def avoided(self, i: int, j: int) -> bool:
        """True for a game the planner avoids: beyond the limit or back to back."""
        return self.over(i, j) or (self.limit is not None and self.back_to_back(i, j))

    def give_bye(self, candidates: Sequence[int]) -> None:
        """Give the bye to the first candidate among those leaving the fewest
        over-limit games for the rest (then the fewest back-to-back ones)."""
        remaining = len(self.unpaired) - 1
        if self.matcher is None or self.clean is None:
            chosen, deficit, clean_deficit = candidates[0], 0, 0
        else:
            before = self.matcher.snapshot(), self.clean.snapshot()
            best: tuple[tuple[int, int], int, tuple[object, object]] | None = None
            for candidate in candidates:
                self.matcher.restore(before[0])
                self.clean.restore(before[1])
                self.matcher.remove([candidate])
                self.clean.remove([candidate])
                deficits = (
                    self._deficit(remaining),
                    self._clean_deficit(remaining),
                )
                if best is None or deficits < best[0]:
                    best = (
                        deficits,
                        candidate,
                        (self.matcher.snapshot(), self.clean.snapshot()),
                    )
                if deficits == (0, 0):
                    break
            assert best is not None
            (deficit, clean_deficit), chosen, after = best
            self.matcher.restore(after[0])  # type: ignore[arg-type]
            self.clean.restore(after[1])  # type: ignore[arg-type]
        self.unpaired.remove(chosen)
        self.bye = chosen
        self.bye_passed = tuple(candidates[: list(candidates).index(chosen)])
        self.budget = deficit
        self.clean_budget = clean_deficit

    def try_pair(
        self, a: int, b: int, *, force: bool = False, relax: bool = False
    ) -> bool:
        """Pair a and b if the round can still be completed within the budget of
        over-limit games and then of back-to-back ones (``relax``: within the
        first only; ``force``: pair them anyway, raising the budgets)."""
        over = int(self.over(a, b))
        avoided = int(self.avoided(a, b))
        remaining = len(self.unpaired) - 2
        deficit = clean_deficit = 0
        if self.matcher is not None and self.clean is not None:
            before = self.matcher.snapshot(), self.clean.snapshot()
            self.matcher.remove([a, b])
            self.clean.remove([a, b])
            deficit = self._deficit(remaining)
            clean_deficit = self._clean_deficit(remaining)
            if not force and (
                deficit + over > self.budget
                or (not relax and clean_deficit + avoided > self.clean_budget)
            ):
                self.matcher.restore(before[0])
                self.clean.restore(before[1])
                self.refuse(a, b)
                return False
        elif not force and over > self.budget:
            self.refuse(a, b)
            return False
        self.budget = max(self.budget - over, deficit)
        self.clean_budget = max(self.clean_budget - avoided, clean_deficit)
        self.unpaired.remove(a)
        self.unpaired.remove(b)
        self.pairs.append((a, b))
        self._note_passed(a, b)
        return True

    def refuse(self, a: int, b: int) -> None:
        """Note that a was not given b (kept for the pairing's reasons)."""
        self.refused.setdefault(a, []).append(b)

    def _note_passed(self, a: int, b: int) -> None:
        # Only the opponents tried before b was first tried were preferred to b:
        # a relaxed second pass tries the whole list again.
        tried = self.refused.pop(a, [])
        self.refused.pop(b, None)
        if b in tried:
            tried = tried[: tried.index(b)]
        self.passed[(a, b)] = tuple(dict.fromkeys(tried))

    def pair_first_fit(
        self, a: int, candidates: Iterable[int], *, listed_first: bool = False
    ) -> None:
        """Pair a with the first candidate that keeps the round completable; if a
        restricted list has none, with the best of everyone still unpaired.

        Back-to-back games are avoided over the whole list before one is taken,
        unless ``listed_first``: then a listed candidate is taken (back to back
        if need be) before anyone unlisted (the leaders' games of Chew pairings,
        where who can catch whom comes first, as COP weighs a back-to-back game
        less than a leader's game against a non-contender)."""
        listed = [b for b in candidates if b != a and b in self.unpaired]
        self.considered[a] = tuple(b for b in self.unpaired if b != a)
        rest = sorted(
            (b for b in self.unpaired if b != a and b not in listed),
            key=lambda b: (self.rematch_cost(a, b), abs(b - a), b),
        )
        groups = [listed, rest] if listed_first else [[*listed, *rest]]
        for group in groups:
            for relax in (False, True):
                for b in group:
                    if self.try_pair(a, b, relax=relax):
                        return
        raise AssertionError("a completion always exists: repeats are allowed")

    def pair_group(
        self,
        group: Sequence[int],
        order: Callable[[int, list[int]], Sequence[int]],
        *,
        listed_first: bool = False,
    ) -> None:
        """Pair the group's players top down, each by ``order``'s preference among
        the group's other unpaired players (anyone else when none fits)."""
        while True:
            waiting = [i for i in group if i in self.unpaired]
            if not waiting:
                return
            a = waiting[0]
            self.pair_first_fit(a, order(a, waiting[1:]), listed_first=listed_first)

    def pairing(
        self,
        firsts: Mapping[str, int],
        seconds: Mapping[str, int],
        coin_flips: Sequence[bool],
        fixed_boards: Mapping[str, int] | None = None,
        gibsons: Sequence[str] = (),
    ) -> Pairing:
        pairs = [(self.ranked[a], self.ranked[b]) for a, b in self.pairs]
        oriented, used = assign_firsts(
            pairs, firsts=firsts, seconds=seconds, coin_flips=coin_flips
        )
        bye = () if self.bye is None else (self.ranked[self.bye],)
        return Pairing(assign_boards(oriented, fixed_boards), bye, used, tuple(gibsons))


def _rank_order(a: int, others: list[int]) -> list[int]:
    """King of the Hill's preference: the next player down first."""
    return sorted(others)


def _swiss_order(
    planner: _Planner, groups: Mapping[str, int]
) -> Callable[[int, list[int]], list[int]]:
    """Swiss preference: not last round's opponent, own score group, fewer
    meetings, then the opponent closest
    to half the score group down (tsh's ideal Swiss distance: 1v5, 2v6, 3v7, 4v8
    in a group of eight), as close as possible."""

    def order(a: int, others: list[int]) -> list[int]:
        group = groups.get(planner.ranked[a], 0)
        size = 1 + sum(1 for i in others if groups.get(planner.ranked[i], 0) == group)
        ideal = (size + size % 2) // 2

        def preference(position: int) -> tuple[bool, int, int, int, int]:
            b = others[position]
            return (
                planner.back_to_back(a, b),
                abs(groups.get(planner.ranked[b], 0) - group),
                planner.times(a, b),
                abs(position + 1 - ideal),
                position,
            )

        return [others[p] for p in sorted(range(len(others)), key=preference)]

    return order
