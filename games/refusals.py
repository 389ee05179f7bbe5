"""How a page shows a refusal: the one way for every form of games and tournaments.

A rule's refusal (``rules.errors.RulesError``, or the store's ``EventRejectedError``
carrying one) names the field at fault; the page shows its message next to that
field, else at the top of the form. A GCG file's problems are shown each with its
line. Nothing was stored in either case.

Usage::

    show_refusal(form, error, {"score_a": "a_score"})       # rule field -> form field
    show_refusal(form, error, fields, prefix="Line 3: ")
    show_gcg_problems(form, error)                           # on the "file" field
"""

from __future__ import annotations

from typing import Any

from rules.errors import GcgError


def show_refusal(
    form: Any, error: Any, fields: dict[str, str], prefix: str = ""
) -> None:
    """Show a rule's refusal next to the form field it names (else at the top)."""
    target = fields.get(getattr(error, "field", None) or "")
    message = f"{prefix}{getattr(error, 'message', str(error))}"
    form.add_error(target if target in form.fields else None, message)


def show_gcg_problems(form: Any, error: GcgError, field: str = "file") -> None:
    """Each problem of a GCG file that cannot be read, with its line."""
    for line, _code, message in error.problems:
        form.add_error(field, f"Line {line}: {message}" if line else message)
