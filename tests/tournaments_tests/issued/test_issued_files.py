"""Files anyone can verify (issue 34, must-have 1): every file the site issues is
recorded once per distinct body and signed with the site's Ed25519 key; a file
verifies only byte for byte, and a changed one is refused with its first
differing line; a download never touches the tournament's stream."""

from __future__ import annotations

import base64
import io
import re

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, transaction
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from config import checks as site_checks
from games.eventstore.models import StoredEvent
from tests.refusals import refused
from tests.tournaments_tests.ratings.test_exports import drive_open
from tournaments.issued import registry, signing, verification
from tournaments.models import IssuedFile, Tournament
from tournaments.setup import services as setup_services


@pytest.fixture(autouse=True)
def _fresh_signatures():
    """Each test starts with no remembered signatures (they are per process)."""
    registry._SIGNED.clear()
    registry._BY_TAG.clear()
    yield
    registry._SIGNED.clear()
    registry._BY_TAG.clear()


def _download(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.content
    return response


def _verify(client, body, signature=None, name="file.t"):
    data = {"file": _upload(body, name)}
    if signature is not None:
        data["signature"] = _upload(signature, name + ".sig")
    return client.post(reverse("api-verify"), data, format="multipart")


def _upload(body, name):
    stream = io.BytesIO(body)
    stream.name = name
    return stream


def _one_byte_changed(body: bytes, line: int) -> bytes:
    """``body`` with one digit of line ``line`` (1-based) changed."""
    lines = body.split(b"\n")
    text = lines[line - 1]
    match = list(re.finditer(rb"[0-9]", text))[-1]
    digit = b"7" if text[match.start() : match.start() + 1] != b"7" else b"8"
    lines[line - 1] = text[: match.start()] + digit + text[match.start() + 1 :]
    return b"\n".join(lines)


def _digit_line(body: bytes) -> int:
    """A line past the first with a digit in it: the middle one."""
    numbered = [
        number
        for number, line in enumerate(body.split(b"\n"), start=1)
        if number > 1 and re.search(rb"[0-9]", line)
    ]
    return numbered[len(numbered) // 2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("route", "query"),
    [("api-export-naspa-t", "?division=A"), ("api-export-tou", "")],
)
def test_a_downloaded_file_verifies_and_a_one_byte_change_is_refused_with_its_line(
    director, route, query
):
    """The "done when": a ratings officer (signed out) verifies a downloaded .t
    and .TOU, and a one-byte change is refused naming the line."""
    tid = drive_open(director).tournament_id
    officer = APIClient()
    response = _download(officer, reverse(route, args=[tid]) + query)
    body = response.content
    position = Tournament.objects.get(pk=tid).version

    verdict = _verify(officer, body).json()
    assert verdict["valid"] is True, verdict
    assert verdict["tournament"] == str(tid)
    assert verdict["position"] == position
    assert verdict["issued_at"]

    line = _digit_line(body)
    changed = _one_byte_changed(body, line)
    assert len(changed) == len(body)
    assert changed != body
    verdict = _verify(officer, changed).json()
    assert verdict["valid"] is False
    assert verdict["tournament"] == str(tid)
    assert verdict["position"] == position
    assert f"line {line} differs" in verdict["reason"], verdict

    # With the download's signature the record is the one it names.
    signature = base64.b64decode(response["X-Signature"])
    verdict = _verify(officer, changed, signature).json()
    assert verdict["valid"] is False
    assert f"line {line} differs" in verdict["reason"], verdict
    verdict = _verify(officer, body, signature).json()
    assert verdict["valid"] is True, verdict
    assert "signature checks" in verdict["reason"]
    # The header's value itself, saved as a file, is a signature too.
    verdict = _verify(officer, body, response["X-Signature"].encode()).json()
    assert verdict["valid"] is True, verdict

    # A file sharing only its first line with the record is no copy of it: it
    # names no tournament (perhaps one not published).
    stranger = body.split(b"\n")[0] + b"\nsomething else entirely\n"
    verdict = _verify(officer, stranger).json()
    assert verdict["valid"] is False
    assert verdict["tournament"] is None


@pytest.mark.django_db
def test_a_download_is_recorded_and_signed_under_the_published_key(director):
    tid = drive_open(director).tournament_id
    client = APIClient()
    response = _download(client, reverse("api-export-tou", args=[tid]))
    row = IssuedFile.objects.get()
    assert row.sha256 == signing.digest(response.content)
    assert row.tournament_id == tid
    assert row.position == Tournament.objects.get(pk=tid).version
    assert row.kind == "tou"
    assert row.name.endswith(".TOU")
    assert row.issued_to_id is None  # anonymous

    keys = client.get(reverse("api-signing-key")).json()
    (published,) = keys["keys"]
    assert published["current"]
    assert published["id"] == keys["current"]
    public = serialization.load_pem_public_key(published["public_key"].encode())
    document = base64.b64decode(response["X-Signature"])
    signed, _, sig = document.decode().rpartition("signature: ")
    public.verify(base64.b64decode(sig), signed.encode())  # raises if not
    assert f"sha256: {row.sha256}\n" in signed
    assert f"key: {published['id']}\n" in signed

    # The detached .sig: beside the export, and by digest from the Link header.
    beside = client.get(reverse("api-export-tou-sig", args=[tid]))
    assert beside.status_code == 200
    assert beside.content == document
    assert beside["Content-Disposition"].endswith('.TOU.sig"')
    link = re.match(r"<([^>]+)>; rel=\"signature\"", response["Link"]).group(1)
    assert client.get(link).content == document


@pytest.mark.django_db
def test_a_signed_in_download_names_who_asked(director):
    tid = drive_open(director, published=False).tournament_id
    client = APIClient()
    client.force_authenticate(director)
    _download(client, reverse("api-export-naspa-t", args=[tid]))
    assert IssuedFile.objects.get().issued_to_id == director.pk


@pytest.mark.django_db
def test_downloads_add_nothing_to_the_stream_and_a_repeat_adds_no_row(director):
    """tourney.js polled by many readers: one row per distinct body, the
    tournament's version (its ETag) untouched; a result makes the next row."""
    opened = drive_open(director)
    tid = opened.tournament_id
    version = Tournament.objects.get(pk=tid).version
    events = StoredEvent.objects.count()
    url = reverse("tourney-js", args=[tid])
    first = _download(APIClient(), url)
    for _ in range(5):
        again = _download(APIClient(), url)
        assert again["ETag"] == first["ETag"]
        assert again["X-Signature"] == first["X-Signature"]
    # Another worker: the row is there, not written again.
    registry._SIGNED.clear()
    registry._BY_TAG.clear()
    _download(APIClient(), url)
    assert IssuedFile.objects.count() == 1
    assert Tournament.objects.get(pk=tid).version == version
    assert StoredEvent.objects.count() == events
    # A poller holding the body gets a 304, with nothing recorded.
    assert APIClient().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert IssuedFile.objects.count() == 1
    # A change to the tournament: a new body, recorded at its new position.
    setup_services.settings_change(
        tournament_id=tid, changes={"bye_spread": 75}, user=director
    )
    changed = _download(APIClient(), url)
    assert changed["ETag"] != first["ETag"]
    row = IssuedFile.objects.get(sha256=signing.digest(changed.content))
    assert row.position == Tournament.objects.get(pk=tid).version > version
    assert IssuedFile.objects.count() == 2


@pytest.mark.django_db
def test_a_printout_is_issued_once_and_verifies(director):
    tid = drive_open(director).tournament_id
    client = APIClient()
    url = reverse("standings-pdf", args=[tid, "A"])
    first = _download(client, url)
    second = _download(client, url)
    # One row per distinct body: the same minute's printout is the same bytes
    # (no creation time or random id in the PDF); one made in the next minute
    # (its "Printed" line) is a second.
    assert IssuedFile.objects.count() == len({first.content, second.content})
    assert IssuedFile.objects.filter(kind="standings.pdf").exists()
    _download(client, reverse("wall-chart-pdf", args=[tid, "A"]))
    assert IssuedFile.objects.filter(kind="wall-chart.pdf").exists()
    assert _verify(client, first.content, name="s.pdf").json()["valid"] is True


@pytest.mark.django_db
def test_a_copy_with_a_line_added_or_missing_names_it(director):
    tid = drive_open(director).tournament_id
    client = APIClient()
    body = _download(client, reverse("api-export-naspa-t", args=[tid])).content
    lines = body.split(b"\n")
    count = len(lines) - 1  # the last line ends the file
    added = body + b"Extra Player 1500 0 ; 0\n"
    assert f"line {count + 1} was added" in _verify(client, added).json()["reason"]
    missing = b"\n".join([*lines[: count - 2], lines[count - 1], b""])
    reason = _verify(client, missing).json()["reason"]
    assert f"line {count - 1} differs" in reason, reason
    crlf = body.replace(b"\n", b"\r\n")
    assert "line ends differ" in _verify(client, crlf).json()["reason"]


@pytest.mark.django_db
def test_the_register_is_append_only(director):
    tid = drive_open(director).tournament_id
    _download(APIClient(), reverse("api-export-absp-csv", args=[tid]))
    row = IssuedFile.objects.get()
    with pytest.raises(DatabaseError), transaction.atomic():
        IssuedFile.objects.filter(pk=row.pk).update(position=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        IssuedFile.objects.filter(pk=row.pk).delete()


@pytest.mark.django_db
def test_a_tampered_or_foreign_signature_is_not_valid(director):
    tid = drive_open(director).tournament_id
    client = APIClient()
    response = _download(client, reverse("api-export-tou", args=[tid]))
    document = base64.b64decode(response["X-Signature"])
    moved = re.sub(rb"position: [0-9]+", b"position: 1", document)
    verdict = _verify(client, response.content, moved).json()
    assert verdict["valid"] is False
    assert "does not check" in verdict["reason"]

    other = Ed25519PrivateKey.generate()
    _payload, signed, _ = signing.read_document(document)
    forged = signed + b"signature: " + base64.b64encode(other.sign(signed)) + b"\n"
    verdict = _verify(client, response.content, forged).json()
    assert verdict["valid"] is False
    assert "does not check" in verdict["reason"]


@pytest.mark.django_db
def test_a_file_this_site_never_issued_is_not_valid():
    verdict = _verify(APIClient(), b"#division A\nnobody 1500 0 ; 0\n").json()
    assert verdict == {
        "valid": False,
        "tournament": None,
        "position": None,
        "issued_at": None,
        "reason": verdict["reason"],
    }
    assert "no file issued by this site" in verdict["reason"]


@pytest.mark.django_db
def test_bad_input_is_a_400_naming_the_field(settings):
    client = APIClient()
    refused(client.post(reverse("api-verify"), {}, format="multipart"), field="file")
    refused(_verify(client, b"a file", b"not a signature at all"), field="signature")
    big = b"x" * (verification.MAX_VERIFY_BYTES + 1)
    body = refused(_verify(client, big), field="file")
    assert "at most" in body["message"]
    assert IssuedFile.objects.count() == 0


@pytest.mark.django_db
def test_signed_out_verifiers_are_rate_limited(settings):
    settings.ANONYMOUS_HEAVY_READS_PER_MINUTE = 2
    client = APIClient()
    answers = [_verify(client, b"x\n").status_code for _ in range(3)]
    assert answers[:2] == [200, 200]
    assert answers[2] == 429


def _key_file(tmp_path, name):
    key = Ed25519PrivateKey.generate()
    private = tmp_path / f"{name}.pem"
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    public = tmp_path / f"{name}.pub.pem"
    public.write_text(signing.public_pem(key.public_key()))
    return private, public


@pytest.mark.django_db
def test_after_a_rotation_files_signed_under_the_old_key_still_verify(
    director, tmp_path
):
    old_private, old_public = _key_file(tmp_path, "old")
    new_private, _ = _key_file(tmp_path, "new")
    tid = drive_open(director).tournament_id
    client = APIClient()
    with override_settings(FILE_SIGNING_KEY=str(old_private)):
        response = _download(client, reverse("api-export-tou", args=[tid]))
    old_signature = base64.b64decode(response["X-Signature"])
    with override_settings(
        FILE_SIGNING_KEY=str(new_private), FILE_SIGNING_OLD_KEYS=[str(old_public)]
    ):
        keys = client.get(reverse("api-signing-key")).json()
        assert len(keys["keys"]) == 2
        assert [key["current"] for key in keys["keys"]] == [True, False]
        verdict = _verify(client, response.content, old_signature).json()
        assert verdict["valid"] is True, verdict
        # The same file downloaded now is signed under the new key.
        again = _download(client, reverse("api-export-tou", args=[tid]))
        assert f"key: {keys['current']}".encode() in base64.b64decode(
            again["X-Signature"]
        )
    with override_settings(FILE_SIGNING_KEY=str(new_private)):
        # The old key no longer published: its signatures are not this site's.
        verdict = _verify(client, response.content, old_signature).json()
        assert verdict["valid"] is False
        assert "not this site's" in verdict["reason"]


def test_production_requires_a_signing_key(settings, tmp_path):
    settings.DEBUG = False
    settings.FILE_SIGNING_KEY = ""
    settings.FILE_SIGNING_KEY_FROM_SECRET = False
    assert [m.id for m in site_checks.file_signing_key()] == ["site.E001"]
    with pytest.raises(signing.SignatureError, match="FILE_SIGNING_KEY is not set"):
        signing.site_key()
    settings.FILE_SIGNING_KEY = str(tmp_path / "missing.pem")
    assert [m.id for m in site_checks.file_signing_key()] == ["site.E001"]
    private, _ = _key_file(tmp_path, "site")
    settings.FILE_SIGNING_KEY = str(private)
    assert site_checks.file_signing_key() == []


def test_verify_file_checks_offline_with_only_the_public_key(tmp_path, settings):
    """No database (this test has none): the file, its .sig and the public key."""
    private, public = _key_file(tmp_path, "site")
    settings.FILE_SIGNING_KEY = str(private)
    body = b"#division A\nAnn Able 1800 2 ; 400\n"
    payload = signing.Payload(
        key=signing.current_key_id(),
        tournament="6d0f6c0e-0000-4000-8000-000000000001",
        position=42,
        issued_at="2026-11-27T16:20:00Z",
        file="open.t",
        sha256=signing.digest(body),
        size=len(body),
    )
    (tmp_path / "open.t").write_bytes(body)
    (tmp_path / "open.t.sig").write_bytes(signing.sign(payload))
    out = io.StringIO()
    call_command(
        "verify_file", str(tmp_path / "open.t"), "--public-key", str(public), stdout=out
    )
    assert "valid:" in out.getvalue()
    assert "log position 42" in out.getvalue()

    (tmp_path / "open.t").write_bytes(body.replace(b"400", b"401"))
    with pytest.raises(CommandError, match=r"NOT valid: .* not the file the signature"):
        call_command(
            "verify_file",
            str(tmp_path / "open.t"),
            "--signature",
            str(tmp_path / "open.t.sig"),
            "--public-key",
            str(public),
        )
    _, stranger = _key_file(tmp_path, "stranger")
    (tmp_path / "open.t").write_bytes(body)
    with pytest.raises(CommandError, match="not this site's"):
        call_command(
            "verify_file", str(tmp_path / "open.t"), "--public-key", str(stranger)
        )


@pytest.mark.django_db
def test_the_page_names_the_tournament_only_to_its_readers(director, client):
    """An unpublished tournament's file: the officer signed out sees the verdict
    and the id (the file's holder has it), its director sees the name too."""
    tid = drive_open(director, published=False).tournament_id
    reader = APIClient()
    reader.force_authenticate(director)
    body = _download(reader, reverse("api-export-tou", args=[tid])).content
    page = client.post(reverse("verify"), {"file": _upload(body, "open.TOU")})
    text = page.content.decode()
    assert page.status_code == 200
    assert "Valid: issued by this site" in text
    assert str(tid) in text
    assert "Riverside Ratings Open" not in text
    client.force_login(director)
    page = client.post(reverse("verify"), {"file": _upload(body, "open.TOU")})
    assert "Riverside Ratings Open" in page.content.decode()


@pytest.mark.django_db
def test_the_page_puts_bad_input_on_its_field(client):
    page = client.post(reverse("verify"), {})
    assert page.status_code == 400
    assert 'id="id_file-error"' in page.content.decode()
    page = client.post(
        reverse("verify"),
        {"file": _upload(b"x\n", "x.t"), "signature": _upload(b"junk", "x.sig")},
    )
    assert page.status_code == 400
    assert 'id="id_signature-error"' in page.content.decode()
    assert "not a signature" in page.content.decode()


@pytest.mark.django_db
def test_a_file_downloaded_at_a_past_position_is_recorded_at_it_and_verifies(
    director,
):
    """``?at=`` (issue 34, item 2) with signed files: the past's read runs in a
    transaction that is rolled back, so its record is written after it, at the
    position shown, not the present's."""
    tid = drive_open(director).tournament_id
    present = Tournament.objects.get(pk=tid).version
    client = APIClient()
    now = _download(client, reverse("tourney-js", args=[tid]))
    then = _download(client, reverse("tourney-js", args=[tid]) + f"?at={present - 2}")
    assert then.content != now.content
    row = IssuedFile.objects.get(sha256=signing.digest(then.content))
    assert row.position == present - 2
    registry._SIGNED.clear()
    registry._BY_TAG.clear()
    verdict = _verify(client, then.content, base64.b64decode(then["X-Signature"]))
    assert verdict.json()["valid"] is True, verdict.json()
    assert verdict.json()["position"] == present - 2
