"""Template tags for the tournament pages' long tables, built in Python.

A national division's standings have 125 rows and a scorecard 31; through the
template engine (a URL reversed and a dozen lookups per row) they took most of a
page's time. These tags write the same markup as the templates they replace.

Usage::

    {% load tournament_tables %}
    {% scorecard_rows rows tournament.tournament_id %}
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.formatting import escape
from games.templatetags.scrabble import url_prefix
from rules.records import EntryKind
from tournaments.results.presenters import kind_badge, signed_spread

register = template.Library()


def _spread_class(value: int | None) -> str:
    if value is None or value == 0:
        return ""
    return "spread-pos" if value > 0 else "spread-neg"


@register.simple_tag
def scorecard_rows(rows: Sequence[dict[str, Any]], tournament_id: Any) -> SafeString:
    """The scorecard table's body rows (see templates/tournaments/scorecard.html)."""
    card_prefix = url_prefix("scorecard", tournament_id, last="x")
    game_prefix = url_prefix("game-detail", last=uuid.UUID(int=0))
    out = []
    for row in rows:
        line = row["line"]
        game_id = row["game_id"]
        game_url = f"{game_prefix}{game_id}/" if game_id else ""
        badge = kind_badge(line.kind, line.round_spread)
        if not line.opponent_id:
            who = f'<span class="badge">{escape(badge)}</span>'
        else:
            who = (
                f'<a href="{card_prefix}{escape(line.opponent_id)}/">'
                f"{escape(line.opponent_name)}</a>"
            )
            if line.went_first and line.kind == EntryKind.GAME:
                who += ' <span class="badge first" title="went first">1st</span>'
            if row["board"]:
                who += f' <span class="sub">board {row["board"]}</span>'
        if game_url:
            who += f' <a class="small show-phone" href="{game_url}">game</a>'
        if line.opponent_id and badge:
            score = f'<span class="badge withdrawn">{escape(badge)}</span>'
        elif line.own_score is not None:
            score = f"{line.own_score}–{line.opponent_score}"
            if line.tie_break:
                score += (
                    f' <span class="small muted" title="before the end-of-game '
                    f'adjustments">({line.own_pre_adjustment}–'
                    f"{line.opponent_pre_adjustment})</span>"
                )
        else:
            score = ""
        win = "win" if line.outcome == "win" else ""
        if line.outcome:
            score += f' <span class="show-phone {win}">{line.outcome[0].upper()}</span>'
            result = f'<span class="{win}">{escape(line.outcome)}</span>'
        elif line.kind == EntryKind.GAME:
            result = '<span class="muted">to play</span>'
        else:
            result = ""
        spread = signed_spread(line.counted_spread) if line.has_result else ""
        record = escape(line.record)
        running = signed_spread(line.running_spread)
        record += f' <span class="muted small">({running})</span>'
        game = f'<a href="{game_url}">view game</a>' if game_url else ""
        spread_class = _spread_class(line.counted_spread if line.has_result else None)
        out.append(
            f'<tr><td class="num">{line.round}</td><td class="who">{who}</td>'
            f'<td class="num">{score}</td><td class="hide-phone">{result}</td>'
            f'<td class="num hide-phone {spread_class}">{spread}</td>'
            f'<td class="num">{record}</td><td class="hide-phone">{game}</td></tr>'
        )
    # Every value above is escaped or the module's own text.
    return mark_safe("".join(out))


@register.filter
def rating(value: Any) -> str:
    """A player's rating as shown: "unrated" for 0, the rules' unrated rating."""
    return "unrated" if value in (0, None) else str(value)


@register.simple_tag
def standings_rows(rows: Sequence[Mapping[str, Any]], tournament_id: Any) -> SafeString:
    """The standings table's body rows (see _standings_table.html), from rows shaped
    as ``tournaments.results.selectors.standings`` gives them."""
    card_prefix = url_prefix("scorecard", tournament_id, last="x")
    out = []
    for s in rows:
        withdrawn = " withdrawn" if s["withdrawn"] else ""
        badge = (
            ' <span class="badge withdrawn">withdrawn</span>' if s["withdrawn"] else ""
        )
        spread = s["spread"]
        rank = "—" if s["rank"] is None else s["rank"]
        out.append(
            f'<tr class="{withdrawn.strip()}"><td class="num">{rank}</td>'
            f'<td><a href="{card_prefix}{escape(s["player"])}/">{escape(s["name"])}</a>'
            f' <span class="muted">#{s["number"]}</span>{badge}</td>'
            f'<td class="num">{escape(s["record"])}</td>'
            f'<td class="num {_spread_class(spread)}">{signed_spread(spread)}</td>'
            f'<td class="num hide-phone">{s["total_score"]}</td>'
            f'<td class="num hide-phone">{rating(s["rating"])}</td></tr>'
        )
    # Every value above is escaped or the module's own text.
    return mark_safe("".join(out))


@register.simple_tag
def round_pills(
    tournament_id: Any, division: str, rounds: Iterable[int], shown: int
) -> SafeString:
    """The standings' "after round" links, the shown round marked (a national
    event's 31 rounds through {% url %} cost more than the whole table)."""
    prefix = url_prefix("standings-after", tournament_id, division)
    items = []
    for number in rounds:
        # Round 0 is the pre-event order.
        text = str(number) if number else "start"
        label = f"After round {number}" if number else "Before round 1"
        if number == shown:
            items.append(f'<li><span aria-current="page">{text}</span></li>')
        else:
            items.append(
                f'<li><a href="{prefix}{number}/" aria-label="{label}">{text}</a></li>'
            )
    return mark_safe(
        f'<ul class="pills" aria-label="After round">{"".join(items)}</ul>'
    )
