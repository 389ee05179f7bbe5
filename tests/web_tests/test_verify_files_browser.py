"""Issue 34's "done when" in a browser: a signed-out ratings officer downloads a
.t and a .TOU (and the .t's .sig) from the public ratings page, follows its link
to the verify page, sees each verified, and sees a one-byte change refused with
its line."""

from __future__ import annotations

import re

import pytest

from tests.tournaments_tests.ratings.test_exports import drive_open
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _download(page, link_name, folder):
    with page.expect_download() as info:
        page.get_by_role("link", name=link_name, exact=True).click()
    download = info.value
    path = folder / download.suggested_filename
    download.save_as(path)
    return path


def _changed(path, folder):
    """The file with one digit changed in a line past the first: its path and the
    line's number."""
    lines = path.read_bytes().split(b"\n")
    number = next(
        n
        for n in range(len(lines) // 2, len(lines) + 1)
        if re.search(rb"[0-9]", lines[n - 1])
    )
    text = lines[number - 1]
    at = [m.start() for m in re.finditer(rb"[0-9]", text)][-1]
    digit = b"7" if text[at : at + 1] != b"7" else b"8"
    lines[number - 1] = text[:at] + digit + text[at + 1 :]
    changed = folder / f"changed-{path.name}"
    changed.write_bytes(b"\n".join(lines))
    return changed, number


def _verify(page, file, signature=None):
    page.set_input_files("#id_file", str(file))
    if signature is not None:
        page.set_input_files("#id_signature", str(signature))
    page.get_by_role("button", name="Verify").click()
    return page.locator("#verdict")


def test_an_officer_verifies_a_t_and_a_tou_and_sees_a_one_byte_change_refused(
    live_server, page, director, tmp_path, artifacts
):
    tid = drive_open(director).tournament_id
    position = Tournament.objects.get(pk=tid).version
    page.goto(f"{live_server.url}/tournaments/{tid}/ratings")
    t_file = _download(page, "NASPA .t, division A", tmp_path)
    signatures = page.get_by_role("link", name=".sig", exact=True)
    with page.expect_download() as info:
        signatures.first.click()
    t_sig = tmp_path / info.value.suggested_filename
    info.value.save_as(t_sig)
    assert t_sig.name.endswith(".t.sig")
    tou_file = _download(page, "AUPAIR .TOU", tmp_path)

    page.get_by_role("link", name="verify a file").click()
    page.wait_for_url(re.compile(r"/verify/$"))

    verdict = _verify(page, t_file, t_sig)
    assert verdict.locator("h2").inner_text() == "Valid: issued by this site"
    assert "the signature checks" in verdict.inner_text()
    assert f"Log position\n{position}" in verdict.inner_text()
    assert verdict.get_by_role("link", name="Riverside Ratings Open").is_visible()

    verdict = _verify(page, tou_file)
    assert verdict.locator("h2").inner_text() == "Valid: issued by this site"

    for original, signature in ((t_file, t_sig), (tou_file, None)):
        changed, line = _changed(original, tmp_path)
        assert len(changed.read_bytes()) == len(original.read_bytes())
        verdict = _verify(page, changed, signature)
        assert verdict.locator("h2").inner_text() == "Not valid"
        assert f"Line {line} differs from the file issued at position {position}" in (
            verdict.locator("#reason").inner_text()
        )
    page.screenshot(path=str(artifacts / "verify-refused.png"), full_page=True)
