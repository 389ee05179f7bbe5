"""The public pages: tournaments, divisions, pairings, standings, scorecards, games."""

from __future__ import annotations

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services as game_services
from tests.web_tests.conftest import ids_by_number, pair_by_hand
from tournaments.models import PlayerRound
from tournaments.results import selectors
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db


def record(tournament_id, director, round_, a, score_a, b, score_b):
    ids = ids_by_number(tournament_id)
    results_services.result_record(
        tournament_id=tournament_id,
        round_=round_,
        player_a=ids[a],
        player_b=ids[b],
        score_a=score_a,
        score_b=score_b,
        user=director,
    )


def test_the_home_page_lists_published_tournaments(client, club):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Riverside Club Championship" in response.content
    assert client.get(reverse("tournament-list")).status_code == 200


def test_a_private_tournament_is_hidden_from_everyone_but_its_directors(
    client, director, club
):
    setup_services.tournament_publish(
        tournament_id=club, published=False, user=director
    )
    assert b"Riverside" not in client.get("/").content
    detail = reverse("tournament-detail", args=[club])
    assert client.get(detail).status_code == 404
    client.force_login(director)
    assert b"Riverside" in client.get("/").content
    assert b"not public" in client.get("/").content
    assert client.get(detail).status_code == 200


def test_a_tournament_page_shows_its_divisions_and_rounds(client, paired):
    response = client.get(reverse("tournament-detail", args=[paired]))
    body = response.content.decode()
    assert "Division A" in body
    assert "11 players" in body
    assert "1 round paired" in body
    assert reverse("round-pairings", args=[paired, "A", 1]) in body
    assert "a tie goes to the higher score before the end-of-game adjustments" in body


def test_the_director_sees_a_link_to_the_console(director_client, paired):
    body = director_client.get(reverse("tournament-detail", args=[paired])).content
    assert reverse("manage", args=[paired]).encode() in body


def test_a_division_page_lists_its_players_by_number(client, paired):
    body = client.get(reverse("division-detail", args=[paired, "A"])).content.decode()
    assert body.index("Ann Able") < body.index("Kit Kay")
    assert ">1800<" in body


def test_an_unknown_division_is_a_404(client, paired):
    assert client.get(reverse("division-detail", args=[paired, "Z"])).status_code == 404
    assert client.get(reverse("standings", args=[paired, "Z"])).status_code == 404


def test_pairings_show_boards_who_goes_first_and_the_bye(client, paired, director):
    record(paired, director, 1, 1, 412, 2, 388)
    response = client.get(reverse("round-pairings", args=[paired, "A", 1]))
    body = response.content.decode()
    rows = body.split("<tr>")
    board_1 = next(row for row in rows if "Ann Able" in row and "Ben Baker" in row)
    # Ann is listed first, marked as going first, with her winning score.
    assert board_1.index("Ann Able") < board_1.index("Ben Baker")
    assert 'title="goes first"' in board_1
    assert "412" in board_1
    assert "388" in board_1
    bye_row = next(row for row in rows if "Kit Kay" in row)
    assert "bye" in bye_row
    assert "The first player named goes first; the board is the table number" in body


def test_an_unpaired_round_has_no_pairings_page(client, paired):
    assert client.get(reverse("round-pairings", args=[paired, "A", 3])).status_code == (
        404
    )


def test_standings_after_any_round(client, paired, director):
    for a, sa, b, sb in [(1, 412, 2, 388), (3, 300, 4, 400), (5, 400, 6, 350)]:
        record(paired, director, 1, a, sa, b, sb)
    for a, sa, b, sb in [(7, 420, 8, 380), (9, 390, 10, 380)]:
        record(paired, director, 1, a, sa, b, sb)
    pair_by_hand(paired, director, 2, [(1, 2, 1), (2, 4, 3)], byes=())
    record(paired, director, 2, 2, 500, 1, 300)
    record(paired, director, 2, 3, 500, 4, 300)
    after_1 = client.get(reverse("standings-after", args=[paired, "A", 1]))
    after_2 = client.get(reverse("standings", args=[paired, "A"]))
    assert "Standings after round 1" in after_1.content.decode()
    assert "Standings after round 2" in after_2.content.decode()

    def leader(response):
        body = response.content.decode()
        table = body[body.index("<tbody>") :]
        return table[: table.index("</tr>")]

    assert "Di Dane" in leader(after_1)  # +100
    assert "Ed Eames" in leader(after_2)  # Di Dane lost round 2 by 200
    assert client.get(
        reverse("standings-after", args=[paired, "A", 5])
    ).status_code == (404)


