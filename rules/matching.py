"""Matchings of general graphs (Edmonds' blossom algorithm), for the pairings.

Two tools, both exact:

- ``Matcher``: a maximum-cardinality matching that survives deleting vertices.
  The system pairings use it as an oracle: "can the players still unpaired be
  paired without repeats (or with no more than k)?" after each tentative game.
- ``min_cost_perfect_matching``: a perfect matching of least total cost (Castellano
  O'Connor Pairings minimise a sum of weights over the whole round). It is the
  primal-dual weighted blossom algorithm (Edmonds 1965, with Galil's O(n^3)
  bookkeeping of least-slack edges), run for a maximum-weight matching of maximum
  cardinality on costs turned into weights. Dual variables are kept doubled, so
  integer costs keep every computation in integers.

Usage::

    matcher = Matcher([[1], [0, 2], [1]])
    matcher.size  # 1
    mate = min_cost_perfect_matching(4, {(0, 1): 5, (2, 3): 1, (0, 2): 1, (1, 3): 1})
    mate  # [2, 3, 0, 1]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence

__all__ = ["Matcher", "min_cost_perfect_matching"]


class Matcher:
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


# --- Minimum-cost perfect matching ----------------------------------------------------


def min_cost_perfect_matching(
    vertices: int, costs: Mapping[tuple[int, int], int]
) -> list[int]:
    """Return ``mate`` (``mate[v]`` is v's partner) of a least-cost perfect matching.

    ``costs`` gives the cost of each allowed pair ``(u, v)``; a pair not listed
    cannot be matched. Raises ValueError when the allowed pairs admit no perfect
    matching (an odd number of vertices, or too few pairs).
    """
    edges = [(u, v, cost) for (u, v), cost in costs.items() if u != v]
    if vertices % 2:
        raise ValueError("An odd number of vertices has no perfect matching.")
    if not vertices:
        return []
    # Maximum weight among maximum-cardinality matchings equals least cost among
    # perfect ones once each weight is a constant minus the cost.
    ceiling = max((cost for _, _, cost in edges), default=0) + 1
    mate = _WeightedBlossom(
        vertices, [(u, v, ceiling - cost) for u, v, cost in edges]
    ).solve()
    if any(partner < 0 for partner in mate):
        raise ValueError("The allowed pairs admit no perfect matching.")
    return mate


class _WeightedBlossom:
    """Maximum-weight matching of maximum cardinality (weights must be positive).

    Vertices are 0..n-1; blossoms are numbered n..2n-1. An edge k has endpoints
    2k and 2k+1 (``endpoint[p]`` is the vertex at endpoint p, and ``p ^ 1`` the
    other end); ``mate[v]`` is the remote endpoint of v's matched edge, -1 if free.
    Labels: 0 free, 1 S (outer), 2 T (inner); 5 marks a blossom on a traced path.
    """

    def __init__(self, n: int, edges: Sequence[tuple[int, int, int]]) -> None:
        self.n = n
        self.edges = edges
        self.endpoint = [edges[p // 2][p % 2] for p in range(2 * len(edges))]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (u, v, _) in enumerate(edges):
            self.neighbend[u].append(2 * k + 1)
            self.neighbend[v].append(2 * k)
        top = max((weight for _, _, weight in edges), default=0)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.endps: list[list[int]] = [[] for _ in range(2 * n)]
        self.bestedge = [-1] * (2 * n)
        self.blossombest: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(n, 2 * n))
        self.dual = [top] * n + [0] * n
        self.allowed = [False] * len(edges)
        self.queue: list[int] = []

    def slack(self, k: int) -> int:
        u, v, weight = self.edges[k]
        return self.dual[u] + self.dual[v] - 2 * weight

    def leaves(self, b: int) -> Iterator[int]:
        if b < self.n:
            yield b
            return
        for child in self.childs[b]:
            yield from self.leaves(child)

    def assign_label(self, w: int, t: int, p: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            # A T-blossom's base is matched: its mate becomes an S-vertex.
            base = self.base[b]
            self.assign_label(self.endpoint[self.mate[base]], 1, self.mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from v and w; return the base of a new blossom, or -1 for an
        augmenting path (the traces reach two different free vertices)."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        v, w, _ = self.edges[k]
        bb, bv, bw = self.inblossom[base], self.inblossom[v], self.inblossom[w]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = -1
        self.parent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = self.inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = self.inblossom[w]
        self.childs[b] = path
        self.endps[b] = endps
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dual[b] = 0
        for leaf in self.leaves(b):
            if self.label[self.inblossom[leaf]] == 2:
                self.queue.append(leaf)
            self.inblossom[leaf] = b
        self._merge_best_edges(b, path)

    def _merge_best_edges(self, b: int, path: list[int]) -> None:
        best_to = [-1] * (2 * self.n)
        for child in path:
            known = self.blossombest[child]
            lists = (
                [[p // 2 for p in self.neighbend[leaf]] for leaf in self.leaves(child)]
                if known is None
                else [known]
            )
            for edge_list in lists:
                for k in edge_list:
                    i, j, _ = self.edges[k]
                    if self.inblossom[j] == b:
                        i, j = j, i
                    bj = self.inblossom[j]
                    if (
                        bj != b
                        and self.label[bj] == 1
                        and (
                            best_to[bj] == -1 or self.slack(k) < self.slack(best_to[bj])
                        )
                    ):
                        best_to[bj] = k
            self.blossombest[child] = None
            self.bestedge[child] = -1
        self.blossombest[b] = [k for k in best_to if k != -1]
        self.bestedge[b] = -1
        for k in self.blossombest[b] or ():
            if self.bestedge[b] == -1 or self.slack(k) < self.slack(self.bestedge[b]):
                self.bestedge[b] = k

    def expand_blossom(self, b: int, endstage: bool) -> None:
        for s in self.childs[b]:
            self.parent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dual[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for leaf in self.leaves(s):
                    self.inblossom[leaf] = s
        if not endstage and self.label[b] == 2:
            self._relabel_expanded(b)
        self.label[b] = self.labelend[b] = -1
        self.childs[b] = []
        self.endps[b] = []
        self.base[b] = -1
        self.blossombest[b] = None
        self.bestedge[b] = -1
        self.unused.append(b)

    def _relabel_expanded(self, b: int) -> None:
        """Relabel the sub-blossoms of a T-blossom expanded during a stage."""
        childs, endps = self.childs[b], self.endps[b]
        entry = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
        j = childs.index(entry)
        if j & 1:
            j -= len(childs)
            step, trick = 1, 0
        else:
            step, trick = -1, 1
        p = self.labelend[b]
        while j != 0:
            self.label[self.endpoint[p ^ 1]] = 0
            self.label[self.endpoint[endps[j - trick] ^ trick ^ 1]] = 0
            self.assign_label(self.endpoint[p ^ 1], 2, p)
            self.allowed[endps[j - trick] // 2] = True
            j += step
            p = endps[j - trick] ^ trick
            self.allowed[p // 2] = True
            j += step
        bv = childs[j]
        self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
        self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
        self.bestedge[bv] = -1
        j += step
        while childs[j] != entry:
            bv = childs[j]
            if self.label[bv] == 1:
                j += step
                continue
            reached = next((leaf for leaf in self.leaves(bv) if self.label[leaf]), -1)
            if reached != -1:
                self.label[reached] = 0
                self.label[self.endpoint[self.mate[self.base[bv]]]] = 0
                self.assign_label(reached, 2, self.labelend[reached])
            j += step

    def augment_blossom(self, b: int, v: int) -> None:
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs, endps = self.childs[b], self.endps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            step, trick = 1, 0
        else:
            step, trick = -1, 1
        while j != 0:
            j += step
            t = childs[j]
            p = endps[j - trick] ^ trick
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p])
            j += step
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.childs[b] = childs[i:] + childs[:i]
        self.endps[b] = endps[i:] + endps[:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment_matching(self, k: int) -> None:
        v, w, _ = self.edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.labelend[bs] == -1:
                    break
                t = self.endpoint[self.labelend[bs]]
                bt = self.inblossom[t]
                s = self.endpoint[self.labelend[bt]]
                j = self.endpoint[self.labelend[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.labelend[bt]
                p = self.labelend[bt] ^ 1

    def solve(self) -> list[int]:
        n = self.n
        for _ in range(n):
            self.label = [0] * (2 * n)
            self.bestedge = [-1] * (2 * n)
            self.blossombest[n:] = [None] * n
            self.allowed = [False] * len(self.edges)
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.inblossom[v]] == 0:
                    self.assign_label(v, 1, -1)
            if not self._stage():
                break
            for b in range(n, 2 * n):
                if (
                    self.parent[b] == -1
                    and self.base[b] >= 0
                    and self.label[b] == 1
                    and self.dual[b] == 0
                ):
                    self.expand_blossom(b, True)
        return [self.endpoint[p] if p >= 0 else -1 for p in self.mate]

    def _stage(self) -> bool:
        """Grow the alternating forest until an augmentation; False at the optimum."""
        while True:
            if self._scan():
                return True
            kind, delta, target = self._least_delta()
            self._update_duals(delta)
            if kind == 1:
                return False
            if kind == 2:
                self.allowed[target] = True
                i, j, _ = self.edges[target]
                if self.label[self.inblossom[i]] == 0:
                    i, j = j, i
                self.queue.append(i)
            elif kind == 3:
                self.allowed[target] = True
                self.queue.append(self.edges[target][0])
            else:
                self.expand_blossom(target, False)

    def _scan(self) -> bool:
        """Scan the queued S-vertices' edges; True once the matching was augmented."""
        while self.queue:
            v = self.queue.pop()
            for p in self.neighbend[v]:
                k = p // 2
                w = self.endpoint[p]
                if self.inblossom[v] == self.inblossom[w]:
                    continue
                kslack = 0
                if not self.allowed[k]:
                    kslack = self.slack(k)
                    if kslack <= 0:
                        self.allowed[k] = True
                bw = self.inblossom[w]
                if self.allowed[k]:
                    if self.label[bw] == 0:
                        self.assign_label(w, 2, p ^ 1)
                    elif self.label[bw] == 1:
                        base = self.scan_blossom(v, w)
                        if base >= 0:
                            self.add_blossom(base, k)
                        else:
                            self.augment_matching(k)
                            return True
                    elif self.label[w] == 0:
                        self.label[w] = 2
                        self.labelend[w] = p ^ 1
                elif self.label[bw] == 1:
                    b = self.inblossom[v]
                    if self.bestedge[b] == -1 or kslack < self.slack(self.bestedge[b]):
                        self.bestedge[b] = k
                elif self.label[w] == 0 and (
                    self.bestedge[w] == -1 or kslack < self.slack(self.bestedge[w])
                ):
                    self.bestedge[w] = k
        return False

    def _least_delta(self) -> tuple[int, int, int]:
        """Return (kind, delta, edge or blossom) of the smallest dual change."""
        n = self.n
        kind, delta, target = -1, 0, -1
        for v in range(n):
            if self.label[self.inblossom[v]] == 0 and self.bestedge[v] != -1:
                d = self.slack(self.bestedge[v])
                if kind == -1 or d < delta:
                    kind, delta, target = 2, d, self.bestedge[v]
        for b in range(2 * n):
            if self.parent[b] == -1 and self.label[b] == 1 and self.bestedge[b] != -1:
                # Between two S-blossoms the slack is even with integer weights.
                d = self.slack(self.bestedge[b]) // 2
                if kind == -1 or d < delta:
                    kind, delta, target = 3, d, self.bestedge[b]
        for b in range(n, 2 * n):
            if (
                self.base[b] >= 0
                and self.parent[b] == -1
                and self.label[b] == 2
                and (kind == -1 or self.dual[b] < delta)
            ):
                kind, delta, target = 4, self.dual[b], b
        if kind == -1:
            # Maximum cardinality reached: a last update keeps the duals feasible.
            kind, delta = 1, max(0, min(self.dual[:n]))
        return kind, delta, target

    def _update_duals(self, delta: int) -> None:
        n = self.n
        for v in range(n):
            label = self.label[self.inblossom[v]]
            if label == 1:
                self.dual[v] -= delta
            elif label == 2:
                self.dual[v] += delta
        for b in range(n, 2 * n):
            if self.base[b] >= 0 and self.parent[b] == -1:
                if self.label[b] == 1:
                    self.dual[b] += delta
                elif self.label[b] == 2:
                    self.dual[b] -= delta
