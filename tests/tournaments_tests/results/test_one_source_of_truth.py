"""Issue 17: every reader states the result the rules decided.

Tournaments with every kind of result (wins, draws, ties decided by the scores
before the end-of-game adjustments, byes, director forfeits, withdrawals with a
forfeit spread of 0 and not, late entries with a credit, amendments of earlier
rounds into and out of ties, two divisions) are generated and driven through the
services; then every reader is compared with the rules' answer, the replayed
state's standings after each round with each player's entry:

standings (API, every round), scorecards (API and page), pairings (API and page),
the ratings games list (JSON and CSV), the ratings players list, and the NASPA ``.t``,
``.TOU`` and ABSP CSV files.
"""

from __future__ import annotations

import csv
import html
import io
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.eventstore.cache import state_cache
from rules import tournament as rt
from rules.records import EntryKind
from rules.tournament.standings import StandingRow, standings
from rules.tsh import read_t
from tests.boards import round_games
from tournaments.core import aggregate as core_aggregate
from tournaments.core import writes
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

SCORES = st.integers(min_value=200, max_value=600)


# --- Driving a tournament -------------------------------------------------------


def _players(data: st.DataObject, division: str) -> list[tuple[str, int, str]]:
    count = data.draw(st.integers(3, 6), label=f"players in {division}")
    return [
        (f"{division}{n} Player", data.draw(st.integers(0, 2000)), f"M{division}{n}")
        for n in range(1, count + 1)
    ]


def _record(data: st.DataObject, tid: uuid.UUID, user: Any, round_: int, game) -> None:
    """Enter one game's result, of a kind the data chooses."""
    a, b = game.first.player_id, game.second.player_id
    if game.has_result:  # a withdrawal already made it a forfeit
        return
    kind = data.draw(st.sampled_from(["score", "score", "tie", "forfeit"]))
    if kind == "forfeit":
        absentee = data.draw(st.sampled_from([a, b]))
        results_services.forfeit_record(
            tournament_id=tid, round_=round_, absentee=absentee, user=user
        )
        return
    score_a = data.draw(SCORES)
    score_b = score_a if kind == "tie" else data.draw(SCORES)
    pre: dict[str, int] = {}
    if score_a == score_b:
        pre = {
            "pre_adjustment_a": data.draw(SCORES),
            "pre_adjustment_b": data.draw(SCORES),
        }
    results_services.result_record(
        tournament_id=tid,
        round_=round_,
        player_a=a,
        player_b=b,
        score_a=score_a,
        score_b=score_b,
        user=user,
        **pre,
    )


def _amend(data: st.DataObject, tid: uuid.UUID, user: Any, rounds: int) -> None:
    """Amend an earlier round's game: into a tie, out of it, or into a forfeit."""
    round_ = data.draw(st.integers(1, rounds), label="amended round")
    games = [game for game in round_games(tid, round_) if game.has_result]
    games = [g for g in games if g.first.kind != EntryKind.WITHDRAWAL_FORFEIT]
    games = [g for g in games if g.second.kind != EntryKind.WITHDRAWAL_FORFEIT]
    if not games:
        return
    game = data.draw(st.sampled_from(games), label="amended game")
    how = data.draw(st.sampled_from(["tie", "untie", "forfeit"]), label="amendment")
    a, b = game.first.player_id, game.second.player_id
    if how == "forfeit":
        results_services.result_amend(
            tournament_id=tid, round_=round_, player_a=a, player_b=b, absentee=b,
            reason="no show", user=user,
        )  # fmt: skip
        return
    score = data.draw(SCORES)
    other = score if how == "tie" else score + data.draw(st.integers(1, 100))
    pre = (
        {"pre_adjustment_a": data.draw(SCORES), "pre_adjustment_b": data.draw(SCORES)}
        if how == "tie"
        else {}
    )
    results_services.result_amend(
        tournament_id=tid, round_=round_, player_a=a, player_b=b, score_a=score,
        score_b=other, reason="slip misread", user=user, **pre,
    )  # fmt: skip


