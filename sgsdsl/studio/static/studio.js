// sgsdsl studio page. Every text from the rules or a log is written with textContent (never as markup).
"use strict";

const token = new URLSearchParams(location.search).get("t") || "";
const $ = (id) => document.getElementById(id);
let info = { catalogue: { cards: {}, skills: {}, generals: {} }, modes: {}, generals: [], agents: [] };
let tipNames = null;      // a RegExp over every card, skill and general name (longest first)
let live = null;          // the latest game state from the server
let replayFrame = null;   // the replay frame shown instead of the live game, when one is open
let picked = new Set();   // the options chosen so far in a multi-choice question

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Studio-Token": token },
    body: JSON.stringify(body || {}),
  });
  let data = {};
  try { data = await r.json(); } catch (e) { data = { error: "the studio did not answer" }; }
  if (!r.ok && !data.error) data.error = "refused (" + r.status + ")";
  return data;
}

// ------------------------------------------------------------------ hover texts
function tipFor(name) {
  const c = info.catalogue;
  if (c.cards[name] !== undefined) return c.cards[name] || name;
  if (c.skills[name] !== undefined) return c.skills[name] || name;
  for (const id in c.generals) {
    const g = c.generals[id];
    if (g.name === name) return `${g.name} · ${g.kingdom} · ${g.hp} HP · ${g.skills.join(", ")}\n${g.text}`.trim();
  }
  return null;
}

function buildTipNames() {
  const c = info.catalogue;
  const names = new Set([...Object.keys(c.cards), ...Object.keys(c.skills),
    ...Object.values(c.generals).map((g) => g.name)]);
  const sorted = [...names].filter((n) => n.length > 0).sort((a, b) => b.length - a.length);
  const esc = sorted.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  tipNames = esc.length ? new RegExp(esc.join("|"), "g") : null;
}

