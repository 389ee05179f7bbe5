"""What an amendment's preview costs (rules.impact), against replaying the log.

    python bench/amend_impact_bench.py [--scale small|club|national] [--repeats N]

Pure rules, no database: a Swiss division of the scale's players is paired round
by round as the pairing service pairs it (``pair_next_round``, fixed coin flips)
with seeded results; round 2's first board is then amended. Measured interleaved,
best of ``--repeats`` each: the preview (``amendment_impact``: the log folded once,
each later round paired twice: once to find its basis, once on the corrected
state) and its anchor, the plain fold of the same log (``replay``), which any
reader of a cold log pays. Prints seconds, the ratio and the load average.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules import tournament as rt  # noqa: E402
from rules.impact import amendment_impact  # noqa: E402
from rules.pairing import pair_next_round  # noqa: E402

# (players, rounds): a club night, a weekend, a national's largest division.
SCALES = {"small": (10, 5), "club": (32, 7), "national": (125, 31)}


def build_log(players: int, rounds: int, seed: int = 7) -> list[object]:
    rng = random.Random(seed)
    log: list[object] = [
        rt.TournamentCreated("Bench", "2026-01-01", "2026-01-03", rounds),
        rt.DivisionAdded("A"),
        *[
            rt.PlayerRegistered(f"p{i}", "A", f"Player {i}", 2000 - 7 * i)
            for i in range(1, players + 1)
        ],
    ]
    state = rt.replay(log)  # type: ignore[arg-type]
    for round_ in range(1, rounds + 1):
        paired = pair_next_round(
            state, "A", round_, rt.PairingMethod.SWISS, (True, False) * players
        )
        log.append(paired)
        state = rt.apply(state, paired)
        for game in paired.games:
            a, b = rng.randint(300, 500), rng.randint(300, 500)
            b += a == b
            result = rt.ResultRecorded(round_, game.first, game.second, a, b)
            log.append(result)
            state = rt.apply(state, result)
    return log


def amendment_of(log: list[object]) -> rt.ResultAmended:
    """Round 2's first board with its scores swapped."""
    result = next(e for e in log if isinstance(e, rt.ResultRecorded) and e.round == 2)
    return rt.ResultAmended(
        2, result.player_a, result.player_b, result.score_b, result.score_a
    )


def measure(scale: str, repeats: int) -> dict[str, float]:
    players, rounds = SCALES[scale]
    log = build_log(players, rounds)
    amendment = amendment_of(log)
    # (wall, CPU) seconds of each: the CPU time is steadier on a shared machine.
    preview: list[tuple[float, float]] = []
    fold: list[tuple[float, float]] = []
    for _ in range(repeats):
        started = time.perf_counter(), time.process_time()
        impact = amendment_impact(log, amendment)  # type: ignore[arg-type]
        preview.append(_since(started))
        started = time.perf_counter(), time.process_time()
        rt.replay(log)  # type: ignore[arg-type]
        fold.append(_since(started))
    best_preview = min(c for _, c in preview)
    best_fold = min(c for _, c in fold)
    return {
        "scale": scale,
        "events": len(log),
        "later_rounds_paired_again": len(impact.pairings),
        "preview_wall_s": min(w for w, _ in preview),
        "preview_cpu_s": best_preview,
        "replay_wall_s": min(w for w, _ in fold),
        "replay_cpu_s": best_fold,
        "cpu_ratio": best_preview / best_fold,
        "loadavg": float(Path("/proc/loadavg").read_text().split()[0]),
    }


def _since(started: tuple[float, float]) -> tuple[float, float]:
    return time.perf_counter() - started[0], time.process_time() - started[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=sorted(SCALES), default="small")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    figures = measure(args.scale, args.repeats)
    for name, value in figures.items():
        print(
            f"{name:>28}: {value:.4g}"
            if isinstance(value, float)
            else f"{name:>28}: {value}"
        )


if __name__ == "__main__":
    main()