def test_a_scorecard_shows_each_round_and_the_running_record(client, paired, director):
    record(paired, director, 1, 1, 412, 2, 388)
    ann = ids_by_number(paired)[1]
    body = client.get(reverse("scorecard", args=[paired, ann])).content.decode()
    assert "Ann Able" in body
    assert "Ben Baker" in body
    assert "412–388" in body
    assert "win" in body
    assert "+24" in body
    assert "1-0" in body
    # The heading: where the player stands after the latest round, and on which
    # board each round was played.
    standing = PlayerRound.objects.get(tournament_id=paired, player_id=ann, round=1)
    assert standing.rank == 2  # behind the bye, whose spread is larger
    assert "<strong>1-0</strong>, spread +24, rank 2 after round 1" in body
    assert "board 1" in body


def test_a_scorecard_of_an_unknown_player_is_a_404(client, paired):
    assert client.get(reverse("scorecard", args=[paired, "nobody"])).status_code == 404


def test_the_division_games_list_links_every_recorded_game(client, game_id, paired):
    body = client.get(reverse("division-games", args=[paired, "A"])).content.decode()
    assert reverse("game-detail", args=[game_id]) in body
    assert "451–345" in body
    # The pairing links the game too.
    pairings = client.get(reverse("round-pairings", args=[paired, "A", 1]))
    assert reverse("game-detail", args=[game_id]).encode() in pairings.content


def test_pages_are_built_for_phones(client, paired):
    body = client.get(reverse("round-pairings", args=[paired, "A", 1])).content
    assert b'name="viewport" content="width=device-width, initial-scale=1"' in body


def test_no_page_loads_anything_from_the_internet(client, game_id, paired):
    for url in (
        "/",
        reverse("round-pairings", args=[paired, "A", 1]),
        reverse("game-detail", args=[game_id]),
    ):
        body = client.get(url).content.decode()
        assert "https://" not in body
        assert "http://" not in body
        assert "/static/django_htmx/htmx-2.min.js" in body


def test_cached_standings_and_scorecard_pages_change_with_a_result(
    client, paired, director
):
    """The pages' tables are cached per division version: a result shows at once."""
    ids = ids_by_number(paired)
    standings = reverse("standings", args=[paired, "A"])
    scorecard = reverse("scorecard", args=[paired, ids[1]])
    assert "1-0" not in client.get(scorecard).content.decode()
    with CaptureQueriesContext(connection) as first:
        before = table_of(client.get(standings))
    with CaptureQueriesContext(connection) as again:
        assert table_of(client.get(standings)) == before
    assert len(again) < len(first)  # the table came from the cache
    record(paired, director, 1, 1, 412, 2, 388)
    after = table_of(client.get(standings))
    assert after != before
    ann = next(row for row in after.split("</tr>") if "Ann Able" in row)
    assert "1-0" in ann
    assert "+24" in ann
    assert "1-0" in client.get(scorecard).content.decode()


def table_of(response) -> str:
    body = response.content.decode()
    return body[body.index("<tbody>") : body.index("</tbody>")]


def test_a_signed_out_reader_is_served_the_whole_page_from_the_cache(
    client, game_id, paired
):
    pages = [
        reverse("standings", args=[paired, "A"]),
        reverse("scorecard", args=[paired, ids_by_number(paired)[1]]),
        reverse("game-detail", args=[game_id]),
    ]
    for url in pages:
        first = client.get(url)
        with CaptureQueriesContext(connection) as again:
            second = client.get(url)
        assert second.content == first.content, url
        # One statement: who may read, and at which version; nothing is rendered again.
        assert len(again) == 1, (url, [q["sql"] for q in again])
        assert second["ETag"] == first["ETag"]
        assert "Cookie" in second["Vary"]
        # A signed-out page carries no CSRF token and sets no cookie.
        assert b"X-CSRFToken" not in first.content
        assert not first.cookies
        # A client holding the page is told it has not changed.
        unchanged = client.get(url, headers={"if-none-match": first["ETag"]})
        assert unchanged.status_code == 304


