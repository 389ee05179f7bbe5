"""Every turn page of the six real games renders exactly as it did when the digests
in ``golden/game_pages.sha256`` were taken.

The pages are rendered for a signed-out reader (every turn) and for the game's owner
(the start and the end, with the note form, and the recorder), with the game's id and
the CSRF token replaced by placeholders, and each page's sha256 is compared with the
committed one. A change to the viewer's markup is then a deliberate act: rerun with
``UPDATE_GOLDEN=1`` and commit the new digests with the change that explains them::

    UPDATE_GOLDEN=1 ./test.sh tests/web_tests/test_game_pages_golden.py
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import services as game_services
from tests.web_tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parent / "golden" / "game_pages.sha256"
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+(")')


def _normalised(body: bytes, game_id: object) -> bytes:
    text = body.decode().replace(str(game_id), "GAME-ID")
    return CSRF.sub(r"\1CSRF\2", text).encode()


def _page(client: Client, url: str, game_id: object) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    return _normalised(response.content, game_id)


def _pages(client: Client, owner: Client, name: str, game_id: object):
    """(label, normalised body) of every page this test pins for one game."""
    final = client.get(reverse("game-detail", args=[game_id]))
    count = int(re.search(rb"Turn (\d+) of \1", final.content).group(1))
    yield f"{name} anonymous final", _normalised(final.content, game_id)
    for index in range(count + 1):
        url = reverse("game-turn", args=[game_id, index])
        yield f"{name} anonymous turn {index}", _page(client, url, game_id)
    for index in (0, 1, count):
        url = reverse("game-turn", args=[game_id, index])
        yield f"{name} owner turn {index}", _page(owner, url, game_id)
    url = reverse("game-record", args=[game_id])
    yield f"{name} owner recorder", _page(owner, url, game_id)


def _digests(shared_gcg_dir: Path, user) -> dict[str, str]:
    client, owner = Client(), Client()
    assert owner.login(username=user.username, password=PASSWORD)
    digests = {}
    for name in sorted(path.name for path in shared_gcg_dir.glob("*.gcg")):
        result, _ = game_services.game_import_gcg(
            text=(shared_gcg_dir / name).read_bytes(), user=user, visibility="public"
        )
        for label, body in _pages(client, owner, name, result.stream.id):
            digests[label] = hashlib.sha256(body).hexdigest()
    return digests


def _read_golden() -> dict[str, str]:
    digests = {}
    for line in GOLDEN.read_text().splitlines():
        digest, label = line.split("  ", 1)
        digests[label] = digest
    return digests


def test_every_turn_page_of_the_real_games_is_unchanged(shared_gcg_dir, director):
    digests = _digests(shared_gcg_dir, director)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(
            "".join(f"{digest}  {label}\n" for label, digest in digests.items())
        )
    golden = _read_golden()
    changed = [label for label, value in digests.items() if golden.get(label) != value]
    changed += sorted(set(golden) - set(digests))
    assert not changed, (
        f"{len(changed)} game pages render differently from the committed digests "
        f"(first: {changed[:5]}). If the change is meant, run UPDATE_GOLDEN=1 "
        "./test.sh tests/web_tests/test_game_pages_golden.py and commit the digests."
    )
