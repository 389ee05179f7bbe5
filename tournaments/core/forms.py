"""What the console's forms share: the field of a lexicon, number inputs, and the
bounds of a plausible score. (A refusal goes on the field it names through
``games.refusals.show_refusal``, the one way every page shows one.)
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

# A final score outside these bounds is possible but rare enough that it is more
# likely a typing slip (a digit dropped or doubled): the director confirms it.
PLAUSIBLE_MIN = 100


PLAUSIBLE_MAX = 800


def lexicon_field(**options: Any) -> forms.CharField:
    """A lexicon's short name; the help names the word lists the server has."""
    configured = ", ".join(sorted(getattr(settings, "LEXICONS", {}))) or "none"
    return forms.CharField(
        label="Lexicon",
        max_length=32,
        required=False,
        help_text="Its short name, e.g. CSW24, NWL23, OSPS49. This server rules"
        f" challenges with: {configured}.",
        **options,
    )


def number_input(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", **attrs})
