// The table of a daily puzzle or a real game. The rules live on the server:
// every action goes to /api/board, which replays the game through the rules
// engine and answers with the position; this script draws it and highlights
// the piles the server says take the chosen card. A puzzle's deal is open,
// so the page's own referee (referee.js, the static site's) refuses a play
// that breaks a rule at once, before any request.
(function () {
  "use strict";
  const root = document.getElementById("board");
  const game = JSON.parse(root.dataset.game);
  const mode = root.dataset.mode;
  let turns = [], plays = [], view = null, selected = null, busy = false;
  let hints = 0, steps = 0, preselected = false, controller = null;
  // The hint's play while its card stays chosen: its card and its pile
  // alone light up, in the hint's colour.
  let hinted = null;
  // Hot seat: after a turn ends the next hand stays hidden until its player asks.
  let shownFor = null;
  // Where the keyboard was before an answer redrew the board: put it back there.
  let focusKey = null;

  const $ = (id) => document.getElementById(id);
  const { el, face, stack, shortcut, waiting, percent, plural } = window.page;
  const COMMAND = { stop: "stop", skull: "skull", three: "three", "no-trick": "no trick",
    "one-pile": "one pile", "draw-one": "draw one", "no-talk": "no talk" };
  // A daily's stream is its variant (the server's registry names the default one).
  const stream = game.variant || root.dataset.defaultStream;
  const dayHref = (d) => `/daily/${d}` + (stream === root.dataset.defaultStream ? "" : `?variant=${stream}`);
  if (mode === "daily" && window.daily) window.daily.showStreak(stream);

  function remember() {
    const a = document.activeElement;
    if (!a || !root.contains(a)) { focusKey = null; return; }
    focusKey = a.dataset.card ? `[data-card="${a.dataset.card}"]` : a.dataset.pile ? `[data-pile="${a.dataset.pile}"]`
      : a.dataset.action ? `[data-action="${a.dataset.action}"]` : null;
  }

  function restore() {
    if (!focusKey) return;
    const again = root.querySelector(focusKey);
    const target = again && !again.disabled ? again
      : root.querySelector("#hand [data-card]:not(:disabled)") || root.querySelector("#piles [data-pile]");
    if (target) target.focus();
    focusKey = null;
  }

  async function send(action) {
    if (busy) return;
    busy = true;
    remember();
    root.setAttribute("aria-busy", "true");
    controller = new AbortController();
    const what = action === "hint" ? "thinking of a hint" : action === "solution" ? "finding the next step"
      : view === null ? (mode === "daily" ? "making the day's puzzle (the first visit of a day takes a while)" : "dealing") : null;
    let stop = null;
    // Only a wait longer than a blink shows itself.
    const shown = what && setTimeout(() => { stop = waiting($("wait"), what, () => controller.abort()); }, 300);
    try {
      const resp = await fetch("/api/board", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game, turns, plays, action, helped: hints + steps }), signal: controller.signal,
      });
      const data = await resp.json();
      if (!resp.ok) { $("message").textContent = data.error || ("error " + resp.status); return; }
      turns = data.turns; plays = data.plays; view = data; selected = null; preselected = false; hinted = null;
      if (data.hint) hints += 1;
      if (data.step) steps += 1;
      render();
      restore();
    } catch (e) {
      $("message").textContent = e.name === "AbortError" ? "cancelled" + (view ? "" : ": reload the page to try again")
        : "the server did not answer: " + e;
    } finally {
      clearTimeout(shown);
      if (stop) stop();
      busy = false;
      root.removeAttribute("aria-busy");
    }
  }

  function lastPlay() {
    if (plays.length) return plays[plays.length - 1];
    for (let k = turns.length - 1; k >= 0; k--) {
      const ps = turns[k].plays;
      if (ps.length) return ps[ps.length - 1];
      if (k < turns.length - 1) break;
    }
    return null;
  }

  function pileButton(p, last) {
    const b = el("button", { type: "button", class: "pile " + (p.ascending ? "up" : "down"),
      "data-pile": p.pile, "data-top": String(p.top) });
    if (p.start) b.classList.add("start");
    if (p.fire) b.classList.add("fire");
    if (p.cover) b.classList.add("cover");
    const isLast = last && last.pile === p.pile && last.card === p.top;
    if (isLast) b.classList.add("last");
    b.append(el("span", { class: "dir" }, p.pile + (p.ascending ? " ↑" : " ↓")));
    b.append(face(p.top, { note: p.command ? COMMAND[p.command] : p.cover ? "cover!" : "" }));
    b.append(el("span", { class: "room" + (p.room === 0 ? " none" : "") }, `room ${p.room}`));
    let label = `pile ${p.pile}, ${p.ascending ? "ascending" : "descending"}, shows ${p.top}, room for ${p.room} more`;
    if (p.command) label += `, ${COMMAND[p.command]} command`;
    if (p.cover) label += ", fire card: cover it this turn";
    if (isLast) label += ", the last card laid";
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => choosePile(p.pile));
    return b;
  }

  function cardButton(c, over) {
    const legal = view.legal[String(c.card)] || [];
    const b = el("button", { type: "button", class: "card", "data-card": String(c.card), "aria-pressed": "false" });
    b.append(face(c.card, { note: c.command ? COMMAND[c.command] : "" }));
    let label = `card ${c.card}`;
    if (c.fire) { b.classList.add("fire"); label += ", fire card"; }
    if (c.command) label += `, ${COMMAND[c.command]} command`;
    if (!legal.length && !over) { b.classList.add("unplayable"); label += ", no pile takes it now"; }
    b.setAttribute("aria-label", label);
    b.dataset.piles = legal.join(" ");
    b.disabled = over;
    b.addEventListener("click", () => chooseCard(c.card));
    return b;
  }

  function chooseCard(card) {
    // A card the hint chose stays chosen on the player's first click on it.
    if (preselected && selected === card) { preselected = false; highlight(); return; }
    preselected = false;
    if (hinted && hinted.card !== card) hinted = null;
    selected = selected === card ? null : card;
    if (selected === null) hinted = null;
    highlight();
  }

  function highlight() {
    const hint = hinted && hinted.card === selected ? hinted : null;
    const takes = selected === null || hint ? [] : (view.legal[String(selected)] || []);
    const loses = selected === null || hint ? [] : (view.losing[String(selected)] || []);
    for (const b of document.querySelectorAll("#hand .card")) {
      const on = Number(b.dataset.card) === selected;
      b.classList.toggle("selected", on && !hint);
      b.classList.toggle("hinted", on && Boolean(hint));
      b.setAttribute("aria-pressed", on ? "true" : "false");
    }
    for (const b of document.querySelectorAll("#piles .pile")) {
      b.classList.toggle("takes", takes.includes(b.dataset.pile));
      b.classList.toggle("loses", loses.includes(b.dataset.pile));
      b.classList.toggle("hinted", Boolean(hint) && hint.pile === b.dataset.pile);
    }
  }

  // A puzzle's play refused at once by the page's own referee (referee.js,
  // the static site's), without a round trip; null where it has nothing to
  // say (a real game, no referee, or a play it accepts: the server decides).
  function refusedHere(card, pile) {
    if (!view.referee || !window.TheGameReferee) return null;
    try {
      const g = new window.TheGameReferee.Game(view.referee.spec);
      g.playTurns(view.referee.opening.concat(turns.map((t) => t.plays)));
      for (const p of plays) g.play(p.card, p.pile);
      return g.refusal(card, g.pileIndex(pile));
    } catch (e) {
      return null;
    }
  }

  function choosePile(pile) {
    if (view.state !== "playing") return;
    if (selected === null) { $("message").textContent = "choose a card of your hand first"; $("message").className = "message"; return; }
    const card = selected;
    const refused = refusedHere(card, pile);
    if (refused) { $("message").textContent = `rule ${refused.rule}: ${refused.text}`; return; }
    const loses = view.losing[String(card)] || [];
    if (loses.includes(pile) && !window.confirm(`${card} ${pile} breaks a command and loses the game. Play it?`)) return;
    send({ play: { card, pile } });
  }

  function drawPile(v) {
    const box = el("div", { class: "draw" });
    const st = el("div", { class: "draw-stack facedown", role: "img", "aria-label": `draw pile: ${v.draw_left} cards face down` });
    st.append(stack(v.draw_left));
    box.append(st);
    if (v.draw_pile && mode === "daily" && v.state === "playing") {
      // A puzzle's deal is known: its draw pile's order, top first.
      const peek = el("div", { class: "peek", role: "list", tabindex: "0", "aria-label": `the draw pile, top first: ${v.draw_pile.join(", ") || "empty"}` });
      for (const c of v.draw_pile) {
        const e = el("div", { class: "card", role: "listitem", "aria-label": `card ${c}` });
        e.append(face(c));
        peek.append(e);
      }
      const col = el("div", {});
      col.append(el("div", { class: "draw-label" }, v.draw_pile.length ? "drawn next, top first:" : "the draw pile is empty"), peek);
      box.append(col);
    }
    return box;
  }

  function render() {
    const v = view;
    root.dataset.state = v.state;
    const over = v.state !== "playing";
    const last = lastPlay();
    $("piles").replaceChildren(...v.piles.map((p) => pileButton(p, last)));
    const who = v.players > 1 ? `player ${v.player} to move · ` : "";
    let status;
    if (v.state === "solved") status = `Solved in ${v.turns_taken} turns.`;
    else if (v.state === "lost") status = `Lost: ${v.reason} · ${plural(v.cards_left, "card")} left.`;
    else status = `Turn ${v.turn} · ${who}played ${v.played} of at least ${v.minimum} · ${plural(v.cards_left, "card")} left`;
    $("status").textContent = status;
    if (v.puzzle && $("subtitle") && $("subtitle").textContent.startsWith("making")) {
      $("subtitle").textContent = `${v.puzzle.variant}, ${v.puzzle.label}: clear every card; the puzzle's line takes ${plural(v.puzzle.turns_in_solution, "turn")}`;
    }
    const info = $("info"); info.replaceChildren(drawPile(v));
    for (const o of v.other_hands) info.append(el("span", { class: "dim" }, `player ${o.player}: ${plural(o.cards, "card")}`));
    const hotSeat = mode === "play" && v.players > 1 && v.state === "playing";
    if (hotSeat && shownFor === null) shownFor = v.player;  // the first hand: no one saw another
    if (hotSeat && shownFor !== v.player) {
      const show = el("button", { type: "button", "data-action": "show-hand" },
        `Player ${v.player}: show my hand`);
      show.addEventListener("click", () => { shownFor = v.player; render(); });
      $("hand").replaceChildren(el("p", {}, `Pass the device to player ${v.player}.`), show);
    } else {
      $("hand").replaceChildren(...v.hand.map((c) => cardButton(c, over)));
    }
    let msg = "", tone = "";
    if (v.error) { msg = `rule ${v.error.rule}: ${v.error.message}`; tone = "error"; }
    if (v.step) msg = `solution: ${v.step}`;
    if (v.hint) {
      msg = "hint: " + v.hint.text; tone = "hint";
      if (v.hint.estimate) msg += ` (win chance about ${percent(v.hint.estimate.win_chance)} over ${v.hint.estimate.samples} sampled orders)`;
      const first = v.hint.move && v.hint.move.plays[0];
      if (first) { selected = first.card; preselected = true; hinted = { card: first.card, pile: first.pile }; highlight(); }
    }
    $("message").textContent = msg;
    $("message").className = "message" + (tone ? " " + tone : "");
    $("status").classList.toggle("ok", v.state === "solved");
    const done = v.line ? v.line + (v.plays_text.length ? " | " + v.plays_text.join(", ") : "") : v.plays_text.join(", ");
    $("line").textContent = done ? "played: " + done : "";
    const daily = mode === "daily";
    for (const b of root.querySelectorAll(".actions [data-action]")) {
      const a = b.dataset.action;
      // After a loss a puzzle can still be taken back (its deal is open).
      if (a === "undo") b.disabled = !(v.played || (daily && v.turns_taken)) || v.state === "solved" || (over && !daily);
      else b.disabled = over || (a === "end-turn" && !v.can_end && v.end_loses === null);
    }
    renderEnd(v);
  }

  function renderEnd(v) {
    const end = $("end");
    if (v.state === "playing") { end.hidden = true; return; }
    end.hidden = false; end.replaceChildren();
    if (v.state === "solved" && mode === "daily" && window.daily) {
      window.daily.solvedScreen(end, { stream, day: game.daily, turns: v.turns_taken,
        optimum: v.puzzle.turns_in_solution, optimumWords: "turns in the puzzle's line",
        hints, steps, share: v.share, href: dayHref });
      return;
    }
    if (v.state === "lost") {
      end.append(el("h2", {}, "Lost"));
      end.append(el("p", {}, `${v.reason}: ${plural(v.cards_left, "card")} left. The hand stays on the table.`));
      if (mode === "daily") {
        end.append(el("p", {}, "Take the last play back (Undo, or u), or start again from the puzzle's position and let the solution show the way:"));
        const again = el("button", { type: "button", "data-action": "restart" }, "Start again");
        again.addEventListener("click", () => { turns = []; plays = []; send(null); });
        end.append(again);
      }
    }
    if (v.record) {
      const text = JSON.stringify(v.record, null, 1);
      const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
        download: "game.json", "data-action": "download" }, "Download the record");
      end.append(a);
      const form = el("form", { method: "post", action: "/review", enctype: "multipart/form-data", "data-job": "analyze" });
      const field = el("textarea", { name: "record", hidden: "", "aria-label": "the record" }); field.value = text;
      const go = el("button", { type: "submit", "data-action": "review" }, "Review this game");
      form.append(field, go);
      window.page.watchReview(form);  // the turns judged so far while it waits, and Cancel
      end.append(form);
    }
  }

  root.querySelector('[data-action="undo"]').addEventListener("click", () => send("undo"));
  root.querySelector('[data-action="end-turn"]').addEventListener("click", () => {
    if (view && view.end_loses && !window.confirm("Ending the turn now breaks a command and loses the game. End it?")) return;
    send("end");
  });
  root.querySelector('[data-action="hint"]').addEventListener("click", () => send("hint"));
  const sol = root.querySelector('[data-action="solution"]');
  if (sol) sol.addEventListener("click", () => send("solution"));
  document.addEventListener("keydown", (ev) => {
    if (!shortcut(ev)) return;
    const key = { u: "undo", e: "end-turn", h: "hint", s: "solution" }[ev.key];
    const b = key && root.querySelector(`.actions [data-action="${key}"]`);
    if (b && !b.disabled) { ev.preventDefault(); b.click(); }
  });
  if (root.hasAttribute("data-making")) {
    // The day's puzzle is not made yet: the deals tried so far while it is, and Cancel.
    const words = (j) => `making the day's puzzle: ${plural(j.done, "deal")} tried · ${j.seconds.toFixed(1)} s`;
    // The wait is hidden with its Cancel disabled: a hidden button left enabled
    // would still count as one to press.
    const done = () => { $("wait").hidden = true; for (const b of $("wait").querySelectorAll("button")) b.disabled = true; };
    const stopped = (why, state) => { done(); $("status").textContent = why; root.dataset.state = state; };
    window.page.watch({ daily: { date: game.daily, variant: game.variant } }, $("wait"), words).then((job) => {
      if (job) { done(); send(null); } else stopped("Cancelled: reload the page to make the puzzle.", "cancelled");
    }, (e) => stopped(e.message, "failed"));
  } else {
    send(null);
  }
})();
