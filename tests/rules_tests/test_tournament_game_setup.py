"""A tournament's and each division's tile set and lexicon (issue 20)."""

from __future__ import annotations

import pytest

from rules.tournament import (
    DivisionAdded,
    DivisionRenamed,
    GameSetup,
    GameSetupSet,
    LexiconChosen,
    SettingsChanged,
    TournamentCreated,
    TournamentError,
    TournamentState,
    apply,
    replay,
)


def created(**settings: object) -> TournamentState:
    return replay(
        [
            TournamentCreated(
                name="Warsaw Open",
                start_date="2026-05-01",
                end_date="2026-05-01",
                rounds=5,
                **settings,  # type: ignore[arg-type]
            ),
            DivisionAdded("A"),
            DivisionAdded("B"),
        ]
    )


def refusal(state: TournamentState, event: object) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        apply(state, event)  # type: ignore[arg-type]
    return caught.value


def test_a_tournament_plays_english_with_no_lexicon_by_default() -> None:
    state = created()
    assert (state.settings.tile_set, state.settings.lexicon) == ("english", "")
    assert (state.tile_set_of("A"), state.lexicon_of("A")) == ("english", "")


def test_a_tournament_is_created_with_a_polish_tile_set_and_lexicon() -> None:
    state = created(tile_set="polish", lexicon="OSPS49")
    assert state.tile_set_of("B") == "polish"
    assert state.lexicon_of("B") == "OSPS49"


