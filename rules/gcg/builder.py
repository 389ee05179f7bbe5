"""Turning a record's lines into events: the draws inferred from the racks, the
challenges, the end of the game, each checked by replaying it (``rules.state``).

The builder reads leniently where only inferred tiles clash (it warns, drops the
inference and reads on, as Macondo and MAGPIE do) and stops at the first rule the
board itself breaks.

Usage::

    builder = _Builder(lines, metadata, ruleset, tiles, racks_at_end)
    builder.run(start_line)
    builder.events, builder.discrepancies, builder.warnings
"""

from __future__ import annotations

from dataclasses import replace

from rules.board import EMPTY, SIZE, Position
from rules.errors import (
    ChallengesNotAllowedError,
    EndReasonError,
    GameOverError,
    GcgError,
    ImpossibleScoreError,
    NoPlayToChallengeError,
    RackMismatchError,
    RulesError,
)
from rules.events import (
    ChallengeOutcome,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    NoteAdded,
    PlayChallenged,
    RackForgotten,
    RackRecorded,
    TilesDrawn,
    TilesExchanged,
    TilesPlaced,
    TilesReturned,
    TimePenalty,
    TurnPassed,
)
from rules.gcg.values import (
    _END_KINDS,
    GcgDiscrepancy,
    GcgMetadata,
    GcgWarning,
    _Kind,
    _Line,
)
from rules.moves import PLAYED_THROUGH
from rules.ruleset import (
    ChallengeRule,
    Ruleset,
)
from rules.scoring import score_limit
from rules.state import GameState, apply
from rules.tiles import TileSet, as_tiles, difference, sort_tiles, tile_values


