"""`sgsdsl docs`: the catalogue lists every card, general and mode, links skills to the scenarios that cover
them, and its search works in a real headless browser (Debian's chromium; .ci/run installs it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.api import check_paths
from sgsdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    r = CliRunner().invoke(main, ["docs", str(ROOT / "rules"), "-o", str(out), "--scenarios",
                                  str(ROOT / "tests" / "scenarios")])
    assert r.exit_code == 0, r.output
    return out


class Entries(HTMLParser):
    """The catalogue's entries: id → (hidden?, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[str, list] = {}
        self.current: list[str] = []
        self.depth = 0
        self.links: list[str] = []
        self.count = ""
        self._in_count = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "article":
            key = a.get("id") or f"anon-{len(self.entries)}"
            self.entries[key] = ["hidden" in a, ""]
            self.current.append(key)
        if tag == "a" and self.current and a.get("href", "").startswith("scenarios/"):
            self.links.append(f"{self.current[-1]} {a['href']}")
        self._in_count = a.get("id") == "count"

    def handle_endtag(self, tag: str) -> None:
        if tag == "article" and self.current:
            self.current.pop()

    def handle_data(self, data: str) -> None:
        if self.current:
            self.entries[self.current[-1]][1] += data
        if self._in_count:
            self.count += data


def parse(text: str) -> Entries:
    p = Entries()
    p.feed(text)
    return p


def test_every_card_general_and_mode_is_listed(site: Path) -> None:
    loaded = check_paths([str(ROOT / "rules" / "junzheng.sgs")])  # with standard.sgs, which it imports
    assert loaded.checked is not None
    page = parse((site / "index.html").read_text(encoding="utf-8"))
    def entry(kind: str, m, ident: str) -> str:  # another file defining the same id: anchor names the file
        return page.entries.get(f"{kind}-{Path(m.path).stem}-{ident}", page.entries.get(f"{kind}-{ident}"))[1]

    for m in loaded.checked.modules:
        for c in m.cards:
            faces = entry("card", m, c.ident.text)
            assert c.name.text in faces and (f"{len(c.copies)} cop" in faces or not c.copies)
        for g in m.generals:
            text = entry("general", m, g.ident.text)
            assert f"{g.hp} HP" in text and g.kingdom.text in text
            assert all(s.name.text in text for s in g.skills)
        for md in m.modes:
            text = entry("mode", m, md.ident.text)
            assert md.name.text in text and all(o.name.text in text for o in md.options)
            assert all(" ".join(x.text for x in r.roles) in text for r in md.roles)
    identity = entry("mode", loaded.checked.modules[0], "identity")
    assert "4–10 players" in identity and "lord loyalist rebel renegade" in identity and "two_renegades" in identity
    assert "each seat alone (solo): renegade" in identity
    caocao = entry("general", loaded.checked.modules[0], "caocao")
    assert "奸雄" in caocao and "你可以获得对你造成伤害的牌" in caocao  # the skill's printed text


def test_skills_link_the_scenarios_that_name_them(site: Path) -> None:
    page = parse((site / "index.html").read_text(encoding="utf-8"))
    links = [x.split(" ", 1) for x in page.links]
    jianxiong = [href for owner, href in links if owner.endswith("caocao") and "jianxiong" in href]
    assert "scenarios/skills_jianxiong.scenario.html" in jianxiong
    for _, href in links:
        target = site / href
        assert target.is_file(), href
    text = (site / "scenarios/skills_jianxiong.scenario.html").read_text(encoding="utf-8")
    assert "rule:" in text and "奸雄" in text


