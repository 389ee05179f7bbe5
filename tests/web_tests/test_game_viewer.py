"""The annotated game viewer: the board at any turn, racks, the score sheet, marks,
the result, GCG download, and players' notes."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services as game_services
from games.eventstore.cache import state_cache
from games.presenters import placed_squares
from rules import gcg
from rules import state as rs
from rules.board import square_name
from rules.state import TurnKind
from tests.web_tests.conftest import ids_by_number
from tournaments.players import accounts
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db


def square(body: str, name: str) -> str:
    """The aria-label of a board square."""
    match = re.search(rf'aria-label="([^"]*)" data-square="{name}"', body)
    assert match, f"no square {name}"
    return match.group(1)


def turn(client, game_id, index) -> str:
    response = client.get(reverse("game-turn", args=[game_id, index]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_viewer_opens_at_the_end_with_the_result(client, game_id):
    body = client.get(reverse("game-detail", args=[game_id])).content.decode()
    assert "Turn 28 of 28" in body
    assert "doug wins" in body
    assert "the game ended by going out" in body
    # The end-of-game adjustment: emely went out and adds twice doug's rack (EGOP).
    assert ">+14<" in body
    assert ">345<" in body
    assert ">451<" in body


def test_the_board_after_a_turn_is_an_accessible_grid(client, game_id):
    body = turn(client, game_id, 1)
    assert 'role="grid"' in body
    assert 'aria-label="Board after turn 1, doug: 8D WINDY"' in body
    assert square(body, "H8") == "H8 double word, centre, Y, last play"
    assert square(body, "D8") == "D8 double letter, W, last play"
    assert square(body, "A1") == "A1 triple word, empty"
    assert square(body, "F6") == "F6 triple letter, empty"
    assert square(body, "B2") == "B2 double word, empty"
    assert body.count("gridcell") == 225


def test_the_last_play_is_what_that_turn_added(client, game_id):
    body = turn(client, game_id, 2)
    # GALE at 7C: four new tiles; WINDY is no longer the last play.
    assert body.count(", last play") == 4
    assert square(body, "D8") == "D8 double letter, W"
    assert square(body, "C7") == "C7 double letter, G, last play"


def test_a_blank_is_shown_as_a_blank(client, game_id):
    body = turn(client, game_id, 18)
    assert square(body, "K9") == "K9, blank as G, last play"
    assert "RELIgION" in body


def test_the_start_shows_an_empty_board_and_the_racks_from_the_sheet(client, game_id):
    body = turn(client, game_id, 0)
    assert "Start of the game" in body
    assert ", last play" not in body
    assert square(body, "H8") == "H8 double word, centre, empty"
    assert 'aria-label="D I N N V W Y"' in body
    assert 'aria-label="A D E E G I L"' in body


def test_racks_and_unseen_tiles_after_a_turn(client, game_id):
    body = turn(client, game_id, 1)
    # Emely is to move: her rack, and what she cannot see (100 − 5 − 7 = 88 tiles).
    assert "emely · to move" in body
    assert 'aria-label="A D E E G I L"' in body
    assert "Unseen by emely</strong> (88)" in body


def test_a_challenged_phony_is_marked_and_withdrawn(client, game_id):
    body = turn(client, game_id, 6)
    assert "challenged off" in body
    assert square(body, "B4") == "B4, T, last play"
    body = turn(client, game_id, 7)
    assert "Phony withdrawn: TILAX" in body
    assert square(body, "B4") == "B4, empty"


def test_a_valid_challenge_is_marked(client, director, shared_gcg_dir):
    result, _ = game_services.game_import_gcg(
        text=(shared_gcg_dir / "josh2.gcg").read_bytes(),
        user=director,
        visibility="public",
    )
    body = turn(client, result.stream.id, 1)
    assert "challenged, valid" in body
    body = turn(client, result.stream.id, 2)
    assert "challenge bonus" in body
    # A note from the GCG file itself.
    body = turn(client, result.stream.id, 4)
    assert "K5 MID(LI)ST" in body


def test_every_turn_is_a_link_and_the_url_carries_the_turn(client, game_id):
    body = turn(client, game_id, 12)
    for index in range(29):
        assert reverse("game-turn", args=[game_id, index]) in body
    assert f'href="{reverse("game-turn", args=[game_id, 11])}" data-nav="prev"' in body
    assert f'href="{reverse("game-turn", args=[game_id, 13])}" data-nav="next"' in body
    query = client.get(reverse("game-detail", args=[game_id]) + "?turn=12")
    assert "Turn 12 of 28" in query.content.decode()


def test_a_turn_out_of_range_shows_the_nearest(client, game_id):
    assert "Turn 28 of 28" in turn(client, game_id, 99)
    bad = client.get(reverse("game-detail", args=[game_id]) + "?turn=abc")
    assert "Turn 28 of 28" in bad.content.decode()


def test_a_score_discrepancy_from_an_import_is_flagged_with_its_line(
    client, director, shared_gcg_dir
):
    text = (shared_gcg_dir / "doug_v_emely.gcg").read_text()
    text = text.replace("WINDY +32 32", "WINDY +30 30")
    result, _ = game_services.game_import_gcg(
        text=text, user=director, visibility="public"
    )
    body = turn(client, result.stream.id, 1)
    assert "Recorded +30, the rules give +32 (GCG line 3)" in body
    assert "1 recorded score differs from the rules' and is kept as recorded" in body
    assert "score differs" in body


def test_a_win_on_the_pre_adjustment_tie_break_is_explained(client, director):
    user = director
    start = game_services.game_start(
        user=user,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility="public",
    )
    game_id = start.stream.id
    game_services.game_place(game_id=game_id, position="8D", word="WINDY", user=user)
    game_services.game_end(
        game_id=game_id,
        reason="adjudicated",
        final_scores=[300, 300],
        user=user,
    )
    body = client.get(reverse("game-detail", args=[game_id])).content.decode()
    assert "Ann wins" in body
    assert "the higher score before the end-of-game adjustments decided" in body


def test_the_gcg_download(client, game_id):
    response = client.get(reverse("game-gcg", args=[game_id]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{game_id}.gcg"'
    assert ">doug: DINNVWY 8D WINDY +32 32" in response.content.decode()
    page = client.get(reverse("game-detail", args=[game_id])).content.decode()
    assert reverse("game-gcg", args=[game_id]) in page


def test_an_unknown_game_is_a_404(client):
    missing = "00000000-0000-0000-0000-000000000000"
    assert client.get(reverse("game-detail", args=[missing])).status_code == 404
    assert client.get(reverse("game-gcg", args=[missing])).status_code == 404


def test_a_private_tournaments_games_are_hidden(client, director, paired, game_id):
    setup_services.tournament_publish(
        tournament_id=paired, published=False, user=director
    )
    assert client.get(reverse("game-detail", args=[game_id])).status_code == 404
    client.force_login(director)
    assert client.get(reverse("game-detail", args=[game_id])).status_code == 200


def test_a_private_tournaments_games_are_hidden_from_the_api_too(
    client, director, other_user, paired, game_id
):
    setup_services.tournament_publish(
        tournament_id=paired, published=False, user=director
    )
    url = f"/api/games/{game_id}/"
    assert client.get(url).status_code == 404
    client.force_login(other_user)  # signed in, but not a director of it
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


# --- notes ------------------------------------------------------------------------


@pytest.fixture
def linked(paired, director, player_user):
    """Player user "dev" is Ann Able (#1), who played the game as doug."""
    accounts.player_link_account(
        tournament_id=paired,
        player_id=ids_by_number(paired)[1],
        account=player_user,
        user=director,
    )
    return player_user


def test_a_player_adds_a_note_that_the_opponent_sees(client, game_id, linked):
    client.force_login(linked)
    body = turn(client, game_id, 12)
    assert 'name="text"' in body
    response = client.post(
        reverse("game-note", args=[game_id]),
        {"turn": 12, "text": "should have played QAID at 3C"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("game-turn", args=[game_id, 12]) + "#notes"
    client.logout()
    shared = turn(client, game_id, 12)
    assert "should have played QAID at 3C" in shared
    assert "✎ 1" in shared  # marked on the score sheet


def test_only_the_games_players_and_directors_may_annotate(client, game_id, other_user):
    url = reverse("game-note", args=[game_id])
    anonymous = client.post(url, {"turn": 1, "text": "hi"})
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    assert "Sign in</a> to annotate" in turn(client, game_id, 1)
    client.force_login(other_user)
    assert 'name="text"' not in turn(client, game_id, 1)
    assert client.post(url, {"turn": 1, "text": "hi"}).status_code == 403


def test_an_empty_note_is_refused_next_to_the_field(client, game_id, linked):
    client.force_login(linked)
    response = client.post(
        reverse("game-note", args=[game_id]), {"turn": 3, "text": "   "}
    )
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_a_note_on_a_turn_that_does_not_exist_is_refused(client, game_id, linked):
    client.force_login(linked)
    response = client.post(
        reverse("game-note", args=[game_id]), {"turn": 40, "text": "hello"}
    )
    assert response.status_code == 400
    assert "This game has 28 turns, not 40." in response.content.decode()


def test_a_tournament_game_without_round_or_division_still_renders(
    client, director, paired
):
    start = game_services.game_start(
        user=director, players=["Ann", "Ben"], context={"tournament_id": paired}
    )
    game_id = start.stream.id
    assert client.get(reverse("game-detail", args=[game_id])).status_code == 200
    client.force_login(director)
    assert client.get(reverse("game-record", args=[game_id])).status_code == 200


def test_the_last_play_read_from_each_line_matches_the_boards_it_changed(
    shared_gcg_dir,
):
    # The viewer reads a line's new squares from its position and word instead of
    # replaying to the position before it: over every line of the six real games,
    # they must be exactly the squares whose tile that line's event changed.
    checked = 0
    for path in sorted(shared_gcg_dir.glob("*.gcg")):
        record = gcg.read(path.read_bytes())
        for line in record.state.turns:
            before = rs.replay(record.events[: line.version - 1]).board.squares
            after = rs.replay(record.events[: line.version]).board.squares
            changed = {
                square_name(index)
                for index, (old, new) in enumerate(zip(before, after, strict=True))
                if new != "." and new != old
            }
            expected = changed if line.kind is TurnKind.PLACEMENT else set()
            assert placed_squares(line) == expected, (path.name, line.version)
            checked += bool(expected)
    assert checked > 100


def test_reading_a_game_does_not_keep_its_state_in_the_cache(client, game_id):
    # Readers open thousands of games once each: their replays must not crowd out
    # (or make the collector walk) the states kept for appenders.
    state_cache.clear()
    assert client.get(reverse("game-detail", args=[game_id])).status_code == 200
    assert state_cache.entry(game_services.game_stream(game_id)) is None
    game_services.game_load(game_id)  # an appender's load keeps it
    assert state_cache.entry(game_services.game_stream(game_id)) is not None


def test_a_spanish_game_shows_its_tiles_and_values(client, director):
    """Issue 20: the board, racks, score sheet and unseen tiles of a game in another
    tile set show its tiles as printed ([CH] is one tile worth 5)."""
    text = (
        "#character-encoding UTF-8\n#player1 ana Ana\n#player2 bea Bea\n"
        "#lexicon FILE2017\n>ana: [CH]ICOAER 8E [CH]ICO +20 20\n"
    )
    result, _ = game_services.game_import_gcg(
        text=text.encode(), user=director, visibility="public"
    )
    body = turn(client, result.stream.id, 1)
    assert square(body, "E8") == "E8, [CH], last play"
    assert "[CH]<sub>5</sub>" in body
    assert '<span class="word">[CH]ICO</span>' in body
    # Unseen: each kind once, one tile with its value (one [LL], worth 8).
    assert '<span class="pool">[LL]<sub>8</sub></span>' in body
    assert '<span class="pool">[RR]<sub>8</sub></span>' in body
