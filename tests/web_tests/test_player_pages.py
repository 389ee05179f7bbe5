"""The player's side, end to end in headless Chromium: my games and the search,
notes that say who and when (edited, deleted, shared), private uploads and secret
links, spoiler-free stepping, the best plays of a turn, and the small things
(unrated players, player numbers, time zones, the 403 page)."""

from __future__ import annotations

import re

import pytest

from games import analysis
from games import services as game_services
from tests.web_tests.conftest import ids_by_number, sign_in
from tournaments.models import Player
from tournaments.players import accounts
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def devs_game(club, director, player_user, shared_gcg_dir):
    """Dev claims member 12345; the director registers Dev Patel with it and
    confirms the claim (issue 30: a claim links nothing until a director confirms
    it), and a game of Dev's against Ann Able is recorded."""
    accounts.member_id_claim(user=player_user, member_id="12345")
    players_services.players_register(
        tournament_id=club,
        division="A",
        entries=[("Dev Patel", 1712, "12345")],
        user=director,
    )
    dev = Player.objects.get(tournament_id=club, name="Dev Patel")
    assert dev.user is None
    accounts.account_link_confirm(
        tournament_id=club, player_id=dev.player_id, user=director
    )
    # The projection writes the players' rows anew: read Dev's again.
    dev = Player.objects.get(tournament_id=club, name="Dev Patel")
    assert dev.user == player_user
    result, _ = game_services.game_import_gcg(
        text=(shared_gcg_dir / "doug_v_emely.gcg").read_bytes(),
        user=director,
        context={
            "tournament_id": club,
            "division": "A",
            "player_ids": [dev.player_id, ids_by_number(club)[1]],
        },
    )
    return result.stream.id


def test_a_player_finds_their_tournaments_and_games(
    live_server, page, devs_game, club, artifacts
):
    sign_in(page, live_server, "dev")
    page.click("text=My games")
    page.locator("h1", has_text="My games").wait_for()
    tournaments = page.locator("#tournaments-heading + ul")
    assert "Riverside Club Championship" in tournaments.inner_text()
    assert "division A as Dev Patel" in re.sub(r"\s+", " ", tournaments.inner_text())
    assert page.locator(f'a[href="/games/{devs_game}/"]').count() == 1
    page.screenshot(path=str(artifacts / "my-games.png"), full_page=True)

    # The games page searches by player and opponent (the GCG's names here).
    page.goto(f"{live_server.url}/games/")
    page.fill("#id_player", "doug")
    page.fill("#id_opponent", "emely")
    page.click("form[role=search] button[type=submit]")
    page.wait_for_url(re.compile(r"player=doug"))
    assert page.locator(f'a[href="/games/{devs_game}/"]').count() == 1
    page.fill("#id_opponent", "nobody")
    page.click("form[role=search] button[type=submit]")
    page.locator("text=No game matches.").wait_for()


def test_the_profile_records_a_member_id(live_server, page, player_user):
    sign_in(page, live_server, "dev")
    page.goto(f"{live_server.url}/accounts/profile/")
    page.fill("#id_member_id", "777")
    page.click("main button[type=submit]")
    page.locator("text=Your member id is saved.").wait_for()
    assert accounts.member_id_of(player_user) == "777"


def test_a_note_says_who_and_when_and_its_author_edits_shares_and_deletes_it(
    live_server, page, devs_game
):
    page.context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=live_server.url
    )
    sign_in(page, live_server, "dev")
    turn_url = f"{live_server.url}/games/{devs_game}/turn/3/"
    page.goto(turn_url)
    page.fill("#id_text", "should have played QAID at 3C")
    page.click("text=Add note")
    note = page.locator(".notes li").first
    note.wait_for()
    meta = note.locator(".note-meta").inner_text()
    assert re.fullmatch(r"dev · \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC", meta), meta

    note.locator("summary").click()
    note.locator("textarea").fill("QAID at 3C scores 40")
    note.locator("text=Save the note").click()
    page.locator("text=Your note is changed.").wait_for()
    note = page.locator(".notes li").first
    assert "QAID at 3C scores 40" in note.inner_text()
    assert re.search(
        r"· edited \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC", note.inner_text()
    )

    page.click(".turn-detail a[data-share]")
    status = page.locator(".turn-detail .share-status")
    status.filter(has_text="Link copied").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == turn_url
    assert status.inner_text() == f"Link copied: {turn_url}"

    page.locator(".notes li summary").click()
    page.click("text=Delete the note")
    page.locator("text=Your note is deleted.").wait_for()
    assert page.locator(".notes li").count() == 0


