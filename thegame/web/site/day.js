// A day's page of the static site: the classic family's daily (or, with
// ?variant=extreme, the Extreme daily; ?variant=cento, the Cento daily, played
// by cento-day.js)
// played in the page by clicks and keys. The rules are the JavaScript
// referee's (referee.js); after every finished turn the WebAssembly search
// core (solver.js, solver.wasm), in its own worker (solve-worker.js, through
// thinker.js) so the page stays responsive, judges the player's own position: the board
// carries data-verdict (win while a perfect clear is still reachable, else
// loss) and data-cards-left (the best reachable, proven). Where the core
// cannot be loaded the page plays on by the rules, hints from the puzzle's
// stored line, and says the verdict is off.
(function () {
  "use strict";
  const { el, face, stack, shortcut, plural } = window.page;
  const { root, dayHref, getJSON, days, offline } = window.site;
  const html = document.documentElement;
  const day = html.dataset.day;
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const COMMAND = { stop: "stop", skull: "skull", three: "three", "no-trick": "no trick",
    "one-pile": "one pile", "draw-one": "draw one", "no-talk": "no talk" };
  let stream = new URLSearchParams(location.search).get("variant") || "classic";
  if (!["classic", "extreme", "cento"].includes(stream)) stream = "classic";

  let data, entry, spec, base, line, game, has = () => true;
  let turns = [], plays = [], selected = null, preselected = false;
  let hints = 0, steps = 0, hintLevel = 0, hintKey = null, focusKey = null;
  let solver = null, solverOff = null;
  const verdicts = new Map();  // the position (finished turns) -> the solver's answer
  const asked = new Map();     // the position -> the search in flight (a promise)
  // A search's time budget: the worker keeps the page responsive meanwhile,
  // and Stop ends it sooner.
  const BUDGET_MS = 15000;

  const key = (ts) => JSON.stringify(ts);
  const fromStart = (ts) => base.concat(ts);
  const firstTurn = () => (base ? base.length + 1 : 1);

  // -- the position ----------------------------------------------------------

  function rebuild() {
    game = new window.TheGameReferee.Game(spec);
    game.playTurns(base);
    for (const t of turns) {
      for (const p of t) game.play(p.card, p.pile);
      if (!game.over) game.endTurn();
    }
    for (const p of plays) game.play(p.card, p.pile);
  }

  function stateOf() {
    return game.status === "won" ? "solved" : game.status === "lost" ? "lost" : "playing";
  }

  function say(text) { $("message").textContent = text; }

  function act(fn) {
    remember();
    hintLevel = 0;
    fn();
    render();
    restore();
  }

  function play(card, pile) {
    const err = game.refusal(card, game.pileIndex(pile));
    if (err) { say(`rule ${err.rule}: ${err.text}`); return false; }
    if (game.loses(card, game.pileIndex(pile)) && !window.confirm(`${card} ${pile} breaks a command and loses the game. Play it?`)) return false;
    act(() => {
      game.play(card, pile);
      plays.push({ card, pile });
      selected = null; preselected = false;
      say("");
      if (game.over) finishTurn();
      // The last card: the clear comes with it, not after one more click (C7).
      else if (game.cardsLeft() === 0 && game.canEndTurn()) { game.endTurn(); finishTurn(); }
    });
    return true;
  }

  function endTurn() {
    const err = game.endRefusal();
    if (err) { say(`rule ${err.rule}: ${err.text}`); return; }
    if (game.endLoses() && !window.confirm("Ending the turn now breaks a command and loses the game. End it?")) return;
    act(() => { game.endTurn(); finishTurn(); say(""); });
  }

  function finishTurn() {
    turns.push(plays);
    plays = [];
    // A finished game needs no search: its verdict is there before the solved screen.
    if (game.over && solver) ended(turns);
    judge();
  }

  function undo() {
    act(() => {
      if (plays.length) plays.pop();
      else if (turns.length) { const last = turns.pop(); plays = last.slice(0, -1); }
      selected = null; preselected = false;
      rebuild();
      say("");
      judge();
    });
  }

  function undoTo(n) {
    act(() => { turns = turns.slice(0, n); plays = []; selected = null; rebuild(); say(""); judge(); });
  }

  // -- the verdict -------------------------------------------------------------

  // The line the solver gives, as the turns after ``given`` (it may give them
  // from the deal's start).
  function continuation(full, given) {
    const l = full || [];
    if (l.length >= given.length && given.length && key(l.slice(0, given.length)) === key(given)) return l.slice(given.length);
    return l;
  }

  // The verdict of a finished game, from the rules alone (null: not over).
  function ended(ts) {
    const g = new window.TheGameReferee.Game(spec);
    g.playTurns(fromStart(ts));
    if (!g.over) return null;
    const a = { verdict: g.status === "won" ? "win" : "loss", cards_left: g.cardsLeft(), proven: true, line: [], ms: 0 };
    verdicts.set(key(ts), a);
    return a;
  }

  // The solver's answer on the position after ``ts`` (a promise): kept, or
  // the search in flight, or a new search in the worker.
  function answer(ts) {
    const k = key(ts);
    const known = verdicts.get(k) || ended(ts);
    if (known) return Promise.resolve(known);
    if (asked.has(k)) return asked.get(k);
    const search = solver.solve(entry.kernel, fromStart(ts), { timeMs: BUDGET_MS }).then((r) => {
      const a = { verdict: r.verdict, cards_left: r.cards_left, proven: r.proven, line: continuation(r.line, fromStart(ts)),
        nodes: r.nodes, ms: r.ms };
      verdicts.set(k, a);
      if (k === key(turns)) show(a, ts);  // a hint's search judges the position too
      return a;
    }).finally(() => { asked.delete(k); thinking(); });
    asked.set(k, search);
    thinking();
    return search;
  }

  const stopped = (e) => e && e.message === window.Thinker.STOPPED;

  // "thinking…" with the seconds spent and a Stop button while a search runs.
  let ticker = null;
  function thinking() {
    const box = $("thinking"), busy = solver && solver.busy();
    box.hidden = !busy;
    if (busy) board.dataset.thinking = ""; else delete board.dataset.thinking;
    if (busy && !ticker) ticker = setInterval(thinking, 250);
    if (!busy && ticker) { clearInterval(ticker); ticker = null; }
    if (busy) $("thinking-text").textContent = `The solver is thinking… ${(solver.elapsed() / 1000).toFixed(1)} s of at most ${BUDGET_MS / 1000} s.`;
  }

  function stop() {
    if (!solver || !solver.busy()) return;
    solver.stop();
    thinking();
  }

  // After every finished turn (and at the puzzle's start): the solver's word
  // on the player's own position, on the board and in words.
  function judge() {
    if (!solver) return;
    const at = turns.slice();
    // A search for a position left behind is of no use now: end it.
    if (solver.busy() && !asked.has(key(at)) && !ended(at) && !verdicts.has(key(at))) solver.stop();
    board.setAttribute("aria-busy", "true");
    answer(at).then((a) => { if (key(at) === key(turns)) show(a, at); }, (e) => {
      if (key(at) !== key(turns)) return;
      if (stopped(e)) $("verdict").replaceChildren(el("p", {}, "Stopped: the solver did not judge this position. Finish the turn, or ask for a hint, to ask again."));
      else off("the solver failed: " + e.message);
    }).finally(() => { if (key(at) === key(turns)) board.removeAttribute("aria-busy"); });
  }

  function show(a, at) {
    const box = $("verdict");
    board.dataset.verdict = a.verdict;
    board.dataset.cardsLeft = String(a.cards_left);
    board.dataset.cardsLeftProven = String(Boolean(a.proven));
    board.dataset.judged = String(at.length);
    board.dataset.verdictMs = String(Math.round(a.ms));
    box.replaceChildren();
    if (a.verdict === "win") {
      box.append(el("p", { class: "verdict-win" }, game.status === "won" ? "Cleared." : "A perfect clear is still reachable from here (proven)."));
    } else if (a.verdict === "unknown") {
      box.append(el("p", {}, `The solver did not decide this position in its time (${plural(a.nodes || 0, "node")}).`));
    } else lost(box, a, at);
    renderEnd();
  }

  function lost(box, a, at) {
    const left = a.cards_left;
    const best = a.proven ? `the best from here leaves ${plural(left, "card")}` : `the best line found leaves ${plural(left, "card")}`;
    box.append(el("p", { class: "verdict-loss" }, `No perfect clear is reachable any more (proven): ${best}.`));
    let back = -1;
    for (let k = at.length - 1; k >= 0; k--) {
      const v = verdicts.get(key(at.slice(0, k)));
      if (v && v.verdict === "win") { back = k; break; }
    }
    if (back < 0) return;
    const turn = firstTurn() + back;
    const p = el("p", {}, `A clear was still reachable at the start of turn ${turn}. `);
    const b = el("button", { type: "button", "data-action": "undo-to", "data-turn": String(turn) }, `Undo to turn ${turn}`);
    b.addEventListener("click", () => undoTo(back));
    p.append(b);
    box.append(p);
  }

  function off(why) {
    solver = null;
    solverOff = why;
    board.dataset.verdictOff = "";
    delete board.dataset.verdict;
    delete board.dataset.cardsLeft;
    $("verdict").replaceChildren(el("p", { class: "verdict-off" }, `The verdict is off: ${why}. The page still plays by the rules, and hints come from the puzzle's stored line.`));
  }

  async function loadSolver(available) {
    if (!entry.kernel) { off("this day was published without the in-page solver"); return; }
    if (!available) { off("this site was published without the in-page solver"); return; }
    try {
      if (typeof Worker !== "function") throw new Error("this browser has no Web Worker");
      solver = await window.Thinker.load(root + "assets/solve-worker.js");
    } catch (e) {
      off(`the WebAssembly solver could not be loaded (${e.message || e})`);
    }
  }

  // -- hints and solution steps ------------------------------------------------

  // The turns to play from here: the solver's from the player's position, or
  // the puzzle's stored line while the player is on it. ``null`` and why not.
  async function ahead() {
    if (solver) {
      const a = await answer(turns);
      return { turns: a.line, from: a.verdict === "win" ? "the solver" : "the solver's best line (no clear is reachable)" };
    }
    const k = turns.length;
    if (key(line.slice(0, k)) === key(turns)) return { turns: line.slice(k), from: "the puzzle's line" };
    let j = 0;
    while (j < k && key(line[j]) === key(turns[j])) j++;
    return { turns: null, why: `you left the puzzle's line at turn ${firstTurn() + j}; undo to it to follow the line (the verdict is off)` };
  }

  // The next play ({card, pile}), "end" (end the turn), or an error text.
  async function nextStep() {
    const a = await ahead();
    if (!a.turns) return { why: a.why };
    const t = a.turns[0];
    if (!t) return { why: "nothing left to play" };
    for (let i = 0; i < plays.length; i++) {
      if (!t[i] || t[i].card !== plays[i].card || t[i].pile !== plays[i].pile) {
        return { why: `${a.from} plays this turn otherwise: take back this turn's plays (Undo) to follow it` };
      }
    }
    return plays.length < t.length ? { play: t[plays.length], from: a.from } : { end: true, from: a.from };
  }

  // The next step once the solver has it (null: the player moved meanwhile,
  // or the search was stopped or failed; said in the message).
  async function stepFor(what) {
    const here = key([turns, plays]);
    if (solver && !verdicts.has(key(turns))) say(`${what}: the solver is thinking…`);
    let s;
    try { s = await nextStep(); } catch (e) {
      if (key([turns, plays]) === here) say(`${what}: ` + (stopped(e) ? "stopped before the solver found one" : "the solver failed: " + e.message));
      return null;
    }
    if (key([turns, plays]) !== here) return null;
    if (s.why) { say(`${what}: ` + s.why); return null; }
    return s;
  }

  async function hint() {
    const s = await stepFor("hint");
    if (!s) return;
    const here = key([turns, plays]);
    hintLevel = hintKey === here ? hintLevel + 1 : 1;
    hintKey = here;
    if (s.end) { say(`hint: end the turn (from ${s.from})`); hints += hintLevel === 1 ? 1 : 0; return; }
    if (hintLevel === 1) hints += 1;
    selected = s.play.card; preselected = true;
    highlight();
    if (hintLevel === 1) say(`hint: play ${s.play.card} (from ${s.from}); ask again for the pile`);
    else {
      say(`hint: ${s.play.card} ${s.play.pile} (from ${s.from})`);
      const pb = board.querySelector(`#piles [data-pile="${s.play.pile}"]`);
      if (pb) pb.classList.add("hinted");
    }
  }

  async function step() {
    const s = await stepFor("solution");
    if (!s) return;
    steps += 1;
    if (s.end) endTurn();
    else play(s.play.card, s.play.pile);
  }

  // -- drawing -------------------------------------------------------------------

  function remember() {
    const a = document.activeElement;
    if (!a || !board.contains(a)) { focusKey = null; return; }
    focusKey = a.dataset.card ? `[data-card="${a.dataset.card}"]` : a.dataset.pile ? `[data-pile="${a.dataset.pile}"]`
      : a.dataset.action ? `[data-action="${a.dataset.action}"]` : null;
  }

  function restore() {
    if (!focusKey) return;
    const again = board.querySelector(focusKey);
    const target = again && !again.disabled ? again
      : board.querySelector("#hand [data-card]:not(:disabled)") || board.querySelector("#piles [data-pile]");
    if (target) target.focus();
    focusKey = null;
  }

  function room(i) {
    const out = [...game.hands.flatMap((h) => [...h]), ...game.drawPile()];
    return out.filter((c) => window.TheGameReferee.accepts(game.ascending(i), game.tops[i], c, game.rules.step)).length;
  }

  function lastPlay() {
    if (plays.length) return plays[plays.length - 1];
    const t = turns.length ? turns[turns.length - 1] : base[base.length - 1];
    return t && t.length ? t[t.length - 1] : null;
  }

  function pileButton(i, last) {
    const name = game.pileName(i), top = game.tops[i], asc = game.ascending(i), r = game.rules;
    const fire = game.fire.has(top), cover = fire && game.topTurn[i] < game.turn, command = game.command(top);
    const n = room(i);
    const b = el("button", { type: "button", class: "pile " + (asc ? "up" : "down"), "data-pile": name, "data-top": String(top) });
    if (top === (asc ? r.low - 1 : r.high + 1)) b.classList.add("start");
    if (fire) b.classList.add("fire");
    if (cover) b.classList.add("cover");
    const isLast = last && last.pile === name && last.card === top;
    if (isLast) b.classList.add("last");
    b.append(el("span", { class: "dir" }, name + (asc ? " ↑" : " ↓")));
    b.append(face(top, { note: command ? COMMAND[command] : cover ? "cover!" : "" }));
    b.append(el("span", { class: "room" + (n === 0 ? " none" : "") }, `room ${n}`));
    let label = `pile ${name}, ${asc ? "ascending" : "descending"}, shows ${top}, room for ${n} more`;
    if (command) label += `, ${COMMAND[command]} command`;
    if (cover) label += ", fire card: cover it this turn";
    if (isLast) label += ", the last card laid";
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => choosePile(name));
    return b;
  }

  function piles(card) {
    const legal = [], losing = [];
    for (let i = 0; i < game.nPiles; i++) {
      if (game.isLegal(card, i)) legal.push(game.pileName(i));
      else if (game.loses(card, i)) losing.push(game.pileName(i));
    }
    return { legal, losing };
  }

  function cardButton(c, over) {
    const { legal } = piles(c);
    const command = game.command(c);
    const b = el("button", { type: "button", class: "card", "data-card": String(c), "aria-pressed": "false" });
    b.append(face(c, { note: command ? COMMAND[command] : "" }));
    let label = `card ${c}`;
    if (game.fire.has(c)) { b.classList.add("fire"); label += ", fire card"; }
    if (command) label += `, ${COMMAND[command]} command`;
    if (!legal.length && !over) { b.classList.add("unplayable"); label += ", no pile takes it now"; }
    b.setAttribute("aria-label", label);
    b.dataset.piles = legal.join(" ");
    b.disabled = over;
    b.addEventListener("click", () => chooseCard(c));
    return b;
  }

  function chooseCard(card) {
    if (preselected && selected === card) { preselected = false; highlight(); return; }
    preselected = false;
    selected = selected === card ? null : card;
    highlight();
  }

  function highlight() {
    const p = selected === null ? { legal: [], losing: [] } : piles(selected);
    for (const b of board.querySelectorAll("#hand .card")) {
      const on = Number(b.dataset.card) === selected;
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    }
    for (const b of board.querySelectorAll("#piles .pile")) {
      b.classList.toggle("takes", p.legal.includes(b.dataset.pile));
      b.classList.toggle("loses", p.losing.includes(b.dataset.pile));
      b.classList.remove("hinted");
    }
  }

  function choosePile(pile) {
    if (game.over) return;
    if (selected === null) { say("choose a card of your hand first"); return; }
    play(selected, pile);
  }

  function drawPile() {
    const box = el("div", { class: "draw" });
    const left = game.stockLeft();
    const st = el("div", { class: "draw-stack facedown", role: "img", "aria-label": `draw pile: ${left} cards face down` });
    st.append(stack(left));
    box.append(st);
    if (!game.over) {
      // A puzzle's deal is known: its draw pile's order, top first.
      const pile = game.drawPile();
      const peek = el("div", { class: "peek", role: "list", tabindex: "0", "aria-label": `the draw pile, top first: ${pile.join(", ") || "empty"}` });
      for (const c of pile) {
        const e = el("div", { class: "card", role: "listitem", "aria-label": `card ${c}` });
        e.append(face(c));
        peek.append(e);
      }
      const col = el("div", {});
      col.append(el("div", { class: "draw-label" }, pile.length ? "drawn next, top first:" : "the draw pile is empty"), peek);
      box.append(col);
    }
    return box;
  }

  const lineText = (ts) => ts.map((t) => t.map((p) => `${p.card} ${p.pile}`).join(", ")).join(" | ");

  function render() {
    const state = stateOf(), over = state !== "playing";
    board.dataset.state = state;
    const last = lastPlay();
    $("piles").replaceChildren(...game.names.map((_, i) => pileButton(i, last)));
    const who = game.players > 1 ? `player ${game.current + 1} to move · ` : "";
    let status;
    if (state === "solved") status = `Solved in ${plural(turns.length, "turn")}.`;
    else if (state === "lost") status = `Lost: ${game.reason} · ${plural(game.cardsLeft(), "card")} left.`;
    else status = `Turn ${game.turn + 1} · ${who}played ${plays.length} of at least ${game.turnMin} · ${plural(game.cardsLeft(), "card")} left`;
    $("status").textContent = status;
    const info = $("info"); info.replaceChildren(drawPile());
    game.hands.forEach((h, p) => { if (p !== game.current) info.append(el("span", { class: "dim" }, `player ${p + 1}: ${plural(h.size, "card")}`)); });
    $("hand").replaceChildren(...game.hand().map((c) => cardButton(c, over)));
    const done = lineText(turns) + (plays.length ? (turns.length ? " | " : "") + lineText([plays]) : "");
    $("line").textContent = done ? "played: " + done : "";
    for (const b of board.querySelectorAll(".actions [data-action]")) {
      const a = b.dataset.action;
      if (a === "undo") b.disabled = !(plays.length || turns.length) || state === "solved";
      else b.disabled = over || (a === "end-turn" && !game.canEndTurn() && game.endLoses() === null);
    }
    highlight();
    renderEnd();
  }

  function share() {
    const rows = turns.map((_, k) => {
      const v = verdicts.get(key(turns.slice(0, k + 1)));
      return !v ? "⬜" : v.verdict === "win" ? "🟩" : v.verdict === "loss" ? "🟥" : "⬜";
    });
    const help = hints + steps ? [hints ? plural(hints, "hint") : "", steps ? plural(steps, "solution step") : ""].filter(Boolean).join(", ") : "no help";
    const name = stream === "extreme" ? "Extreme" : entry.puzzle.variant;
    return `thegame daily No. ${data.number} (${name}, ${entry.puzzle.difficulty.label})\n` +
      `cleared in ${plural(turns.length, "turn")}; the puzzle's line: ${line.length}\n` +
      (solver ? rows.join("") + "\n" : "") + help;
  }

  function renderEnd() {
    const end = $("end"), state = stateOf();
    if (state === "playing") { end.hidden = true; return; }
    if (state === "solved" && end.dataset.shown === key(turns)) return;
    end.hidden = false; end.replaceChildren(); end.dataset.shown = key(turns);
    if (state === "solved") {
      window.daily.solvedScreen(end, { stream, day, turns: turns.length, optimum: line.length,
        optimumWords: "turns in the puzzle's line", hints, steps, share: share(),
        href: (d) => dayHref(d, stream), has, number: (d) => data && window.siteDays && window.siteDays.numbers[d] });
      return;
    }
    end.append(el("h2", {}, "Lost"));
    end.append(el("p", {}, `${game.reason}: ${plural(game.cardsLeft(), "card")} left. Take the last play back (Undo, or u), or start again:`));
    const again = el("button", { type: "button", "data-action": "restart" }, "Start again");
    again.addEventListener("click", () => undoTo(0));
    end.append(again);
  }

  // -- start -----------------------------------------------------------------------

  function streams() {
    const nav = $("streams");
    for (const [s, name] of Object.entries(window.site.STREAMS)) {
      const a = el("a", { href: dayHref(day, s) }, name);
      if (s === stream) a.setAttribute("aria-current", "page");
      nav.append(a);
    }
  }

  async function main() {
    const now = window.daily.today();
    if (!day || day > now) {
      // A day to come: its files are on the host, but the page does not show it.
      board.dataset.state = "not-yet";
      $("title").textContent = "Not yet";
      $("subtitle").textContent = "This day's puzzle is not out yet: the puzzles change at midnight UTC.";
      $("status").textContent = "";
      for (const b of board.querySelectorAll("button")) b.disabled = true;
      board.hidden = true;
      $("streak").hidden = true;
      return;
    }
    let d;
    try {
      d = await days();
      window.siteDays = d.all;
      has = d.has;
      data = await getJSON(`daily/${day}/day.json`);
    } catch (e) {
      board.dataset.state = "failed";
      $("status").textContent = "This day could not be read: " + e.message;
      return;
    }
    streams();
    const label = stream === "classic" ? `No. ${data.number}` : stream === "extreme" ? "Extreme" : "Cento";
    $("title").textContent = `${label} · ${day}`;
    document.title = `${label} · ${day} · thegame daily`;
    if (stream === "cento") {
      $("subtitle").textContent = `Cento solo puzzle of the day: empty your hand in ${plural(data.cento.turn_count, "turn")} (the proven fewest)`;
      window.daily.showStreak("cento");
      window.centoDay.start(data.cento, { board, day, number: data.number, href: (x) => dayHref(x, "cento"), has,
        numberOf: (x) => window.siteDays && window.siteDays.numbers[x] });
      offline([`daily/${day}/day.json`]);
      return;
    }
    entry = data[stream];
    spec = entry.referee;
    base = entry.puzzle.position.map((t) => t.plays);
    line = entry.puzzle.turns.map((t) => t.plays);
    const p = entry.puzzle;
    $("subtitle").textContent = `${p.variant}, ${p.difficulty.label}: clear every card; the puzzle's line takes ${plural(line.length, "turn")}`;
    window.daily.showStreak(stream);
    rebuild();
    render();
    // Busy until the solver is loaded and has judged the start (or is off).
    board.setAttribute("aria-busy", "true");
    await loadSolver(d.all.solver);
    if (!solver) board.removeAttribute("aria-busy");
    const keep = [`daily/${day}/day.json`];
    if (solver) keep.push("assets/solve-worker.js", "assets/solver.js", "assets/solver.wasm");
    offline(keep);
    judge();
  }

  board.querySelector('[data-action="undo"]').addEventListener("click", undo);
  board.querySelector('[data-action="end-turn"]').addEventListener("click", endTurn);
  board.querySelector('[data-action="hint"]').addEventListener("click", hint);
  board.querySelector('[data-action="solution"]').addEventListener("click", step);
  $("thinking").querySelector('[data-action="stop"]').addEventListener("click", stop);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && solver && solver.busy()) { ev.preventDefault(); stop(); return; }
    if (!shortcut(ev) || !game) return;
    const k = { u: "undo", e: "end-turn", h: "hint", s: "solution" }[ev.key];
    const b = k && board.querySelector(`.actions [data-action="${k}"]`);
    if (b && !b.disabled) { ev.preventDefault(); b.click(); }
  });
  main();
})();