def test_skills_say_what_agents_read_of_them(site: Path) -> None:
    """Each skill says what an agent reads of it: its hints, and where an action or optional trigger that names
    characters could be aimed, as the engine shows it beforehand (interp/reach.py), or that it shows none, and
    whether a yes to an optional trigger cancels its event (skips the phase, at a phase's start)."""
    page = (site / "index.html").read_text(encoding="utf-8")

    def agents_line(ident: str) -> str:
        at = page.index(f'id="skill-{ident}"')
        line = page[at:page.index("</div></div>", at)]
        return line[line.index("for agents:"):] if "for agents:" in line else ""

    assert "tags attack" in agents_line("jijiang")
    assert "action aims within <code>targets_for(owner, 杀)</code>" in agents_line("jijiang")
    assert "optional trigger aims within <code>having_hand(others(owner))</code>" in agents_line("tuxi")
    assert "action: whom it names is known only as it runs" in agents_line("zhijian")
    assert "aims" not in agents_line("zhiheng")  # (it names cards, not characters)
    # an optional trigger that cancels its event outright says so: at a phase's start, a yes skips the phase
    assert "optional trigger: a yes skips the phase it is asked before" in agents_line("keji")
    assert "optional trigger: a yes cancels its <code>drawing</code>" in agents_line("tuxi")
    assert "cancels" not in agents_line("jianxiong") and "skips" not in agents_line("jianxiong")
    assert "optional trigger: a yes lowers its <code>drawing</code>'s amount by 1" in agents_line("luoyi")
    # a face-down declaration (蛊惑: `view_as basic …`) says agents are told which it can make true; 武圣 (杀) does not
    assert "declares face down" in agents_line("guhuo") and "declares" not in agents_line("wusheng")
    # a skip besides the one asked about (神速 skips its draw phase too), and a choice's own words for agents
    assert "a yes skips the phase it is asked before and its <code>draw</code> phase" in agents_line("shensu")
    assert "choice “蛊惑: question the declared card?”: hints <code>[&quot;&quot;, &quot;control risk&quot;]</code>" \
        in agents_line("guhuo")
    # hints read from each option's branch (崩坏: a price in HP, or in maximum HP), not the call's text
    assert "choice “崩坏”: hints read from its rule as <code>[&quot;risk&quot;, &quot;wane&quot;]</code>" \
        in agents_line("benghuai")
    # (a card's own choices too: 火攻's payment)
    at = page.index('id="card-huogong"')
    card = page[at:page.index("</article>", at)]
    assert ("for agents: choice “火攻: discard a card of the same suit to deal 1 fire damage”: tagged "
            "<code>attack</code>") in card
    # what a judgement hopes for, in a card (乐不思蜀) and in a skill (刚烈)
    at = page.index('id="card-le"')
    assert "for agents: judge hoping <code>it.suit == ♥</code>" in page[at:page.index("</article>", at)]
    assert "judge hoping <code>it.suit != ♥</code>" in agents_line("ganglie")


def _chromium(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache")}
    return subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                           "--no-first-run", f"--user-data-dir={home / 'profile'}", *args],
                          capture_output=True, text=True, timeout=120, env=env, check=False)


@pytest.mark.skipif(BROWSER is None, reason="no chromium: .ci/run installs it (apt-get install chromium)")
def test_search_filters_in_a_real_browser(site: Path, tmp_path: Path) -> None:
    index = (site / "index.html").as_uri()
    dom = _chromium("--dump-dom", index + "?q=曹操 奸雄", home=tmp_path)  # every word must match
    assert dom.returncode == 0, dom.stderr[-2000:]
    page = parse(dom.stdout)
    visible = [k for k, (hidden, _) in page.entries.items() if not hidden]
    assert len(visible) == 1 and visible[0].endswith("caocao"), visible
    total = len(page.entries)
    assert page.count.strip() == f"1 of {total}" and total > 80
    everything = parse(_chromium("--dump-dom", index, home=tmp_path).stdout)
    assert not any(hidden for hidden, _ in everything.entries.values())
    # follow the skill's scenario link as the browser resolves it
    href = next(h for o, h in (x.split(" ", 1) for x in page.links) if o == visible[0])
    linked = _chromium("--dump-dom", (site / href).as_uri(), home=tmp_path)
    assert re.search(r"rule: .*奸雄", linked.stdout), linked.stdout[:500]
    shot = tmp_path / "catalogue.png"
    _chromium("--window-size=1280,900", f"--screenshot={shot}", index + "?q=魏", home=tmp_path)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_docs_refuses_rules_with_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgs"
    bad.write_text("card 杀 sha : basic { copies ♠7 }\ncard 杀 sha2 : basic { copies ♠8 }\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["docs", str(bad), "-o", str(tmp_path / "out")])
    assert r.exit_code == 1 and "SGS-E201" in r.output and not (tmp_path / "out").exists()


def test_independent_rule_sets_share_a_catalogue(tmp_path: Path) -> None:
    (tmp_path / "a.sgs").write_text("card 杀 sha : basic { copies ♠7 }\n", encoding="utf-8")
    (tmp_path / "b.sgs").write_text("card 杀 sha : basic { copies ♥7 ♥8 }\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["docs", str(tmp_path), "-o", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    page = parse((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    assert "1 copy" in page.entries["card-sha"][1] and "2 copies" in page.entries["card-b-sha"][1]


def test_docs_names_the_index_it_wrote_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`-o site/` (a trailing slash) prints `site/index.html`, not `site//index.html`."""
    (tmp_path / "a.sgs").write_text("card 杀 sha : basic { copies ♠7 }\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["docs", "a.sgs", "-o", "site/"])
    assert r.exit_code == 0 and r.output.startswith("wrote site/index.html and "), r.output


def test_a_skill_without_words_says_what_agents_read_from_its_rule(tmp_path: Path) -> None:
    """马良's 应援 writes no `tags`: the catalogue says agents read it, and its choice, as `help` (lang/intent.py),
    told apart from words a rule wrote."""
    r = CliRunner().invoke(main, ["docs", str(ROOT / "docs" / "examples" / "maliang.sgs"), "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    at = page.index('id="skill-yingyuan"')
    line = page[at:page.index("</div></div>", at)]
    assert "for agents: read from its rule as <code>help</code>" in line
    assert "choice <code>choose</code>: read from its rule as <code>help</code>" in line
    assert "tagged" not in line