// a line of narration as text nodes, known names wrapped in spans whose title is their printed text
function withTips(parent, text) {
  if (!tipNames) { parent.textContent = text; return parent; }
  let last = 0;
  for (const m of text.matchAll(tipNames)) {
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    const s = el("span", "tip", m[0]);
    const tip = tipFor(m[0]);
    if (tip) s.title = tip;
    parent.appendChild(s);
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  return parent;
}

// ------------------------------------------------------------------ set-up form
function fillSetup() {
  const d = info.defaults || {};
  const mode = $("f-mode");
  mode.replaceChildren();
  for (const id in info.modes) {
    const o = el("option", null, `${info.modes[id].name} (${id})`);
    o.value = id;
    mode.appendChild(o);
  }
  mode.value = d.mode || "identity";
  const gen = $("f-general");
  gen.replaceChildren(Object.assign(el("option", null, "(dealt)"), { value: "" }));
  for (const g of info.generals) {
    const o = el("option", null, `${g.name} ${g.kingdom} ${g.hp}`);
    o.value = g.id;
    gen.appendChild(o);
  }
  gen.value = d.general || "";
  const opp = $("f-opponents");
  opp.replaceChildren();
  for (const a of info.agents) { const o = el("option", null, a); o.value = a; opp.appendChild(o); }
  opp.value = d.opponents || "heuristic";
  $("f-players").value = d.players ?? 5;
  $("f-seat").value = d.seat ?? 0;
  $("f-seed").value = d.seed ?? 1;
  $("f-options").value = d.options || "";
  $("f-pool").value = d.pool || "";
}

function setupBody(watch) {
  return {
    mode: $("f-mode").value, players: $("f-players").value, seat: $("f-seat").value, seed: $("f-seed").value,
    general: $("f-general").value, opponents: $("f-opponents").value, options: $("f-options").value,
    pool: $("f-pool").value, watch: watch, delay: parseFloat($("f-speed").value),
  };
}

async function start(watch) {
  replayFrame = null;
  const r = await post("/api/start", setupBody(watch));
  $("refusal").textContent = r.error || "";
}

// ------------------------------------------------------------------ the table
function cardEl(c, optionIndex) {
  const red = c.suit === "♥" || c.suit === "♦";
  const e = el("span", "card " + (c.suit ? (red ? "red" : "black") : ""), `${c.name}${c.suit}${c.rank}`);
  const tip = tipFor(c.name);
  if (tip) e.title = tip;
  e.dataset.label = c.label;
  if (optionIndex !== undefined && optionIndex >= 0) {
    e.classList.add("pickable");
    e.dataset.option = optionIndex;
    if (picked.has(optionIndex)) e.classList.add("picked");
    e.addEventListener("click", () => choose(optionIndex));
  }
  return e;
}

function seatEl(s, table, optionOf) {
  const box = el("div", "seat");
  box.dataset.seat = s.seat;
  if (!s.alive) box.classList.add("dead");
  if (table.current === s.seat && !table.result) box.classList.add("current");
  if (table.viewer === s.seat) box.classList.add("you");
  const top = el("div", "top");
  const name = el("span", "name", `P${s.seat} ${s.general}`);
  const gtip = tipFor(s.general);
  if (gtip) name.title = gtip;
  top.append(name, el("span", "kingdom", s.kingdom), el("span", "role", s.role));
  box.appendChild(top);
  const hp = el("div", "line");
  hp.append(el("span", "hp", s.alive ? `♥ ${s.hp}/${s.max_hp}` : "dead"), document.createTextNode(` · ${s.hand_count} in hand`));
  box.appendChild(hp);
  const flags = el("div", "flags line");
  if (!s.alive) flags.appendChild(el("span", null, "dead"));
  if (s.dying) flags.appendChild(el("span", null, "dying"));
  if (s.chained) flags.appendChild(el("span", null, "chained"));
  if (s.face_down) flags.appendChild(el("span", null, "face down"));
  if (flags.childNodes.length) box.appendChild(flags);
  if (s.skills.length) {
    const sk = el("div", "line");
    for (const name of s.skills) {
      const e = el("span", "skill", name);
      const tip = tipFor(name);
      if (tip) e.title = tip;
      sk.appendChild(e);
    }
    box.appendChild(sk);
  }
  if (s.equips.length) {
    const eq = el("div", "line equips", "equip ");
    for (const c of s.equips) eq.appendChild(cardEl(c, optionOf(c.label)));
    box.appendChild(eq);
  }
  if (s.judge.length) {
    const j = el("div", "line judge", "judge ");
    for (const c of s.judge) j.appendChild(cardEl(c, optionOf(c.label)));
    box.appendChild(j);
  }
  const marks = Object.entries(s.marks);
  if (marks.length) box.appendChild(el("div", "line marks", "marks " + marks.map(([k, v]) => `${k} ${v}`).join(" · ")));
  const piles = Object.entries(s.piles);
  if (piles.length) {
    box.appendChild(el("div", "line piles", "piles " + piles.map(([k, v]) =>
      `${k}: ${Array.isArray(v) ? v.join(", ") : v + " cards"}`).join(" · ")));
  }
  if (s.hand && table.viewer === null) {
    const h = el("div", "line hand", "hand ");
    for (const c of s.hand) h.appendChild(cardEl(c));
    box.appendChild(h);
  }
  return box;
}

function drawTable(table, question) {
  const area = $("table");
  for (const old of area.querySelectorAll(".seat")) old.remove();
  const labels = question ? question.options : [];
  const optionOf = (label) => labels.indexOf(label);
  const n = table.seats.length;
  const you = table.viewer === null ? 0 : table.viewer;
  table.seats.forEach((s) => {
    // your seat at the bottom, the others round the table in seat order
    const angle = Math.PI / 2 + (2 * Math.PI * (s.seat - you)) / n;
    const box = seatEl(s, table, optionOf);
    box.style.left = `${50 + 38 * Math.cos(angle)}%`;
    box.style.top = `${50 + 37 * Math.sin(angle)}%`;
    area.appendChild(box);
  });
  $("status").textContent = `round ${table.round} · ${table.phase || "–"}` +
    (table.current !== null ? ` · P${table.current}'s turn` : "");
  $("piles").textContent = `draw pile ${table.draw_pile}`;
  const dis = $("discard");
  dis.replaceChildren(document.createTextNode("discard "));
  for (const c of table.discard_top) dis.appendChild(cardEl(c));
  const res = table.result;
  $("result").textContent = res ? (res.winners.length ? `game over: ${res.winners.join(", ")} win` :
    `game over: a draw (${res.reason})`) : "";
}

function drawHand(table, question) {
  const hand = $("hand");
  hand.replaceChildren();
  if (table.viewer === null) return;
  const me = table.seats[table.viewer];
  const labels = question ? question.options : [];
  hand.appendChild(el("span", null, `your hand (${me.role}): `));
  for (const c of me.hand || []) hand.appendChild(cardEl(c, labels.indexOf(c.label)));
}

function drawQuestion(q, game) {
  const opts = $("options");
  opts.replaceChildren();
  $("b-confirm").hidden = true;
  if (!q) {
    let text = game ? (game.finished ? (game.error || "The game is over.") :
      (game.watch ? "Watching agents play…" : "Waiting for the other seats…")) :
      "Choose a set-up and press Play (or Watch to see agents play).";
    if (game && game.finished && !game.error && game.table.result && game.seat !== null) {
      const won = game.table.result.seats.includes(game.seat);
      text = `The game is over: you ${won ? "win" : "lose"}.`;
    }
    $("prompt").textContent = text;
    return;
  }
  const how = q.low === q.high ? `choose ${q.low}` : `choose ${q.low} to ${q.high}`;
  $("prompt").textContent = `${q.prompt}  (${how})`;
  const single = q.low === 1 && q.high === 1;
  q.options.forEach((label, i) => {
    const b = el("button", picked.has(i) ? "picked" : null);
    withTips(b, label.replace(/(?<=[0-9AJQK])#\d+/g, ""));
    b.type = "button";
    b.dataset.option = i;
    b.addEventListener("click", () => choose(i));
    opts.appendChild(b);
  });
  if (!single) $("b-confirm").hidden = false;
}

async function choose(i) {
  const q = live && live.game && live.game.question;
  if (!q || replayFrame) return;
  if (q.low === 1 && q.high === 1) { await answer([i]); return; }
  if (picked.has(i)) picked.delete(i); else picked.add(i);
  render();
}

async function answer(picks) {
  const r = await post("/api/answer", { picks: picks });
  $("refusal").textContent = r.error || "";
  if (!r.error) picked = new Set();
}

function drawNarration(lines) {
  const list = $("narration");
  list.replaceChildren();
  for (const line of lines) list.appendChild(withTips(el("li"), line));
  const pane = $("tab-narration");
  pane.scrollTop = pane.scrollHeight;
}

function render() {
  if (replayFrame) {
    drawTable(replayFrame.table, null);
    drawHand(replayFrame.table, null);
    drawNarration(replayFrame.narration);
    $("prompt").textContent = `Replay: ${replayFrame.summary}`;
    $("options").replaceChildren();
    $("b-confirm").hidden = true;
    return;
  }
  const game = live && live.game;
  if (!game) { drawQuestion(null, null); return; }
  drawTable(game.table, game.question);
  drawHand(game.table, game.question);
  drawQuestion(game.question, game);
  drawNarration(game.narration);
}

// ------------------------------------------------------------------ rules and diagnostics
function drawRules(rules) {
  const badge = $("rules-badge");
  badge.className = "badge " + (rules.ok ? "ok" : "bad");
  badge.textContent = rules.ok ? "rules ✓" : `rules: ${rules.diagnostics.length} error(s)`;
  $("rules-count").textContent = rules.ok ? "" : `(${rules.diagnostics.length})`;
  $("rules-state").textContent = rules.ok ? `The rules check cleanly (version ${rules.version}).` :
    "The last save does not check: the game keeps the rules it started with.";
  const box = $("diagnostics");
  box.replaceChildren();
  for (const d of rules.diagnostics) {
    const pre = el("pre", "diagnostic", d.text);
    pre.dataset.code = d.code;
    box.appendChild(pre);
  }
  $("b-restart").hidden = !(rules.ok && rules.changed);
  if (!rules.ok) showTab("rules");
}

function drawLogs(logs) {
  const sel = $("r-log");
  const was = sel.value;
  sel.replaceChildren();
  for (const name of logs) { const o = el("option", null, name); o.value = name; sel.appendChild(o); }
  if (logs.includes(was)) sel.value = was;
}

// ------------------------------------------------------------------ replay
function showFrame(f) {
  replayFrame = f;
  $("r-summary").textContent = f.summary;
  $("r-slider").max = f.count - 1;
  $("r-slider").value = f.index;
  $("r-index").textContent = `${f.index + 1} of ${f.count}`;
  $("r-hash").textContent = f.hash;
  $("r-decision").textContent = f.decision || "(the end of the game)";
  render();
}

async function frame(i) {
  if (!replayFrame) return;
  const r = await fetch(`/api/frame?t=${encodeURIComponent(token)}&i=${i}`);
  const data = await r.json();
  if (data.error) { $("r-summary").textContent = data.error; return; }
  showFrame(data);
}

function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const p of document.querySelectorAll(".pane")) p.classList.toggle("active", p.id === `tab-${name}`);
}

// ------------------------------------------------------------------ wiring
async function init() {
  const r = await fetch(`/api/setup?t=${encodeURIComponent(token)}`);
  info = await r.json();
  if (info.error) { $("prompt").textContent = info.error; return; }
  buildTipNames();
  fillSetup();
  $("b-play").addEventListener("click", () => start(false));
  $("b-watch").addEventListener("click", () => start(true));
  $("b-confirm").addEventListener("click", () => answer([...picked].sort((a, b) => a - b)));
  $("b-restart").addEventListener("click", async () => {
    replayFrame = null;
    const r = await post("/api/restart", {});
    $("refusal").textContent = r.error || "";
    if (!r.error) showTab("narration");
  });
  $("b-save").addEventListener("click", async () => {
    const r = await post("/api/save-log", {});
    $("r-summary").textContent = r.error || `saved ${r.name}`;
    if (r.name) $("r-log").value = r.name;
  });
  $("b-open").addEventListener("click", async () => {
    const r = await post("/api/replay", { name: $("r-log").value });
    if (r.error) { $("r-summary").textContent = r.error; return; }
    showFrame(r);
  });
  $("r-first").addEventListener("click", () => frame(0));
  $("r-prev").addEventListener("click", () => frame(Math.max(0, replayFrame ? replayFrame.index - 1 : 0)));
  $("r-next").addEventListener("click", () => frame(replayFrame ? replayFrame.index + 1 : 0));
  $("r-last").addEventListener("click", () => frame(replayFrame ? replayFrame.count - 1 : 0));
  $("r-slider").addEventListener("change", (e) => frame(e.target.value));
  $("b-back").addEventListener("click", () => { replayFrame = null; render(); });
  for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => showTab(t.dataset.tab));
  const events = new EventSource(`/api/events?t=${encodeURIComponent(token)}`);
  events.addEventListener("state", (e) => {
    const state = JSON.parse(e.data);
    if (state.rules) drawRules(state.rules);
    if (state.logs) drawLogs(state.logs);
    const before = live && live.game ? live.game.id : null;
    live = state;
    if (state.game && state.game.id !== before) picked = new Set();
    if (state.rules && state.rules.version !== (info.rulesVersion || 0)) {
      info.rulesVersion = state.rules.version;
      refreshInfo();
    }
    render();
    document.body.dataset.game = state.game ? `${state.game.id}` : "";
    const q = state.game && state.game.question;
    document.body.dataset.asked = q ? `${state.game.id}.${q.number}` : "";
    document.body.dataset.finished = state.game && state.game.finished ? "yes" : "no";
  });
}

async function refreshInfo() {
  const r = await fetch(`/api/setup?t=${encodeURIComponent(token)}`);
  const fresh = await r.json();
  if (fresh.error) return;
  info = Object.assign(fresh, { rulesVersion: info.rulesVersion });
  buildTipNames();
}

document.addEventListener("DOMContentLoaded", init);
