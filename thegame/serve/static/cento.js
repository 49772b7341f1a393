// Cento's daily puzzle, and a game at a table of 2 to 6 against the engine.
// The rules live on the server: each click sends the turns played and the
// steps of this turn to /api/cento/board, which replays them through the
// rules engine (at a table, then lets the engine play the other seats) and
// answers with the position and the steps the rules allow next; this
// script only draws it. At a table the others' hands and the pile's order
// never reach the page.
(function () {
  "use strict";
  const root = document.getElementById("board");
  const game = JSON.parse(root.dataset.game);
  const table = (game.players || 1) > 1;
  let turns = [], steps = [], view = null, busy = false, hints = 0, solutionSteps = 0, focusKey = null;
  const $ = (id) => document.getElementById(id);
  const { el, post, face, stack, shortcut, waiting, plural, percent, watch } = window.page;
  if (window.daily && !table) window.daily.showStreak("cento");
  const estimate = (e) => e ? ` (wins ${percent(e.win_share)} of ${plural(e.worlds, "sampled world")}, an estimate)` : " (the only legal turn)";
  const cardName = (c) => (c === "free" ? "free" : String(c));

  function turnText(t) {
    const parts = [];
    if (t.trick) parts.push("Trick (shows the 100)");
    if (t.treat) parts.push("Treat (lays out the 100)");
    if (t.draw) parts.push("draws " + t.draw);
    if (t.plays.length) parts.push("plays " + t.plays.map((p) => (p.card === "free" ? "free as " + p.as : p.card)).join(", "));
    if (!parts.length) parts.push("passes");
    return parts.join("; ");
  }

  async function send(action) {
    if (busy) return;
    busy = true;
    const a = document.activeElement;
    focusKey = a && root.contains(a) ? (a.dataset.card ? `[data-card="${a.dataset.card}"]` : a.dataset.pile ? `[data-pile="${a.dataset.pile}"]`
      : a.dataset.action ? `[data-action="${a.dataset.action}"]` : null) : null;
    root.setAttribute("aria-busy", "true");
    const controller = new AbortController();
    const what = action === "hint" ? "thinking of a hint" : action === "solution" ? "finding the next step"
      : view === null ? (table ? "dealing" : "making the day's puzzle") : table ? "the others are playing" : null;
    let stop = null;
    const shown = what && setTimeout(() => { stop = waiting($("wait"), what, () => controller.abort()); }, 300);
    try {
      const data = await post("/api/cento/board", { game, turns, steps, action }, controller.signal);
      view = data; turns = data.turns; steps = data.steps;
      $("message").textContent = "";
      if (data.engine && data.engine.length) {
        $("message").textContent = data.engine.map((t) => `player ${t.player}: ${turnText(t.played)}`).join(" · ");
      }
      if (data.hint && table) {
        hints += 1;
        $("message").textContent = "hint: " + turnText(data.hint.hint) + estimate(data.hint.estimate);
      } else if (data.hint) {
        hints += 1;
        $("message").textContent = data.hint.hint ? "hint: " + turnText(data.hint.hint)
          + (data.hint.turn_count != null ? ` (${data.hint.turn_count} turns left with best play)` : "")
          : "no proven best turn in the time";
      }
      if (data.step) { solutionSteps += 1; $("message").textContent = "solution: " + data.step; }
      render();
      if (focusKey) {
        const again = root.querySelector(focusKey);
        const t = again && !again.disabled ? again : root.querySelector("#hand [data-card]:not(:disabled)");
        if (t) t.focus();
      }
    } catch (e) {
      $("message").textContent = e.name === "AbortError" ? "cancelled" : String(e.message || e);
    } finally {
      clearTimeout(shown);
      if (stop) stop();
      busy = false;
      root.removeAttribute("aria-busy");
    }
  }

  function render() {
    root.dataset.state = view.state;
    const playing = view.state === "playing";
    if (table) renderSeats();
    $("status").textContent = table ? tableStatus()
      : view.state === "solved" ? `Solved in ${view.turns.length} turns`
      : view.state === "lost" ? "Blocked: the hand cannot be emptied"
      : `Turn ${view.turn}` + (view.steps.length ? ": " + view.steps.join(", ") : "")
        + (view.bound ? " — bound by a single-digit card (rule Z2)" : "");
    const piles = $("piles");
    piles.replaceChildren();
    const open = el("div", { class: "pile up", "data-pile": "open", "data-top": String(view.open),
      tabindex: "0", role: "img", "aria-label": `open card ${view.open}` });
    open.append(el("span", { class: "dir" }, "open"), face(view.open));
    const next = view.draw_next || [];  // at a table the pile's order is hidden
    const draw = el("button", { type: "button", class: "pile draw facedown", "data-pile": "draw",
      "data-top": String(view.draw_left), "aria-label": `draw pile, ${view.draw_left} cards`
        + (table ? " face down" : `; next ${next.join(", ")}`) });
    draw.append(el("span", { class: "dir" }, "draw"), stack(view.draw_left));
    if (!table) draw.append(el("span", { class: "room" }, "next " + next.map(cardName).join(" ")));
    draw.addEventListener("click", () => send("draw"));
    draw.disabled = !(view.can && view.can.draw);
    piles.append(open, draw);
    const hand = $("hand");
    hand.replaceChildren();
    const playable = new Set((view.playable || []).map(String));
    for (const c of view.hand) {
      const name = cardName(c);
      const b = el("button", { type: "button", class: "card" + (c === "free" ? " free" : ""),
        "data-card": name, "aria-label": c === "free" ? "free card" : `card ${c}` });
      b.append(face(c === "free" ? "★" : name));
      if (!playable.has(name) && playing) b.classList.add("unplayable");
      b.disabled = !playing;
      b.addEventListener("click", () => playCard(c));
      hand.append(b);
    }
    for (const a of ["draw", "trick", "treat"]) {
      document.querySelector(`[data-action="${a}"]`).disabled = !(view.can && view.can[a]);
    }
    document.querySelector('[data-action="end-turn"]').disabled = !(view.can && view.can.end && view.steps.length);
    for (const b of document.querySelectorAll('[data-action="hint"], [data-action="solution"]')) b.disabled = !playing;
    // At a table only the steps of a turn that drew nothing (and showed no 100) are taken back.
    if (table) document.querySelector('[data-action="undo"]').disabled = !playing || !view.steps.length
      || view.steps.some((s) => s === "draw" || s === "trick");
    $("line").textContent = view.turns.map((t, i) => `${i + 1}: ` + (table ? `player ${t.player} ` : "") + turnText(t)).join(" · ");
    const end = $("end");
    if (table) {
      tableEnd(end);
    } else if (view.state === "solved" && view.puzzle && window.daily) {
      end.hidden = false;
      end.replaceChildren();
      const help = hints + solutionSteps;
      window.daily.solvedScreen(end, { stream: "cento", day: game.daily, turns: view.turns.length,
        optimum: view.puzzle.turns_in_solution, optimumWords: "turns, the proven fewest", hints, steps: solutionSteps,
        share: view.share ? view.share + (help ? `, ${plural(help, "hint")}` : ", no help") : null,
        href: (d) => `/cento/${d}` });
    } else if (view.state !== "playing") {
      end.hidden = false;
      end.replaceChildren(el("h2", {}, "Blocked"),
        el("p", {}, `The hand cannot be emptied from here (${plural(view.hand.length, "card")} left). `
          + "Take steps back (Undo, or u), or start again and let the solution show the way."));
      const again = el("button", { type: "button", "data-action": "restart" }, "Start again");
      again.addEventListener("click", () => { turns = []; steps = []; send(null); });
      end.append(again);
    } else {
      end.hidden = true;
    }
  }

  function playCard(c) {
    if (c !== "free") { send({ play: c }); return; }
    const v = Number($("free-as").value);
    if (!Number.isInteger(v) || v < 1 || v > 99) {
      const ok = (view.free_values || []);
      $("message").textContent = "type the value the free card is played as (1-99)"
        + (ok.length ? "; it may be " + (ok.length > 12 ? ok.slice(0, 12).join(", ") + ", …" : ok.join(", ")) : "");
      $("free-as").focus();
      return;
    }
    send({ play: "free", as: v });
  }

  // -- a table of 2 to 6 ------------------------------------------------------------
  function tableStatus() {
    if (view.state !== "over") return `Turn ${view.turn}: your move` + (view.steps.length ? ": " + view.steps.join(", ") : "")
      + (view.bound ? " — bound by a single-digit card (rule Z2)" : "");
    const w = view.winners;
    return view.you === "win" ? "You won: your hand is empty" : view.you === "shared" ? `A shared win: players ${w.join(", ")}`
      : w.length ? `Player ${w.join(", ")} won` : "Blocked: nobody wins";
  }

  function renderSeats() {
    $("seats").replaceChildren(...view.seats.map((s) => el("li", { "data-player": String(s.player),
      class: "seat" + (s.you ? " you" : "") + (view.state === "playing" && s.player === view.to_move ? " to-move" : "") },
    `${s.you ? "you (player 1)" : "player " + s.player}: ${plural(s.cards, "card")}`)));
  }

  function tableEnd(end) {
    end.hidden = view.state !== "over";
    if (end.hidden) return;
    const again = el("a", { href: `/cento/table?players=${game.players}`, "data-action": "new-table" }, "A new deal");
    const review = el("button", { type: "button", "data-action": "review" }, "Review the game");
    review.addEventListener("click", () => reviewGame(review));
    end.replaceChildren(el("h2", { "data-verdict": view.you }, view.you === "win" ? "You won!" : view.you === "shared" ? "A shared win" : "The engine won"),
      el("p", {}, `${plural(view.turns.length, "turn")} played; you hold ${plural(view.cards_left, "card")}.`), review, " ", again);
  }

  const yesNo = (v) => (v === true ? "yes" : v === false ? "no" : "undecided");
  const value = (v) => ({ 1: "a win", 0: "a shared win", "-1": "a loss" }[v] || "undecided");

  async function reviewGame(button) {
    button.disabled = true;
    const box = $("review");
    box.hidden = false;
    const wait = el("div", { class: "wait", role: "status" });
    box.replaceChildren(el("h2", {}, "Review"), wait);
    const words = (j) => `reviewing: judged ${j.done} of ${plural(j.total || 0, "turn")} · ${j.seconds.toFixed(1)} s`;
    try {
      const job = await watch({ cento_review: { game, turns: view.turns } }, wait, words);
      if (!job) { wait.replaceChildren(el("span", {}, "Review cancelled.")); button.disabled = false; return; }
      showReview(box, job.result);
    } catch (e) {
      wait.replaceChildren(el("span", { class: "warn" }, e.message));
      button.disabled = false;
    }
  }

  function showReview(box, r) {
    const lost = r.turns.filter((t) => t.lost_win).length;
    const two = r.players === 2;
    const intro = two ? "For the player who moved: the value of the game before and after the turn (proven by the solver)."
      : "For the player who moved: could they force a win, whatever the others did together, before and after the turn "
        + "(proven by the search); where that is undecided, the engine's estimate from what the seat saw.";
    const rows = r.turns.map((t) => {
      const tr = el("tr", { "data-turn": String(t.turn) });
      if (t.lost_win) tr.dataset.mark = "lost-win";
      const est = t.estimate ? `played ${percent(t.estimate.share_played)}, best ${percent(t.estimate.share_best)} `
        + `(${turnText(t.estimate.best)}) over ${plural(t.estimate.worlds, "world")}` : "–";
      const cells = [String(t.turn), String(t.player), turnText(t.played),
        two ? `${value(t.value_before)} → ${value(t.value_after)}` : `${yesNo(t.win_before)} → ${yesNo(t.win_after)}`,
        t.lost_win ? "lost the win" + (t.best ? ": " + turnText(t.best) : "") : "", two ? "–" : est];
      tr.append(...cells.map((c) => el("td", {}, c)));
      return tr;
    });
    const head = el("tr", {});
    head.append(...["turn", "player", "played", two ? "value before → after" : "forced win before → after", "mark", "estimate"]
      .map((h) => el("th", {}, h)));
    const tbl = el("table", { class: "marks cento-marks" });
    const thead = el("thead", {}), tbody = el("tbody", {});
    thead.append(head); tbody.append(...rows); tbl.append(thead, tbody);
    const scroll = el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the turns reviewed" });
    scroll.append(tbl);
    box.replaceChildren(el("h2", {}, "Review"), el("p", { class: "dim" }, intro),
      el("p", { "data-review": "summary" }, (lost ? `${plural(lost, "turn")} threw a proven win away` : "No turn threw a proven win away")
        + (r.undecided ? `; ${plural(r.undecided, "position")} undecided within ${r.seconds_per_position} s each` : "")
        + `. ${r.stats.nodes} nodes, ${r.stats.seconds} s.`), scroll);
  }

  const actions = { draw: "draw", trick: "trick", treat: "treat", "end-turn": "end", undo: "undo", hint: "hint", solution: "solution" };
  for (const [hook, action] of Object.entries(actions)) {
    const b = document.querySelector(`[data-action="${hook}"]`);
    if (b) b.addEventListener("click", () => send(action));
  }
  const keys = table ? { d: "draw", e: "end", u: "undo", h: "hint" } : { d: "draw", e: "end", u: "undo", h: "hint", s: "solution" };
  document.addEventListener("keydown", (e) => {
    if (!shortcut(e) || !keys[e.key]) return;
    e.preventDefault();
    send(keys[e.key]);
  });

  if ($("solve-form")) $("solve-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const out = $("solve-result");
    out.removeAttribute("data-verdict");
    out.textContent = "solving…";
    try {
      const r = await post("/api/cento/solve", { seed: Number(f.get("seed")), players: Number(f.get("players")),
        time_limit: Number(f.get("time_limit")) });
      out.replaceChildren();
      out.dataset.verdict = r.verdict;
      out.append(el("p", { class: "verdict" }, r.headline));
      const ol = el("ol", { class: "cento-line" });
      for (const t of r.turns) {
        const li = el("li", { "data-turn": String(t.turn) }, `player ${t.player}: ${turnText(t)}`);
        const ul = el("ul", { class: "dim" });
        for (const reason of t.reasons) ul.append(el("li", {}, reason));
        li.append(ul);
        ol.append(li);
      }
      out.append(ol, el("p", { class: "dim" }, `${r.stats.nodes} nodes, ${r.stats.seconds} s`));
    } catch (err) {
      out.textContent = String(err.message || err);
    }
  });

  send(null);
})();