def test_a_signed_in_reader_never_gets_the_signed_out_page(client, director, paired):
    url = reverse("standings", args=[paired, "A"])
    signed_out = client.get(url).content.decode()
    assert "Sign in" in signed_out
    client.force_login(director)
    signed_in = client.get(url)
    body = signed_in.content.decode()
    assert "mara" in body
    assert "Sign out" in body
    assert "X-CSRFToken" in body
    assert "ETag" not in signed_in


def test_a_reader_with_a_message_waiting_gets_it(client, paired):
    url = reverse("standings", args=[paired, "A"])
    client.get(url)  # cached for signed-out readers
    storage = CookieStorage(RequestFactory().get("/"))
    encoded = storage._encode([Message(constants.INFO, "You have signed out.")])
    client.cookies[CookieStorage.cookie_name] = encoded
    assert "You have signed out." in client.get(url).content.decode()


def test_a_page_cached_before_the_tournament_was_unpublished_is_not_served(
    client, director, paired, game_id
):
    standings = reverse("standings", args=[paired, "A"])
    game = reverse("game-detail", args=[game_id])
    assert client.get(standings).status_code == 200
    assert client.get(game).status_code == 200
    setup_services.tournament_publish(
        tournament_id=paired, published=False, user=director
    )
    assert client.get(standings).status_code == 404
    assert client.get(game).status_code == 404


def test_the_tables_link_scorecards_rounds_and_games(client, director, paired, game_id):
    record(paired, director, 1, 1, 412, 2, 388)
    ids = ids_by_number(paired)
    standings = client.get(reverse("standings", args=[paired, "A"])).content.decode()
    for number in (1, 2, 11):
        assert f'href="{reverse("scorecard", args=[paired, ids[number]])}"' in standings
    assert f'href="{reverse("standings-after", args=[paired, "A", 1])}"' not in (
        standings  # the round shown is marked, not linked
    )
    card = client.get(reverse("scorecard", args=[paired, ids[1]])).content.decode()
    assert f'href="{reverse("scorecard", args=[paired, ids[2]])}"' in card
    assert f'href="{reverse("game-detail", args=[game_id])}"' in card


def test_a_scorecard_links_the_latest_game_of_exactly_its_boards(
    director, paired, shared_gcg_dir
):
    ids = ids_by_number(paired)
    # Round 2: board 1 is 1 v 3, board 3 is 2 v 4 (a game names a real board).
    pair_by_hand(paired, director, 2, [(1, 1, 3), (3, 2, 4)])

    def imported(name, round_, board, first, second):
        result, _ = game_services.game_import_gcg(
            text=(shared_gcg_dir / name).read_bytes(),
            user=director,
            context={
                "tournament_id": paired,
                "division": "A",
                "round": round_,
                "board": board,
                "player_ids": [ids[first], ids[second]],
            },
        )
        return result.stream.id

    imported("doug_v_emely.gcg", 1, 1, 1, 2)
    replayed = imported("noah_vs_peter.gcg", 1, 1, 1, 2)  # the same board again
    other = imported("success_six_pass.gcg", 2, 3, 2, 4)
    imported("doug_v_emely.gcg", 1, 3, 5, 6)  # round 1 and board 3 asked, not (1, 3)
    imported("doug_v_emely.gcg", 2, 1, 1, 3)
    found = selectors.board_game_ids(paired, "A", [(1, 1), (2, 3), (3, None)])
    assert found == {(1, 1): replayed, (2, 3): other}
    assert selectors.board_game_ids(paired, "B", [(1, 1)]) == {}
    assert selectors.board_game_ids(paired, "A", []) == {}
