"""`sgsdsl studio` through its HTTP API, on a real uvicorn server on loopback: the guards (token, host,
origin), a whole game answered through the API, live rules checks and restart, replays whose hashes are
`replay`'s, watch mode, and the CLI's usage errors. The page itself is tested in chromium
(tests/test_studio_browser.py, `-m browser`)."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.replay import replay_file
from studio_support import game_state, running_studio, wait_for


def _client(served, token: bool = True, **headers: str) -> httpx.Client:
    base = f"http://127.0.0.1:{served.studio.port}"
    if token:
        headers.setdefault("X-Studio-Token", served.studio.token)
    return httpx.Client(base_url=base, headers=headers, timeout=30)


def _answer_until_over(served, client: httpx.Client, limit: float = 120, until=None) -> dict:
    """Answer every question with its first legal choice until the game ends (or UNTIL holds of the state)."""
    answered = 0
    until = until or (lambda g: g["finished"])

    def step():
        nonlocal answered
        g = game_state(served)
        if g and until(g):
            return g
        if g and g["question"]:
            q = g["question"]
            r = client.post("/api/answer", json={"picks": list(range(max(q["low"], 0)))})
            if r.status_code == 200:
                answered += 1
        return None

    return wait_for(step, limit, "the game to end")


def test_guards_refuse_missing_token_other_hosts_and_origins(tmp_path: Path) -> None:
    with running_studio(tmp_path) as served:
        st = served.studio
        with _client(served, token=False) as c:
            assert c.get("/").status_code == 403
            assert c.get("/api/setup").status_code == 403
            assert c.get("/api/setup", params={"t": "wrong"}).status_code == 403
            assert c.post("/api/start", json={}).status_code == 403
            ok = c.get("/", params={"t": st.token})
            assert ok.status_code == 200 and "sgsdsl studio" in ok.text
            csp = ok.headers["content-security-policy"]
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp
            assert ok.headers["referrer-policy"] == "no-referrer"
        with _client(served, Host="evil.example:80") as c:  # a rebound DNS name reaching loopback
            assert c.get("/api/setup").status_code == 403
        with _client(served, Origin="http://evil.example") as c:
            r = c.post("/api/start", json={})
            assert r.status_code == 403 and "other sites" in r.json()["error"]
        with _client(served, Origin=f"http://127.0.0.1:{st.port}") as c:
            assert c.get("/api/setup").status_code == 200
            # only the page's own files are served: no path reaches the disk
            assert c.get("/static/studio.js").status_code == 200
            for probe in ("/static/..%2f..%2fapp.py", "/static/app.py", "/static/index.html%00", "/etc/passwd"):
                assert c.get(probe).status_code == 404, probe


def test_server_binds_loopback_only(tmp_path: Path) -> None:
    with running_studio(tmp_path) as served:
        assert served.server.servers and all(
            s.getsockname()[0] == "127.0.0.1" for srv in served.server.servers for s in srv.sockets)


def test_a_whole_game_through_the_api_and_its_replay(tmp_path: Path) -> None:
    with running_studio(tmp_path, {"general": "shilian"}) as served, _client(served) as c:
        info = c.get("/api/setup").json()
        assert "试炼者" in {g["name"] for g in info["generals"]}
        assert "at the start of your turn" in info["catalogue"]["skills"]["勤学"]
        r = c.post("/api/start", json={"players": 4, "seat": 0, "seed": 7, "general": "shilian"})
        assert r.status_code == 200, r.text
        first = _answer_until_over(served, c, 30, until=lambda g: g["question"] and g["table"]["round"] >= 1)
        me = first["table"]["seats"][0]
        assert me["general"] == "试炼者" and "hand" in me  # your own hand as cards
        assert all("hand" not in s for s in first["table"]["seats"][1:])  # others' hands are counts
        assert all(s["role"] == "hidden" for s in first["table"]["seats"][1:] if s["role"] != "lord")
        bad = c.post("/api/answer", json={"picks": [999]})
        assert bad.status_code == 400 and "there is no option 999" in bad.json()["error"]
        assert c.post("/api/answer", json={"picks": "0"}).status_code == 400
        done = _answer_until_over(served, c)
        assert done["table"]["result"] is not None and done["error"] is None
        narration = "\n".join(done["narration"])
        assert "game over" in narration and "勤学" in narration
        saved = c.post("/api/save-log").json()
        name = saved["name"]
        opened = c.post("/api/replay", json={"name": name}).json()
        assert opened["index"] == 0 and opened["count"] > 2
        last_decision = c.get("/api/frame", params={"i": opened["count"] - 2}).json()
        n, last_hash = replay_file(tmp_path / "logs" / name, "compiled")
        assert last_decision["hash"] == last_hash and n == opened["count"] - 1
        end = c.get("/api/frame", params={"i": 10**6}).json()  # clamped to the last frame: the game's end
        assert end["index"] == opened["count"] - 1 and end["table"]["result"] == done["table"]["result"]
        assert all("hand" in s for s in end["table"]["seats"])  # a replay is a review: every hand shown
        assert c.post("/api/replay", json={"name": "../../etc/passwd"}).status_code == 404


def test_setup_errors_are_clear(tmp_path: Path) -> None:
    with running_studio(tmp_path) as served, _client(served) as c:
        cases = {
            "players": ({"players": 40}, "players"),
            "mode": ({"mode": "nosuchmode"}, "nosuchmode"),
            "general": ({"general": "liubie"}, "did you mean"),
            "opponents": ({"opponents": "gods"}, "no agent kind"),
            "option": ({"options": "nosuch=1"}, "nosuch"),
            "pool": ({"pool": "/etc/passwd"}, "no general"),
            "seat": ({"seat": 9}, "seat"),
        }
        for name, (body, word) in cases.items():
            r = c.post("/api/start", json=body)
            assert r.status_code == 400 and word in r.json()["error"], (name, r.text)
        assert c.post("/api/start", content=b"{not json", headers={"Content-Type": "application/json"}
                      ).status_code == 400
        assert c.post("/api/start", content=b"x" * 100_000).status_code == 413
        assert c.post("/api/answer", json={"picks": [0]}).json()["error"] == "no game is running"


def test_saving_a_rules_file_rechecks_it_and_restart_uses_the_new_rules(tmp_path: Path) -> None:
    with running_studio(tmp_path, {"general": "shilian"}) as served, _client(served) as c:
        st = served.studio
        assert c.post("/api/start", json={"general": "shilian", "seed": 3}).status_code == 200
        design = tmp_path / "design.sgs"
        good = design.read_text(encoding="utf-8")
        design.write_text(good.replace("draw(owner, 1)", "drow(owner, 1)"), encoding="utf-8")
        rules = wait_for(lambda: (r := st.hub.snapshot()[1]["rules"]) and not r["ok"] and r, 30, "the diagnostic")
        d = rules["diagnostics"][0]
        assert d["code"].startswith("SGS-E") and d["file"].endswith("design.sgs") and d["line"] == 11
        assert "drow(owner, 1)" in d["text"] and "^" in d["text"] and "draw" in d["text"]  # caret, did you mean
        r = c.post("/api/restart")
        assert r.status_code == 409 and "do not check cleanly" in r.json()["error"]
        design.write_text(good.replace("draw(owner, 1)", "draw(owner, 2)").replace("studies", "studies hard"),
                          encoding="utf-8")
        fixed = wait_for(lambda: (r := st.hub.snapshot()[1]["rules"]) and r["ok"] and r, 30, "the clean re-check")
        assert fixed["changed"] and fixed["version"] == 2
        assert c.post("/api/restart").json() == {"ok": True, "seed": 3}
        g = _answer_until_over(served, c)
        assert any("studies hard" in line for line in g["narration"])  # the new rule is the one in play


def test_watch_mode_plays_agents_to_the_end_and_a_new_game_cancels_the_old(tmp_path: Path) -> None:
    with running_studio(tmp_path) as served, _client(served) as c:
        assert c.post("/api/start", json={"watch": True, "delay": 5, "players": 5}).status_code == 200
        wait_for(lambda: (g := game_state(served)) and g["watch"] and g["table"]["round"] >= 1, 30, "watching")
        old = served.studio.sessions.current
        assert c.post("/api/start", json={"watch": True, "delay": 0, "players": 5}).status_code == 200
        assert not old.thread.is_alive()  # the paced game was cancelled, not left waiting
        g = wait_for(lambda: (g := game_state(served)) and g["finished"] and g, 120, "the watched game to end")
        assert g["seat"] is None and g["table"]["result"] is not None
        assert all("hand" in s for s in g["table"]["seats"])  # a spectator sees every hand
        names = {t.name for t in threading.enumerate()}
        assert not any(n.startswith("studio-game-") and n != f"studio-game-{g['id']}" for n in names)


def test_broken_rules_at_start_are_shown_not_fatal(tmp_path: Path) -> None:
    design = tmp_path / "mine.sgs"
    design.write_text('import "standard"\n'
                      'general 甲 jia : 蜀 male 4 { skill 乙 yi { on nosuch { draw(owner, 1) } } }\n', encoding="utf-8")
    from sgsdsl.studio.workspace import Workspace

    ws = Workspace([str(design)], [design])
    assert not ws.reload()
    status = ws.status()
    assert not status["ok"] and status["diagnostics"][0]["line"] == 2


@pytest.mark.parametrize("args, message", [
    (["--port", "70000"], "70000"),
    (["--opponents", "gods"], "no agent kind"),
    (["nosuch.sgs"], "nosuch.sgs"),
    (["--log", "nosuch.jsonl"], "no such file"),
    (["/dev/null"], "not a regular file"),  # no save could fix it: refused, not served
    (["--general", "x", "--seat", "9"], "--seat 9"),
])
def test_cli_usage_errors(args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, ["studio", "--no-browser", *args])
    assert r.exit_code == 2 and message in r.output, r.output
