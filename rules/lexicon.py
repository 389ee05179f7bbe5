"""Word lists, for adjudicating challenges automatically when one is configured.

The engine never needs a lexicon: without one, the recorded outcome of a challenge
stands. With one, :func:`adjudicate` rules a challenge from the words the last play
formed, and ``validate_append(..., lexicon=...)`` refuses invalid plays under the
``void`` challenge rule. Replay never consults a lexicon: a ruling, once recorded,
is a fact of the game even if the word list changes later.

Usage::

    >>> lexicon = Lexicon.from_lines(["cat", "CATS", "# comment", ""], name="tiny")
    >>> "Cat" in lexicon, "DOG" in lexicon
    (True, False)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.errors import NoPlayToChallengeError
from rules.events import ChallengeOutcome, PlayChallenged
from rules.state import GameState, last_play_words


@dataclass(frozen=True, slots=True)
class Lexicon:
    """A set of acceptable words (upper case); membership is O(1)."""

    words: frozenset[str]
    name: str = ""

    @classmethod
    def from_lines(cls, lines: Iterable[str] | str, *, name: str = "") -> Lexicon:
        """Build a lexicon from lines of text, one word per line.

        Only the first token of a line counts (word lists often follow a word with
        its definition); blank lines and lines starting with ``#`` are skipped.
        """
        if isinstance(lines, str):
            lines = lines.splitlines()
        words = set()
        for line in lines:
            token = line.strip().split(maxsplit=1)
            if token and not token[0].startswith("#"):
                words.add(token[0].upper())
        return cls(frozenset(words), name)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() in self.words

    def __len__(self) -> int:
        return len(self.words)

    def invalid(self, words: Iterable[str]) -> tuple[str, ...]:
        """The words (upper case, in order, without repeats) not in the lexicon."""
        seen: list[str] = []
        for word in words:
            upper = word.upper()
            if upper not in self.words and upper not in seen:
                seen.append(upper)
        return tuple(seen)


def load_lexicon(path: str | os.PathLike[str], *, name: str | None = None) -> Lexicon:
    """Read a word list file (UTF-8, one word per line); named after the file."""
    with open(path, encoding="utf-8") as handle:
        return Lexicon.from_lines(
            handle, name=name if name is not None else os.path.basename(path)
        )


def adjudicate(
    state: GameState,
    lexicon: Lexicon,
    challenger: int,
    words: Sequence[str] = (),
) -> PlayChallenged:
    """Rule a challenge of the last play with the lexicon; return the event to record.

    ``words`` are the words challenged (default: every word the play formed). The
    play is a phony if any of them is not in the lexicon.

    Raises :class:`NoPlayToChallengeError` when there is no play to challenge.
    """
    last = state.last_play
    if last is None or last.challenged:
        raise NoPlayToChallengeError("There is no play to challenge")
    challenged = tuple(word.upper() for word in words) or last_play_words(state)
    bad = lexicon.invalid(challenged)
    outcome = ChallengeOutcome.PHONY if bad else ChallengeOutcome.VALID
    return PlayChallenged(
        challenger=challenger,
        outcome=outcome,
        words=tuple(word.upper() for word in words),
    )