def drive(data: st.DataObject, user: Any) -> uuid.UUID:
    """Create and play a tournament as the data chooses; return its id."""
    rounds = data.draw(st.integers(2, 4), label="rounds")
    divisions = data.draw(st.sampled_from([["A"], ["A", "B"]]), label="divisions")
    tid = setup_services.tournament_create(
        user=user,
        name="Generated Open",
        start_date="2026-11-21",
        end_date="2026-11-22",
        rounds=rounds,
        ties_are_draws=data.draw(st.booleans(), label="ties are draws"),
        forfeit_spread=data.draw(st.sampled_from([0, 50]), label="forfeit spread"),
        spread_cap=data.draw(st.sampled_from([None, 150]), label="spread cap"),
        divisions=divisions,
    ).stream.id
    for division in divisions:
        players_services.players_register(
            tournament_id=tid,
            division=division,
            entries=_players(data, division),
            user=user,
        )
    withdraw_before = data.draw(st.integers(2, rounds + 1), label="withdrawal round")
    for round_ in range(1, rounds + 1):
        if round_ == withdraw_before:
            _withdraw(data, tid, user, round_)
        if round_ == 2 and data.draw(st.booleans(), label="late entry"):
            _late_entry(data, tid, user)
        for division in divisions:
            pairing_services.round_pair(
                tournament_id=tid,
                division=division,
                round_=round_,
                method=data.draw(st.sampled_from(["swiss", "king_of_the_hill"])),
                user=user,
            )
            for game in round_games(tid, round_, division):
                _record(data, tid, user, round_, game)
    for _ in range(data.draw(st.integers(0, 2), label="amendments")):
        _amend(data, tid, user, rounds)
    return tid


def _withdraw(data: st.DataObject, tid: uuid.UUID, user: Any, round_: int) -> None:
    _, state = core_aggregate.tournament_state(tid)
    ids = state.rules.division_players["A"]
    players_services.player_withdraw(
        tournament_id=tid,
        player_id=data.draw(st.sampled_from(ids), label="withdrawn"),
        from_round=round_,
        policy=data.draw(st.sampled_from(["forfeit", "not_paired"])),
        user=user,
    )


def _late_entry(data: st.DataObject, tid: uuid.UUID, user: Any) -> None:
    """A player joining in round 2, credited for round 1 as the data chooses."""
    players_services.players_register(
        tournament_id=tid, division="A", entries=[("Late Comer", 1234, "ML")], user=user
    )
    _, state = core_aggregate.tournament_state(tid)
    late = state.rules.division_players["A"][-1]
    credit = data.draw(st.sampled_from([None, -50, 0, 50]), label="late credit")
    if credit is not None:
        writes.tournament_append(
            tournament_id=tid,
            events=[rt.UnpairedRoundRecorded(1, late, credit)],
            user=user,
        )


# --- The rules' answer ------------------------------------------------------------


def truth(tid: uuid.UUID) -> rt.TournamentState:
    state_cache.clear()
    _, aggregate = core_aggregate.tournament_state(tid)
    return aggregate.rules


def lines(state: rt.TournamentState, division: str) -> dict[int, list[StandingRow]]:
    last = state.paired_rounds(division)
    return {
        round_: list(standings(state, division, after_round=round_))
        for round_ in range(0, last + 1)
    }


OUTCOME = {rt.Outcome.WIN: "win", rt.Outcome.DRAW: "draw", rt.Outcome.LOSS: "loss"}


def outcome(entry: rt.Entry) -> str:
    return "" if entry.outcome is None else OUTCOME[entry.outcome]


# --- The readers ------------------------------------------------------------------


def check_standings(api: APIClient, tid, division, by_round) -> None:
    for round_, rows in by_round.items():
        body = api.get(
            f"/api/tournaments/{tid}/standings",
            {"division": division, "after_round": round_},
        ).json()
        fields = ("player", "rank", "wins", "losses", "draws", "spread")
        got = [
            (*(r[name] for name in fields), r["total_score"]) for r in body["standings"]
        ]
        want = [
            (r.player_id, r.rank, r.wins, r.losses, r.draws, r.spread, r.total_score)
            for r in rows
        ]
        assert got == want, (division, round_)