def test_another_reader_sees_the_note_but_cannot_change_it(
    live_server, page, devs_game, player_user
):
    game_services.game_note(
        game_id=devs_game, target_version=4, text="my note", user=player_user
    )
    page.goto(f"{live_server.url}/games/{devs_game}/turn/1/")
    note = page.locator(".notes li").first
    assert "my note" in note.inner_text()
    assert "dev ·" in note.inner_text()
    assert note.locator("summary").count() == 0


def test_an_upload_is_private_until_shared_or_published(
    live_server, page, browser, player_user, shared_gcg_dir, artifacts
):
    sign_in(page, live_server, "dev")
    page.goto(f"{live_server.url}/games/upload/")
    page.set_input_files("#id_file", str(shared_gcg_dir / "josh2.gcg"))
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    game_url = page.url
    assert "Only its owner can read this game." in page.inner_text("#visibility-note")

    stranger = browser.new_context()
    other = stranger.new_page()
    assert other.goto(game_url).status == 404
    other.goto(f"{live_server.url}/games/")
    assert other.locator(f'a[href="{game_url[len(live_server.url) :]}"]').count() == 0

    # Shared by a secret link: whoever opens it reads the game, and its turns.
    page.select_option("#id_visibility", "link")
    page.click("#sharing button[type=submit]")
    page.locator("text=Anyone with the secret link can read the game.").wait_for()
    secret = page.input_value("#share-url")
    assert re.search(r"/shared/[0-9a-f]{32}/$", secret)
    page.screenshot(path=str(artifacts / "game-sharing.png"), full_page=True)
    assert other.goto(secret).status == 200
    assert other.url == game_url
    assert other.goto(game_url + "turn/2/").status == 200

    # Private again: the link no longer opens it.
    page.select_option("#id_visibility", "private")
    page.click("#sharing button[type=submit]")
    page.locator("text=only you can read it").wait_for()
    fresh = browser.new_context().new_page()
    assert fresh.goto(secret).status == 404
    assert other.goto(game_url).status == 404

    # Published: anyone reads it and finds it in the list.
    page.select_option("#id_visibility", "public")
    page.click("#sharing button[type=submit]")
    page.locator("text=anyone can read it").wait_for()
    assert fresh.goto(game_url).status == 200
    fresh.goto(f"{live_server.url}/games/")
    assert fresh.locator(f'a[href="{game_url[len(live_server.url) :]}"]').count() == 1
    stranger.close()
    fresh.context.close()


def test_a_private_tournaments_games_stay_private(
    live_server, page, club, director, game_id
):
    assert page.goto(f"{live_server.url}/games/{game_id}/").status == 200
    setup_services.tournament_publish(
        tournament_id=club, published=False, user=director
    )
    assert page.goto(f"{live_server.url}/games/{game_id}/").status == 404
    page.goto(f"{live_server.url}/games/")
    assert page.locator(f'a[href="/games/{game_id}/"]').count() == 0


def test_the_result_stays_hidden_until_the_last_turn_when_asked(
    live_server, page, game_id
):
    page.goto(f"{live_server.url}/games/{game_id}/turn/5/")
    assert "doug wins" in page.inner_text("main")
    page.click("text=Hide the result until the last turn")
    page.locator("text=Hidden until the last turn, as you asked.").wait_for()
    main = page.inner_text("main")
    assert "doug wins" not in main
    # The score sheet stops at this turn: the start line and turns 1 to 5.
    assert page.locator(".sheet tbody tr").count() == 6
    page.keyboard.press("ArrowRight")
    page.locator('#viewer[data-index="6"]').wait_for()
    assert "doug wins" not in page.inner_text("main")
    assert page.locator(".sheet tbody tr").count() == 7
    page.keyboard.press("End")
    page.locator('#viewer[data-index="28"]').wait_for()
    assert "doug wins" in page.inner_text("main")
    # The choice stays until taken back.
    page.goto(f"{live_server.url}/games/{game_id}/turn/3/")
    assert "doug wins" not in page.inner_text("main")
    page.click("text=Show the result")
    page.locator("#result-heading", has_text="Result").wait_for()
    assert "doug wins" in page.inner_text("main")