class _Builder:
    """Turns parsed lines into events, applying each so rules are checked as it goes.

    Draws are inferred from the racks recorded later; only the board is certain. When
    a recorded rack or an inferred draw clashes with tiles that were themselves only
    inferred (another player's rack, the letters of an exchange), the inference is
    dropped with a warning and the record is read on (issue 20, rule 2).
    """

    def __init__(
        self,
        lines: list[_Line],
        metadata: GcgMetadata,
        chosen: Ruleset,
        tiles: TileSet,
        racks_at_end: dict[int, tuple[str, int]],
    ) -> None:
        self.lines = lines
        self.metadata = metadata
        self.ruleset = chosen
        self.tile_set = tiles
        self.racks_at_end = racks_at_end
        self.events: list[Event] = []
        self.event_lines: list[int] = []
        self.discrepancies: list[GcgDiscrepancy] = []
        self.warnings: list[GcgWarning] = []
        self.state: GameState | None = None
        # For adjustments: the line of each player's end-of-game line.
        self.adjustment_lines: dict[tuple[int, int], int] = {}
        # Players whose rack a #rack line recorded: a fact, never dropped.
        self.pinned: set[int] = set()
        self.passed_after_going_out = False
        self.last_turn = 0  # the version of the last turn, for a skipped line's notes
        values = tile_values(tiles)
        line_limit = score_limit(values, chosen.rack_size, chosen.bingo_bonus)
        self.cumulative_limit = line_limit * max(1, len(lines))

    @property
    def now(self) -> GameState:
        assert self.state is not None
        return self.state

    def fail(self, line: int, error: RulesError) -> GcgError:
        return GcgError([(line, error.code, error.message)], state=self.state)

    def emit(self, event: Event, line: int) -> int:
        version = len(self.events) + 1
        before = len(self.state.discrepancies) if self.state is not None else 0
        try:
            self.state = apply(self.state, event, version=version)
        except RulesError as error:
            raise self.fail(line, error) from None
        self.events.append(event)
        self.event_lines.append(line)
        for discrepancy in self.state.discrepancies[before:]:
            source = self.adjustment_lines.get((version, discrepancy.player), line)
            self.discrepancies.append(
                GcgDiscrepancy(
                    source, discrepancy.recorded, discrepancy.computed, discrepancy.kind
                )
            )
        return version

    def emit_lenient(self, event: Event, line: int) -> int:
        """Emit ``event``; when it clashes only with inferred tiles, drop those
        inferences (each with a warning) and emit it again."""
        try:
            return self.emit(event, line)
        except GcgError as error:
            if not self.drop_inferences(event, error.problems[0][1], line):
                raise
        return self.emit(event, line)

    def drop_inferences(self, event: Event, code: str, line: int) -> bool:
        """Drop, one at a time while any is in the way, the inferences that keep
        ``event`` out: the letters of an exchange first (placeholders are the
        likeliest slip), then the other players' racks. Whether any was dropped."""
        named = _tiles_named(self.now, event)
        if named is None:
            return False
        player, needed = named
        names = self.now.players
        if code == "rack_mismatch" and isinstance(event, RackRecorded):
            # The rack recorded here contradicts what was inferred of the same rack.
            known = self.now.racks[player].known
            if player in self.pinned or not known:
                return False
            self.forget(
                RackForgotten(player=player),
                line,
                f"{names[player]}'s rack is recorded as {needed}, not the {known} "
                "inferred from earlier lines: that inference is dropped",
            )
            return True
        if code != "tile_unavailable":
            return False
        dropped = False
        for other in (None, *range(len(names))):
            state = self.now
            # A draw comes out of the bag; a rack or a play may use the tiles known
            # on the player's own rack too.
            own = "" if isinstance(event, TilesDrawn) else state.racks[player].known
            lacking = difference(needed, state.bag.candidates + own)
            if not lacking:
                break
            aside = state.aside
            if other is None and aside is not None:
                shared = _shared(aside.tiles, lacking)
                if shared:
                    self.forget(
                        RackForgotten(player=aside.player, exchanged=True),
                        line,
                        f"{names[aside.player]}'s exchange was written as "
                        f"-{aside.tiles}, but {shared} are needed here: the letters "
                        "of that exchange are taken as not recorded",
                    )
                    dropped = True
            elif other is not None and other != player and other not in self.pinned:
                shared = _shared(state.racks[other].known, lacking)
                if shared:
                    self.forget(
                        RackForgotten(player=other),
                        line,
                        f"{names[player]} needs {shared} here, which "
                        f"{names[other]}'s rack was only inferred to hold: that "
                        "inference is dropped",
                    )
                    dropped = True
        return dropped

    def forget(self, event: RackForgotten, line: int, message: str) -> None:
        self.emit(event, line)
        self.warnings.append(GcgWarning(line, "inference_dropped", message))

    def run(self, start_line: int) -> None:
        self.emit(
            GameStarted(
                players=self.player_names(),
                ruleset=self.ruleset,
                tile_set=self.tile_set,
                lexicon=self.metadata.lexicon,
            ),
            start_line,
        )
        for player in range(len(self.metadata.players)):
            self.draw(player, -1)
        lines = self.lines
        cumulative = [0] * len(self.metadata.players)
        index = 0
        while index < len(lines):
            line = lines[index]
            if line.kind in _END_KINDS:
                end = index
                while end < len(lines) and lines[end].kind in _END_KINDS:
                    end += 1
                group = lines[index:end]
                version = self.end(group)
                for member in group:
                    self.check_cumulative(member, cumulative)
                    self.annotate(member, version)
                index = end
                continue
            if self.pass_after_going_out(line):
                version = self.last_turn
            else:
                version = self.turn(index, line)
                self.last_turn = version
            self.check_cumulative(line, cumulative)
            self.annotate(line, version)
            index += 1
        self.record_final_racks()

    def player_names(self) -> tuple[str, ...]:
        """The players' names in the game: their nicks, unless both share one."""
        players = self.metadata.players
        nicks = tuple(player.nick for player in players)
        if len(set(nicks)) == len(nicks):
            return nicks
        names = tuple(player.name for player in players)
        if all(names) and len(set(names)) == len(names):
            return names
        return tuple(f"{nick} ({number})" for number, nick in enumerate(nicks, 1))

    def pass_after_going_out(self, line: _Line) -> bool:
        """Whether ``line`` is the one 0-point pass by the opponent that Woogles and
        Macondo wrote between a going-out play and the end-of-game lines (a failed
        double challenge of the play, or the final pass): read, with no effect on
        scores or turns (issue 20, rule 3)."""
        state = self.now
        if (
            line.kind is not _Kind.PASS
            or state.pending_end is not EndReason.WENT_OUT
            or line.player == state.pending_player
            or self.passed_after_going_out
        ):
            return False
        self.passed_after_going_out = True
        return True

    def annotate(self, line: _Line, version: int) -> None:
        for text in line.notes:
            self.emit(NoteAdded(target_version=version, text=text), line.number)

    def check_cumulative(self, line: _Line, cumulative: list[int]) -> None:
        if abs(line.cumulative) > self.cumulative_limit:
            raise self.fail(
                line.number,
                ImpossibleScoreError(
                    f"A cumulative score of {line.cumulative} cannot be right: no "
                    f"game of {len(self.lines)} lines reaches "
                    f"{self.cumulative_limit}"
                ),
            )
        expected = cumulative[line.player] + line.score
        if line.cumulative != expected:
            self.discrepancies.append(
                GcgDiscrepancy(line.number, line.cumulative, expected, "cumulative")
            )
        # Later lines are checked against the cumulative as recorded, so one slip is
        # reported once, not on every line after it.
        cumulative[line.player] = line.cumulative

    def turn(self, index: int, line: _Line) -> int:
        kind = line.kind
        if kind is _Kind.PLACEMENT:
            return self.place(index, line)
        if kind in (_Kind.PHONY, _Kind.CHALLENGE):
            return self.challenge(line)
        if kind is _Kind.PASS:
            rack = line.rack
            return self.emit_lenient(
                TurnPassed(player=line.player, rack=rack), line.number
            )
        if kind is _Kind.EXCHANGE:
            version = self.emit_lenient(
                TilesExchanged(
                    player=line.player,
                    tiles=line.tiles,
                    unknown=0 if line.tiles else line.count,
                    rack=line.rack,
                ),
                line.number,
            )
            self.draw(line.player, index)
            return version
        return self.time_penalty(line)

    def place(self, index: int, line: _Line) -> int:
        player = line.player
        version = self.emit_lenient(
            TilesPlaced(
                player=player,
                position=line.position,
                word=self.canonical_word(line),
                score=line.score,
                rack=line.rack,
            ),
            line.number,
        )
        following = self.next_own_line(index, player)
        if following is None or following.kind is not _Kind.PHONY:
            self.draw(player, index)
        return version

    def challenge(self, line: _Line) -> int:
        """A withdrawn phony (``--``) or a valid play's bonus (``(challenge)``)."""
        state = self.now
        player = line.player
        kind = line.kind
        last = state.last_play
        if last is None or last.player != player:
            what = "withdraw" if kind is _Kind.PHONY else "be challenged"
            raise self.fail(
                line.number,
                NoPlayToChallengeError(
                    f"There is no play by {state.players[player]} just before to {what}"
                ),
            )
        if (
            kind is _Kind.CHALLENGE
            and not state.ruleset.challenge_bonus
            and state.ruleset.challenge is not ChallengeRule.SINGLE
        ):
            # Under double challenge a valid play costs the challenger a turn,
            # which GCG writes as their pass: a bonus line cannot be right.
            raise self.fail(
                line.number,
                ChallengesNotAllowedError(
                    "A (challenge) line needs the single, five- or ten-point "
                    f"challenge rule; this game is played under "
                    f"{state.ruleset.challenge}"
                ),
            )
        event = PlayChallenged(
            challenger=(player + 1) % len(state.players),
            outcome=(
                ChallengeOutcome.PHONY
                if kind is _Kind.PHONY
                else ChallengeOutcome.VALID
            ),
            score=line.score,
            rack=line.rack,
        )
        if kind is _Kind.PHONY or not line.rack:
            return self.emit(event, line.number)
        try:
            return self.emit(event, line.number)
        except GcgError as error:
            # Issue 20, rule 5: the rack on a (challenge) line is often not the
            # player's (Quackle writes what it has); an impossible one is left out.
            version = self.emit(replace(event, rack=None), line.number)
            _, code, message = error.problems[0]
            self.warnings.append(
                GcgWarning(line.number, code, f"{message}: the rack is left out")
            )
            return version

    def time_penalty(self, line: _Line) -> int:
        # The rack on a (time) line is the rack left at the end.
        state = self.now
        player = line.player
        rack = state.racks[player]
        if (
            state.game_over
            and line.rack
            and rack.is_known
            and sort_tiles(line.rack) != rack.known
        ):
            raise self.fail(
                line.number,
                RackMismatchError(
                    f"{state.players[player]}'s rack at the end is "
                    f"{rack.known or 'empty'}, not {line.rack}"
                ),
            )
        per_minute = state.ruleset.time_penalty_per_minute
        minutes = -(line.score // per_minute) if per_minute else 0
        return self.emit(
            TimePenalty(player=player, minutes=minutes, score=line.score), line.number
        )

    def canonical_word(self, line: _Line) -> str:
        """The word with every played-through letter written as '.'.

        A letter that differs from the board is left as it is, so that the rules
        reject it with the square named.
        """
        position = Position.from_gcg(line.position)
        step = 1 if position.direction.value == "across" else SIZE
        along = position.column if step == 1 else position.row
        if along + len(line.word) > SIZE:
            return line.word
        squares = self.now.board.squares
        index = position.index
        letters = []
        for ch in line.word:
            on_board = squares[index]
            if ch != "." and on_board != EMPTY and on_board.upper() == ch.upper():
                letters.append(".")
            else:
                letters.append(ch)
            index += step
        return "".join(letters)

    def next_own_line(self, index: int, player: int) -> _Line | None:
        for line in self.lines[index + 1 :]:
            if line.player == player:
                return line
        return None

    def observation(
        self, index: int, player: int
    ) -> tuple[str | None, int | None, bool]:
        """The player's rack as next recorded after line ``index``, its line, and
        whether it may be ignored (a (challenge) line's rack, issue 20 rule 5).

        A (time) line's rack is the rack at the end, not the player's next rack.
        """
        for line in self.lines[index + 1 :]:
            if line.kind is _Kind.TIME:
                continue
            if line.player == player:
                if line.kind is _Kind.GOING_OUT:
                    return None, None, False
                if line.kind is _Kind.OWN_RACK:
                    return line.tiles, line.number, False
                return line.rack, line.number, line.kind is _Kind.CHALLENGE
            if line.kind is _Kind.GOING_OUT:
                # The opponent's going-out line shows this player's last rack.
                return line.tiles, line.number, False
        at_end = self.racks_at_end.get(player)
        if at_end is not None:
            return at_end[0], at_end[1], False
        return None, None, False

    def draw(self, player: int, index: int) -> None:
        """Record the draw that refills ``player``'s rack after line ``index``."""
        state = self.now
        rack = state.racks[player]
        count = min(state.ruleset.rack_size - rack.count, state.bag.count)
        if count <= 0:
            return
        seen, seen_line, tentative = self.observation(index, player)
        if seen_line is not None:
            line = seen_line
        elif index >= 0:
            line = self.lines[index].number
        else:
            line = self.event_lines[0]
        if not seen or not rack.is_known:
            # Nothing recorded, or the tiles kept are not all known: which of the
            # recorded tiles were drawn cannot be told.
            self.emit(TilesDrawn(player=player, unknown=count), line)
            return
        if not tentative:
            self.infer_draw(player, seen, count, line)
            return
        events, state_before = len(self.events), self.state
        discrepancies, warnings = len(self.discrepancies), len(self.warnings)
        try:
            self.infer_draw(player, seen, count, line)
        except GcgError:
            # The (challenge) line's own check warns about its rack.
            del self.events[events:], self.event_lines[events:]
            del self.discrepancies[discrepancies:], self.warnings[warnings:]
            self.state = state_before
            self.emit(TilesDrawn(player=player, unknown=count), line)

    def infer_draw(self, player: int, seen: str, count: int, line: int) -> None:
        """Record the draw of ``count`` tiles that makes ``player``'s known rack the
        rack ``seen`` (recorded at ``line``)."""
        state = self.now
        rack = state.racks[player]
        name = state.players[player]
        kept = rack.known
        new = difference(seen, kept)
        full = rack.count + count
        if len(seen) > full:
            raise self.fail(
                line,
                RackMismatchError(
                    f"The rack {seen} has {len(seen)} tiles, but {name} can hold only "
                    f"{full} then"
                ),
            )
        if len(seen) == full:
            lacking = difference(kept, seen)
            if lacking:
                # A full rack without tiles the player kept: they overdrew and the
                # excess went back to the bag (noah_vs_peter.gcg: "Yup, I overdrew").
                # Record the return first so the rack never holds more than it can.
                self.emit(TilesReturned(player=player, tiles=lacking), line)
            self.emit_lenient(TilesDrawn(player=player, tiles=new), line)
            return
        if len(new) > count:
            raise self.fail(
                line,
                RackMismatchError(
                    f"The rack {seen} has {len(new)} tiles {name} did not keep, but "
                    f"{name} drew only {count}"
                ),
            )
        self.emit_lenient(
            TilesDrawn(player=player, tiles=new, unknown=count - len(new)), line
        )

    def end(self, group: list[_Line]) -> int:
        """Record the end of the game from its group of end-of-game lines."""
        state = self.now
        first = group[0]
        count = len(state.players)
        if state.game_over:
            raise self.fail(
                first.number,
                GameOverError("The game has already ended: no line may follow its end"),
            )
        if state.pending_end is None:
            limit = state.ruleset.scoreless_limit(count)
            raise self.fail(
                first.number,
                EndReasonError(
                    "The game has not ended here: nobody went out, and there have been "
                    f"{state.scoreless_turns} consecutive scoreless turns ({limit} end "
                    "the game)"
                ),
            )
        racks: list[str | None] = [None] * count
        adjustments = [0] * count
        version = len(self.events) + 1
        goer = None
        for line in group:
            if line.kind is _Kind.GOING_OUT:
                goer = line.player
                target = (line.player + 1) % count
                racks[line.player] = racks[line.player] or ""
            else:
                target = line.player
            revealed = sort_tiles(line.tiles)
            if racks[target] not in (None, revealed):
                raise self.fail(
                    line.number,
                    RackMismatchError(
                        f"{state.players[target]}'s rack is recorded both as "
                        f"{racks[target]} and as {revealed}"
                    ),
                )
            racks[target] = revealed
            adjustments[line.player] += line.score
            self.adjustment_lines.setdefault((version, line.player), line.number)
        resolved: list[str] = []
        for player, rack in enumerate(racks):
            if rack is not None:
                resolved.append(rack)
            elif state.racks[player].is_known:
                resolved.append(state.racks[player].known)
            else:
                resolved = []
                break
        reason = (
            EndReason.WENT_OUT
            if state.pending_end is EndReason.WENT_OUT
            else EndReason.SCORELESS_TURNS
        )
        return self.emit(
            GameEnded(
                reason=reason,
                player=goer if reason is EndReason.WENT_OUT else None,
                racks=tuple(resolved),
                adjustments=tuple(adjustments),
            ),
            first.number,
        )

    def record_final_racks(self) -> None:
        """Record the ``#rack1``/``#rack2`` racks of an unfinished game (issue 20,
        rule 1): each must fit the tiles not on the board, and both together."""
        state = self.now
        if state.game_over:
            return
        for player, (rack, number) in sorted(self.racks_at_end.items()):
            held = self.now.racks[player]
            if rack and not (held.is_known and sort_tiles(rack) == held.known):
                self.emit_lenient(RackRecorded(player=player, tiles=rack), number)
            self.pinned.add(player)


def _tiles_named(state: GameState, event: Event) -> tuple[int, str] | None:
    """The player an event is about and every tile it says they hold or take."""
    if isinstance(event, TilesDrawn):
        return event.player, event.tiles
    if isinstance(event, RackRecorded):
        return event.player, event.tiles
    if isinstance(event, TilesPlaced):
        played = as_tiles(event.word.replace(PLAYED_THROUGH, ""))
        return event.player, _union(event.rack or "", played)
    if isinstance(event, TilesExchanged):
        return event.player, _union(event.rack or "", event.tiles)
    if isinstance(event, TurnPassed):
        return event.player, event.rack or ""
    return None


def _union(tiles: str, other: str) -> str:
    """The smallest multiset holding both ``tiles`` and ``other``."""
    return sort_tiles(tiles + difference(other, tiles))


def _shared(tiles: str, other: str) -> str:
    """The tiles of ``other`` that ``tiles`` holds too (multisets)."""
    return difference(other, difference(other, tiles))