def check_scorecards(api, page, tid, state, division, by_round) -> None:
    for player_id in state.division_players[division]:
        card = api.get(f"/api/tournaments/{tid}/players/{player_id}/scorecard").json()
        mine = {
            round_: next(r for r in rows if r.player_id == player_id)
            for round_, rows in by_round.items()
            if round_ > 0
        }
        assert [line["round"] for line in card["rounds"]] == sorted(mine)
        for line in card["rounds"]:
            row = mine[line["round"]]
            entry = row.entry
            assert (
                line["kind"],
                line["opponent_id"],
                line["own_score"],
                line["opponent_score"],
                line["own_pre_adjustment"],
                line["opponent_pre_adjustment"],
                line["result"],
                line["tie_break"],
                line["spread"],
                line["record"],
                line["running_spread"],
                line["rank"],
            ) == (
                entry.kind.value,
                entry.opponent or "",
                entry.own_score,
                entry.opponent_score,
                entry.own_pre_adjustment,
                entry.opponent_pre_adjustment,
                outcome(entry),
                entry.tie_break,
                entry.counted_spread,
                row.record,
                row.spread,
                row.rank,
            ), (player_id, line["round"])
        check_scorecard_page(page, tid, player_id, mine)


_PAGE_ROW = re.compile(
    r'<tr><td class="num">(\d+)</td><td class="who">(.*?)</td>'
    r'<td class="num">(.*?)</td><td class="hide-phone">(.*?)</td>'
    r'<td class="num hide-phone[^"]*">(.*?)</td><td class="num">(.*?)</td>'
)


def check_scorecard_page(page: Client, tid, player_id, mine) -> None:
    body = page.get(f"/tournaments/{tid}/players/{player_id}/").content.decode()
    rows = {int(m.group(1)): m for m in _PAGE_ROW.finditer(body)}
    assert sorted(rows) == sorted(mine)
    for round_, row in mine.items():
        entry = row.entry
        match = rows[round_]
        score, result, record = match.group(3), match.group(4), match.group(6)
        assert html.unescape(record).startswith(row.record), (player_id, round_)
        if entry.kind is EntryKind.GAME and entry.own_score is not None:
            assert f"{entry.own_score}–{entry.opponent_score}" in score
        if entry.outcome is not None:
            assert outcome(entry) in result, (player_id, round_, result)


def check_pairings(api, page, tid, state, division, by_round) -> None:
    for round_, rows in by_round.items():
        if round_ == 0:
            continue
        entries = {row.player_id: row.entry for row in rows}
        body = api.get(
            f"/api/tournaments/{tid}/rounds/{round_}/pairings",
            {"division": division},
        ).json()
        seen = set()
        for line in body:
            for side in (line["first"], line["second"]):
                if side is None:
                    continue
                entry = entries[side["player"]]
                seen.add(side["player"])
                assert (
                    side["kind"],
                    side["score"],
                    side["pre_adjustment"],
                    side["outcome"],
                    side["spread"],
                ) == (
                    entry.kind.value,
                    entry.own_score,
                    entry.own_pre_adjustment,
                    outcome(entry),
                    entry.counted_spread,
                ), (round_, side["player"])
        # Every player with something in the round is on the round's pairings.
        assert seen == {
            pid
            for pid, entry in entries.items()
            if entry.kind is not EntryKind.UNPLAYED
        }
        text = page.get(
            f"/tournaments/{tid}/divisions/{division}/rounds/{round_}/"
        ).content.decode()
        for pid in seen:
            assert html.escape(state.players[pid].name) in text, (round_, pid)


def _all_pages(api: APIClient, url: str, params: dict) -> Iterator[dict]:
    body = api.get(url, params).json()
    yield from body["results"]
    while body["next"]:
        body = api.get(body["next"]).json()
        yield from body["results"]


