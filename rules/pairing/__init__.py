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

The package holds one module per part: ``systems``, ``firsts`` (who goes first),
``boards``, ``repeats``, ``round_robin``, ``schedule`` (the round schedule and the
rounds it pairs by itself), ``bye``, ``planner`` (pairing under a repeat limit),
``swiss`` (and King of the Hill), ``last_rounds`` (Gibsons, Chew, COP),
``init_fontes`` and ``from_state`` (the inputs from a ``TournamentState`` and the
event). This module re-exports their public names.

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

from rules.division_rules import PairingOptions
from rules.pairing.boards import assign_boards
from rules.pairing.bye import choose_bye
from rules.pairing.firsts import assign_firsts, coin_flips_needed
from rules.pairing.from_state import pair_next_round, pair_round, pairing_inputs
from rules.pairing.init_fontes import init_fontes_groups, pair_init_fontes
from rules.pairing.inputs import PairingInputs
from rules.pairing.last_rounds import pair_chew, pair_cop, pair_ranked
from rules.pairing.reasons import differences
from rules.pairing.repeats import Repeat, count_repeats, meetings_before, round_repeats
from rules.pairing.round_robin import pair_round_robin
from rules.pairing.schedule import (
    next_due_round,
    pair_scheduled,
    projected_opponents,
    results_complete,
    would_pair,
)
from rules.pairing.swiss import pair_king_of_the_hill, pair_swiss
from rules.pairing.systems import DEFAULT_MAX_REPEATS, Pairing, System, repeat_limit

__all__ = [
    "DEFAULT_MAX_REPEATS",
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
    "differences",
    "init_fontes_groups",
    "meetings_before",
    "next_due_round",
    "pair_chew",
    "pair_cop",
    "pair_init_fontes",
    "pair_king_of_the_hill",
    "pair_next_round",
    "pair_ranked",
    "pair_round",
    "pair_round_robin",
    "pair_scheduled",
    "pair_swiss",
    "pairing_inputs",
    "projected_opponents",
    "repeat_limit",
    "results_complete",
    "round_repeats",
    "would_pair",
]