@pytest.fixture
def tiny_lexicon(settings, tmp_path):
    words = tmp_path / "tiny.txt"
    words.write_text("AS\nYA\nWINDY\n")
    settings.LEXICONS = {"TINY": str(words)}
    game_services._LEXICONS.clear()
    analysis._GRAPHS.clear()
    yield
    game_services._LEXICONS.clear()
    analysis._GRAPHS.clear()


def test_the_best_plays_of_a_turn_and_where_the_move_ranked(
    live_server, page, director, tiny_lexicon, artifacts
):
    """WINDY at 8D, then AJKQSXZ with AS, YA and WINDY: 9H AS (8) beats the
    H8 .A played (5) — worked out by hand in rules_tests/test_analysis.py."""
    started = game_services.game_start(
        user=director,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "AJKQSXZ"],
        lexicon="TINY",
        visibility="public",
        seed=3,
    )
    gid = started.stream.id
    game_services.game_place(game_id=gid, position="8D", word="WINDY", user=director)
    game_services.game_place(game_id=gid, position="H8", word=".A", user=director)
    # Ended, so the page does not follow the game's feed: a game being recorded
    # refreshes its viewer when the feed sends the events (at once on opening), and
    # a refresh landing after the click put the link back in place of the table (a
    # race a loaded machine lost, whatever the wait).
    game_services.game_end(game_id=gid, reason="resigned", player=0, user=director)
    page.goto(f"{live_server.url}/games/{gid}/turn/2/")
    assert not page.locator("#viewer[data-feed-url]").count()
    page.click("text=Best plays on this turn")
    ranking = page.locator("#analysis-slot .played-rank")
    ranking.wait_for()
    assert ranking.inner_text() == "The move made, H8 .A, ranks 2 of 2."
    rows = page.locator("#analysis-slot tbody tr")
    assert [rows.nth(i).inner_text().split("\t")[:3] for i in range(2)] == [
        ["1", "9H AS", "8"],
        ["2", "H8 .A played", "5"],
    ]
    assert re.search(r"/turn/2/$", page.url)  # the viewer stays where it was
    page.screenshot(path=str(artifacts / "best-plays.png"), full_page=True)


def test_unrated_players_player_numbers_time_zones_and_the_403_page(
    live_server, page, club, director, player_user
):
    players_services.players_register(
        tournament_id=club, division="A", entries=[("Zoe New", 0, "")], user=director
    )
    zoe = Player.objects.get(tournament_id=club, name="Zoe New")
    page.goto(f"{live_server.url}/tournaments/{club}/divisions/A/standings/")
    row = page.locator("table.standings tr", has_text="Zoe New")
    assert row.locator("td").last.inner_text() == "unrated"
    assert "0" not in row.locator("td").last.inner_text()
    page.goto(f"{live_server.url}/tournaments/{club}/players/{zoe.player_id}/")
    meta = page.locator(".page-head .meta").first.inner_text()
    assert meta.startswith(f"Player #{zoe.number} in division A · unrated")

    sign_in(page, live_server, "mara")
    page.goto(f"{live_server.url}/tournaments/{club}/manage/audit/")
    when = page.locator("td.when").first.inner_text()
    assert re.fullmatch(r"\d{1,2} \w{3} \d{4} \d{2}:\d{2}:\d{2} UTC", when), when

    page.click("text=Sign out")
    sign_in(page, live_server, "dev")
    response = page.goto(f"{live_server.url}/tournaments/{club}/manage/")
    assert response.status == 403
    assert page.locator("h1").inner_text() == "You may not do that"
    assert "Only this tournament's team may do that." in page.inner_text("main")
    assert page.locator("header.site-header").count() == 1