def check_ratings_games(api, tid, state) -> None:
    entries = {
        (row.player_id, round_): row.entry
        for division in state.divisions
        for round_, rows in lines(state, division).items()
        if round_ > 0
        for row in rows
    }
    listed = list(_all_pages(api, "/api/ratings/games", {"tournament": tid}))
    response = api.get("/api/ratings/games", {"tournament": tid, "format": "csv"})
    text = b"".join(response.streaming_content).decode()
    as_csv = list(csv.DictReader(io.StringIO(text)))
    assert len(as_csv) == len(listed)
    want = {
        key
        for key, entry in entries.items()
        if entry.has_result and (entry.went_first is True or entry.opponent is None)
    }
    assert {(row["player1_id"], row["round"]) for row in listed} == want
    for row, cells in zip(listed, as_csv, strict=True):
        first = entries[(row["player1_id"], row["round"])]
        assert (
            row["player1_kind"],
            row["player1_score"],
            row["player1_pre_adjustment"],
            row["player1_result"],
            row["player1_spread"],
            row["rated"],
        ) == (
            first.kind.value,
            first.own_score,
            first.own_pre_adjustment,
            outcome(first),
            first.round_spread,
            first.rated,
        )
        if first.opponent is not None:
            second = entries[(first.opponent, row["round"])]
            assert (row["player2_kind"], row["player2_result"]) == (
                second.kind.value,
                outcome(second),
            )
        assert cells["player1_id"] == row["player1_id"]
        assert cells["player1_result"] == row["player1_result"]
        assert cells["player1_score"] == (
            "" if row["player1_score"] is None else str(row["player1_score"])
        )


def check_ratings_players(api, tid, state) -> None:
    rows = api.get("/api/ratings/players", {"tournament": tid}).json()["results"]
    for row in rows:
        card = state.cards[row["player_id"]]
        rated = [e for e in card.entries if e is not None and e.rated]
        # The bodies rate the final scores: a tie won on the tie-break is a draw.
        outcomes = [rt.Outcome.DRAW if e.tie_break else e.outcome for e in rated]
        assert row["games"] == len(rated)
        assert row["wins"] == outcomes.count(rt.Outcome.WIN)
        assert row["losses"] == outcomes.count(rt.Outcome.LOSS)
        assert row["draws"] == outcomes.count(rt.Outcome.DRAW)


def check_files(api, tid, state) -> None:
    text = api.get(
        f"/api/tournaments/{tid}/export/naspa.t", HTTP_ACCEPT="text/plain"
    ).content.decode()
    blocks = text.split("#division ")[1:]
    for block in blocks:
        name, _, body = block.partition("\n")
        ids = state.division_players[name]
        for player, line in zip(ids, read_t(body).players, strict=True):
            card = state.cards[player]
            for round_, opponent in enumerate(line.opponents, start=1):
                entry = card.entries[round_ - 1]
                if entry is None:
                    assert (opponent, line.scores[round_ - 1]) == (0, 0)
                elif entry.kind is EntryKind.GAME:
                    assert opponent == state.players[entry.opponent].number
                    assert line.scores[round_ - 1] == entry.own_score
                else:
                    assert (opponent, line.scores[round_ - 1]) == (
                        0,
                        entry.round_spread,
                    )
    tou = api.get(
        f"/api/tournaments/{tid}/export/tournament.tou", HTTP_ACCEPT="text/plain"
    )
    assert tou.status_code == 200, tou.content
    absp = api.get(
        f"/api/tournaments/{tid}/export/absp.csv", HTTP_ACCEPT="text/plain"
    ).content.decode()
    rated_games = {
        (entry.round, *sorted((player, entry.opponent)))
        for player, card in state.cards.items()
        for entry in card.entries
        if entry is not None and entry.rated
    }
    csv_rows = [row for row in csv.reader(io.StringIO(absp)) if row]
    games = [row for row in csv_rows if row[0] != "Division"]
    assert len(games) == len(rated_games)


@pytest.mark.django_db
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_reader_states_the_rules_answer(director, data):
    tid = drive(data, director)
    state = truth(tid)
    api = APIClient()
    api.force_authenticate(director)
    page = Client()
    for division in state.divisions:
        by_round = lines(state, division)
        check_standings(api, tid, division, by_round)
        check_scorecards(api, page, tid, state, division, by_round)
        check_pairings(api, page, tid, state, division, by_round)
    check_ratings_games(api, tid, state)
    check_ratings_players(api, tid, state)
    check_files(api, tid, state)