@pytest.mark.parametrize(
    ("settings", "code", "field"),
    [
        ({"tile_set": "klingon"}, "unknown_tile_set", "tile_set"),
        ({"tile_set": "Polish"}, "unknown_tile_set", "tile_set"),
        ({"lexicon": "/etc/words"}, "invalid_lexicon", "lexicon"),
        ({"lexicon": "CSW 24"}, "invalid_lexicon", "lexicon"),
        ({"lexicon": "X" * 25}, "invalid_lexicon", "lexicon"),
        ({"tile_set": "polish", "lexicon": "CSW24"}, "tile_set_clash", "lexicon"),
        ({"lexicon": "OSPS49"}, "tile_set_clash", "lexicon"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(
    settings: dict[str, object], code: str, field: str
) -> None:
    with pytest.raises(TournamentError) as caught:
        created(**settings)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_the_clash_says_which_set_the_lexicon_needs() -> None:
    with pytest.raises(TournamentError) as caught:
        created(tile_set="french", lexicon="OSPS49")
    assert "OSPS49 is played with the polish tile set" in caught.value.message


def test_a_lexicon_of_no_known_language_goes_with_any_tile_set() -> None:
    assert created(tile_set="german", lexicon="WEB2").lexicon_of("A") == "WEB2"


def test_the_settings_change_the_tile_set_and_lexicon_together() -> None:
    state = apply(created(), SettingsChanged(tile_set="spanish", lexicon="FILE2017"))
    assert (state.tile_set_of("A"), state.lexicon_of("A")) == ("spanish", "FILE2017")
    cleared = apply(state, SettingsChanged(lexicon=""))
    assert cleared.lexicon_of("A") == ""


def test_a_settings_change_that_breaks_the_pair_is_refused() -> None:
    state = created(tile_set="polish", lexicon="OSPS49")
    error = refusal(state, SettingsChanged(tile_set="french"))
    assert (error.code, error.field) == ("tile_set_clash", "tile_set")


def test_an_unchanged_tile_set_or_lexicon_is_nothing_to_change() -> None:
    state = created(tile_set="polish", lexicon="OSPS49")
    error = refusal(state, SettingsChanged(tile_set="polish"))
    assert (error.code, error.field) == ("nothing_to_change", "tile_set")
    error = refusal(state, SettingsChanged(tile_set="polish", lexicon="OSPS49"))
    assert error.code == "nothing_to_change"
    # With another setting that changes, the unchanged one is merely restated.
    assert (
        apply(state, SettingsChanged(rounds=6, lexicon="OSPS49")).settings.rounds == 6
    )


def test_a_division_plays_with_its_own_tile_set_and_lexicon() -> None:
    state = apply(
        created(lexicon="CSW24"),
        GameSetupSet("B", GameSetup(tile_set="polish", lexicon="OSPS49")),
    )
    assert (state.tile_set_of("A"), state.lexicon_of("A")) == ("english", "CSW24")
    assert (state.tile_set_of("B"), state.lexicon_of("B")) == ("polish", "OSPS49")
    # Back to the tournament's.
    back = apply(state, GameSetupSet("B", GameSetup()))
    assert (back.tile_set_of("B"), back.lexicon_of("B")) == ("english", "CSW24")


def test_a_division_that_keeps_the_tournaments_lexicon_follows_it() -> None:
    state = apply(created(), GameSetupSet("B", GameSetup(tile_set="french")))
    state = apply(state, SettingsChanged(lexicon="WEB2"))
    assert (state.tile_set_of("B"), state.lexicon_of("B")) == ("french", "WEB2")


def test_a_division_whose_setup_clashes_is_refused_naming_the_field() -> None:
    state = created(lexicon="CSW24")
    error = refusal(state, GameSetupSet("B", GameSetup(tile_set="polish")))
    assert (error.code, error.field) == ("tile_set_clash", "tile_set")
    assert error.message.startswith("Division B: ")
    error = refusal(state, GameSetupSet("B", GameSetup(lexicon="OSPS49")))
    assert (error.code, error.field) == ("tile_set_clash", "lexicon")


def test_a_tournament_change_that_clashes_with_a_division_is_refused() -> None:
    state = apply(
        created(tile_set="polish"), GameSetupSet("B", GameSetup(lexicon="OSPS49"))
    )
    error = refusal(state, SettingsChanged(tile_set="english"))
    assert (error.code, error.field) == ("tile_set_clash", "tile_set")
    assert error.message.startswith("Division B: The lexicon OSPS49")


def test_bad_division_setups_are_refused() -> None:
    state = created()
    assert refusal(state, GameSetupSet("C", GameSetup(tile_set="polish"))).code == (
        "unknown_division"
    )
    error = refusal(state, GameSetupSet("A", GameSetup(tile_set="latin")))
    assert (error.code, error.field) == ("unknown_tile_set", "tile_set")
    error = refusal(state, GameSetupSet("A", GameSetup(lexicon="two words")))
    assert (error.code, error.field) == ("invalid_lexicon", "lexicon")
    assert refusal(state, GameSetupSet("A", GameSetup())).code == "nothing_to_change"


def test_a_renamed_division_keeps_its_setup() -> None:
    state = apply(created(), GameSetupSet("B", GameSetup(tile_set="dutch")))
    state = apply(state, DivisionRenamed("B", "Open"))
    assert state.tile_set_of("Open") == "dutch"


def test_an_old_log_with_lexicon_chosen_still_replays() -> None:
    """Before the lexicon was a setting, the console recorded it as its own event
    (any text, unchecked; "" for none)."""
    state = apply(created(), LexiconChosen(lexicon=" WEB2 "))
    assert state.lexicon_of("A") == "WEB2"
    assert apply(state, LexiconChosen(lexicon="")).lexicon_of("A") == ""


def test_a_games_ruleset_is_the_tournaments_preset_with_its_rules():
    """Every division's games play under the tournament's preset, challenge rule and
    tie rule (rules.tournament.game_ruleset: the one derivation)."""
    from rules.ruleset import ChallengeRule, ruleset
    from rules.tournament import game_ruleset

    state = created(preset="naspa", challenge_rule="single", ties_are_draws=False)
    expected = ruleset("naspa", challenge=ChallengeRule.SINGLE, ties_are_draws=False)
    assert game_ruleset(state) == expected
    assert game_ruleset(state, "B") == expected
    with pytest.raises(TournamentError) as caught:
        game_ruleset(state, "Z")
    assert caught.value.code == "unknown_division"
