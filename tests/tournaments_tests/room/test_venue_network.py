"""The room reaches the site: the run command serves the venue's network when asked
(``./run.sh 0.0.0.0:8000``), answers at the addresses it prints, and every printed
link and QR code carries the address the players' phones reach (SITE_URL, else the
request's own)."""

from __future__ import annotations

import io
import socket
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.test import Client

from config.env import EnvError, env_site_url
from games.management.commands import serve
from tests.tournaments_tests.room.test_printouts import pdf_text
from tournaments.room import printouts

LAN_IP = "192.168.1.20"


def _interfaces() -> dict[str, list[SimpleNamespace]]:
    """psutil.net_if_addrs() of a laptop on a venue's Wi-Fi."""

    def addr(family: int, address: str) -> SimpleNamespace:
        return SimpleNamespace(family=family, address=address)

    return {
        "lo": [addr(socket.AF_INET, "127.0.0.1"), addr(socket.AF_INET6, "::1")],
        "wlan0": [
            addr(socket.AF_INET, LAN_IP),
            addr(socket.AF_INET6, "fe80::1c2b:3dff:fe4e:5f60%wlan0"),
        ],
        "docker0": [addr(socket.AF_INET, "169.254.10.1")],
    }


@pytest.fixture
def qr_links(monkeypatch) -> list[str]:
    """Every address a QR code is drawn for."""
    drawn: list[str] = []
    original = printouts.qr_drawing

    def spy(url: str, *args, **kwargs):
        drawn.append(url)
        return original(url, *args, **kwargs)

    monkeypatch.setattr(printouts, "qr_drawing", spy)
    return drawn


@pytest.fixture
def serve_without_serving(monkeypatch):
    """``manage.py serve`` up to the server itself: no migrate, no watchdog, and
    the given function instead of uvicorn; what it says, on stdout and stderr.
    ALLOWED_HOSTS restored afterwards."""
    monkeypatch.setattr(
        django_settings, "ALLOWED_HOSTS", list(django_settings.ALLOWED_HOSTS)
    )
    monkeypatch.setattr(serve, "call_command", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve, "watch_embedded_postgres", lambda: None)
    monkeypatch.setattr("psutil.net_if_addrs", _interfaces)

    def run(addrport: str, while_serving) -> str:
        monkeypatch.setattr(serve, "run_server", while_serving)
        out = io.StringIO()
        serve.Command(stdout=out, stderr=out).handle(addrport=addrport, no_demo=True)
        return out.getvalue()

    return run


def _scorecards(client: Client, tid, host: str | None = None):
    extra = {"HTTP_HOST": host} if host else {}
    return client.get(f"/tournaments/{tid}/divisions/A/scorecards.pdf", **extra)


@pytest.mark.django_db
def test_on_the_venue_network_a_scorecard_printed_by_the_lan_address_has_lan_links(
    client, director, club_night, qr_links, serve_without_serving
):
    tid, ids = club_night
    client.force_login(director)
    seen = {}

    def while_serving(host: str, port: int) -> None:
        seen["bound"] = (host, port)
        # A director's browser on the venue's network, by the address printed.
        seen["response"] = _scorecards(client, tid, host=f"{LAN_IP}:8000")

    said = serve_without_serving("0.0.0.0:8000", while_serving)

    assert seen["bound"] == ("0.0.0.0", 8000)
    assert f"http://{LAN_IP}:8000/" in said
    # No address a phone cannot reach is offered.
    assert "127.0.0.1:8000" not in said.replace("Serving on http://0.0.0.0:8000/", "")
    assert "fe80" not in said
    assert "169.254" not in said
    text, _ = pdf_text(seen["response"])
    ann = f"http://{LAN_IP}:8000/tournaments/{tid}/players/{ids[1]}/"
    assert ann in text.replace("\n", "")
    assert ann in qr_links
    assert all(link.startswith(f"http://{LAN_IP}:8000/") for link in qr_links)
    assert len(qr_links) == 4  # a scorecard a player


@pytest.mark.django_db
def test_served_on_one_address_it_answers_there(
    client, director, club_night, serve_without_serving
):
    tid, _ = club_night
    client.force_login(director)
    seen = {}

    def while_serving(host: str, port: int) -> None:
        seen["bound"] = (host, port)
        seen["status"] = _scorecards(client, tid, host=f"{LAN_IP}:8001").status_code

    said = serve_without_serving(f"{LAN_IP}:8001", while_serving)

    assert seen == {"bound": (LAN_IP, 8001), "status": 200}
    assert f"http://{LAN_IP}:8001/" in said


@pytest.mark.django_db
def test_served_on_this_computer_only_it_says_how_to_serve_the_room(
    serve_without_serving,
):
    seen = []
    said = serve_without_serving("127.0.0.1:8000", lambda *bound: seen.append(bound))

    assert seen == [("127.0.0.1", 8000)]
    assert "./run.sh 0.0.0.0:8000" in said
    assert LAN_IP not in said
    assert LAN_IP not in django_settings.ALLOWED_HOSTS


def test_the_serve_command_reads_an_ipv6_address_in_brackets():
    assert serve.address("[::]:8000") == ("::", 8000)
    assert serve.address("0.0.0.0:8000") == ("0.0.0.0", 8000)
    assert serve.address("8000") == ("127.0.0.1", 8000)


@pytest.mark.django_db
def test_the_qr_codes_and_links_carry_site_url_when_it_is_set(
    client, director, club_night, qr_links, settings
):
    tid, ids = club_night
    settings.SITE_URL = "http://scrabble.lan:8000"
    client.force_login(director)

    text, _ = pdf_text(_scorecards(client, tid))

    ann = f"http://scrabble.lan:8000/tournaments/{tid}/players/{ids[1]}/"
    assert ann in text.replace("\n", "")
    assert ann in qr_links
    assert all(link.startswith("http://scrabble.lan:8000/") for link in qr_links)


@pytest.mark.django_db
def test_without_site_url_the_qr_codes_carry_the_request_address(
    client, director, club_night, qr_links, settings
):
    tid, ids = club_night
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, LAN_IP]
    client.force_login(director)

    pdf_text(_scorecards(client, tid, host=f"{LAN_IP}:8000"))

    assert f"http://{LAN_IP}:8000/tournaments/{tid}/players/{ids[1]}/" in qr_links


def test_site_url_is_read_as_scheme_and_host(monkeypatch):
    monkeypatch.setenv("SITE_URL", "http://192.168.1.20:8000/")
    assert env_site_url() == "http://192.168.1.20:8000"
    monkeypatch.delenv("SITE_URL")
    assert env_site_url() == ""
    for wrong in ("192.168.1.20:8000", "ftp://x", "http://x/scrabble", "http://x:port"):
        monkeypatch.setenv("SITE_URL", wrong)
        with pytest.raises(EnvError, match="SITE_URL"):
            env_site_url()


@pytest.mark.django_db
def test_on_the_venue_network_it_warns_that_the_demo_sign_ins_still_work(
    django_user_model, serve_without_serving
):
    django_user_model.objects.create_user("director", password="director")
    django_user_model.objects.create_user("dev", password="a real password")
    said = serve_without_serving("0.0.0.0:8000", lambda *bound: None)

    assert "the demo's sign-ins (director/director) still work" in said
    assert "dev/dev" not in said
