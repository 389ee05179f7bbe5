"""Services of a division's own rules: how its rounds are paired, its prizes, and
the tile set and lexicon its games are played with.

Each is an event of the tournament's log (``PairingRulesSet``, ``PrizeTableSet``),
validated by ``rules/`` like every other director action: a bad option or prize
is refused (400 naming the field) and nothing is stored. The prize winners are
never stored: ``selectors.prize_board`` computes them from the table and the
results, so a corrected result moves a prize the way it moves a rank.

Usage::

    pairing_rules_set(tournament_id=tid, division="A",
                      options=PairingOptions(gibson=True, prize_places=3), user=mara)
    prize_table_set(tournament_id=tid, division="A", table=table, user=mara)
    game_setup_set(tournament_id=tid, division="B",
                   setup=GameSetup(tile_set="polish", lexicon="OSPS49"), user=mara)
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any

from games.eventstore.store import AppendResult
from rules import tournament as rt
from rules.division_rules import (
    FixedBoard,
    PairingOptions,
    Prize,
    PrizeKind,
    PrizeTable,
    RatingClass,
    TieBreak,
    TieRule,
)
from rules.errors import RulesError
from tournaments.services import append_as_director, tournament_state


def pairing_rules_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    options: PairingOptions,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Set the division's pairing rules (replacing the earlier ones); they govern
    the system pairings made from now on.

    A refusal names the option as the API and the forms name it (``gibson_spread``,
    not the event's ``options.gibson_spread``).
    """
    try:
        return append_as_director(
            tournament_id,
            [rt.PairingRulesSet(division=division, options=options)],
            user=user,
            expected_version=expected_version,
        )
    except RulesError as error:
        field = getattr(error, "field", None)
        if field:
            error.field = field.removeprefix("options.")  # type: ignore[attr-defined]
        raise


def game_setup_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    setup: rt.GameSetup,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Set the tile set and lexicon the division's games are played with (None
    fields: the tournament's); games already started keep theirs."""
    return append_as_director(
        tournament_id,
        [rt.GameSetupSet(division=division, setup=setup)],
        user=user,
        expected_version=expected_version,
    )


def division_change(
    *,
    tournament_id: uuid.UUID,
    division: str,
    user: Any,
    new_name: str | None = None,
    setup: Mapping[str, str | None] | None = None,
    expected_version: int | None = None,
) -> AppendResult:
    """Rename the division and/or change the fields of its own tile set and
    lexicon that ``setup`` gives (None: the tournament's), in one append."""
    events: list[object] = []
    if new_name is not None:
        events.append(rt.DivisionRenamed(name=division, new_name=new_name))
    if setup:
        _, state = tournament_state(tournament_id)
        assert state.rules is not None
        own = replace(state.rules.setup_of(division), **setup)
        events.append(
            rt.GameSetupSet(
                division=division if new_name is None else new_name, setup=own
            )
        )
    return append_as_director(
        tournament_id, events, user=user, expected_version=expected_version
    )


def division_document(state: rt.TournamentState, division: str) -> dict[str, Any]:
    """The division as the API shows it: what its games are played with."""
    own = state.setup_of(division)
    played = state.game_setup(division)
    return {
        "name": division,
        "tile_set": played.tile_set,
        "lexicon": played.lexicon,
        "own_tile_set": own.tile_set,
        "own_lexicon": own.lexicon,
    }


def prize_table_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    table: PrizeTable,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Set the division's rating classes and prize table (replacing the earlier
    one)."""
    return append_as_director(
        tournament_id,
        [rt.PrizeTableSet(division=division, table=table)],
        user=user,
        expected_version=expected_version,
    )


# --- Between the API's documents and the rules' values ------------------------------


def options_from(data: Mapping[str, Any]) -> PairingOptions:
    """The pairing options of a validated ``PairingRulesFields`` document."""
    return PairingOptions(
        max_repeats=data["max_repeats"],
        gibson=data["gibson"],
        gibson_spread=data["gibson_spread"],
        prize_places=data["prize_places"],
        prize_bands=tuple(data["prize_bands"]),
        fixed_boards=tuple(
            FixedBoard(pin["player_id"], pin["board"]) for pin in data["fixed_boards"]
        ),
        init_fontes_rounds=data["init_fontes_rounds"],
    )


def options_document(options: PairingOptions) -> dict[str, Any]:
    """The document ``options_from`` reads."""
    return {
        "max_repeats": options.max_repeats,
        "gibson": options.gibson,
        "gibson_spread": options.gibson_spread,
        "prize_places": options.prize_places,
        "prize_bands": list(options.prize_bands),
        "fixed_boards": [
            {"player_id": pin.player_id, "board": pin.board}
            for pin in options.fixed_boards
        ],
        "init_fontes_rounds": options.init_fontes_rounds,
    }


def table_from(data: Mapping[str, Any]) -> PrizeTable:
    """The prize table of a validated ``PrizeTableFields`` document (amounts in
    currency units become whole cents)."""
    return PrizeTable(
        classes=tuple(
            RatingClass(c["name"], c["lowest"], c["highest"]) for c in data["classes"]
        ),
        prizes=tuple(_prize_from(p) for p in data["prizes"]),
    )


def _prize_from(data: Mapping[str, Any]) -> Prize:
    return Prize(
        kind=PrizeKind(data["kind"]),
        amount=int(Decimal(data["amount"]) * 100),
        place=data["place"],
        rating_class=data["rating_class"],
        ties=TieRule(data["ties"]),
        tie_break=TieBreak(data["tie_break"]),
        exclusive=data["exclusive"],
        label=data["label"],
        first_round=data["first_round"],
        last_round=data["last_round"],
    )
