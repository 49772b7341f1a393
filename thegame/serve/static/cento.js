// Cento's daily puzzle. The rules live on the server: each click sends the
// turns played and the steps of this turn to /api/cento/board, which
// replays them through the rules engine and answers with the position and
// the steps the rules allow next; this script only draws it.
(function () {
  "use strict";
  const root = document.getElementById("board");
  const game = JSON.parse(root.dataset.game);
  let turns = [], steps = [], view = null, busy = false, hints = 0, solutionSteps = 0, focusKey = null;
  const $ = (id) => document.getElementById(id);
  const { el, post, face, stack, shortcut, waiting, plural } = window.page;
  if (window.daily) window.daily.showStreak("cento");
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
      : view === null ? "making the day's puzzle" : null;
    let stop = null;
    const shown = what && setTimeout(() => { stop = waiting($("wait"), what, () => controller.abort()); }, 300);
    try {
      const data = await post("/api/cento/board", { game, turns, steps, action }, controller.signal);
      view = data; turns = data.turns; steps = data.steps;
      $("message").textContent = "";
      if (data.hint) {
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
    $("status").textContent = view.state === "solved" ? `Solved in ${view.turns.length} turns`
      : view.state === "lost" ? "Blocked: the hand cannot be emptied"
      : `Turn ${view.turn}` + (view.steps.length ? ": " + view.steps.join(", ") : "")
        + (view.bound ? " — bound by a single-digit card (rule Z2)" : "");
    const piles = $("piles");
    piles.replaceChildren();
    const open = el("div", { class: "pile up", "data-pile": "open", "data-top": String(view.open),
      tabindex: "0", role: "img", "aria-label": `open card ${view.open}` });
    open.append(el("span", { class: "dir" }, "open"), face(view.open));
    const draw = el("button", { type: "button", class: "pile draw facedown", "data-pile": "draw",
      "data-top": String(view.draw_left), "aria-label": `draw pile, ${view.draw_left} cards; next ${view.draw_next.join(", ")}` });
    draw.append(el("span", { class: "dir" }, "draw"), stack(view.draw_left),
      el("span", { class: "room" }, "next " + view.draw_next.map(cardName).join(" ")));
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
    for (const a of ["hint", "solution"]) document.querySelector(`[data-action="${a}"]`).disabled = !playing;
    $("line").textContent = view.turns.map((t, i) => `${i + 1}: ${turnText(t)}`).join(" · ");
    const end = $("end");
    if (view.state === "solved" && view.puzzle && window.daily) {
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

  const actions = { draw: "draw", trick: "trick", treat: "treat", "end-turn": "end", undo: "undo", hint: "hint", solution: "solution" };
  for (const [hook, action] of Object.entries(actions)) {
    document.querySelector(`[data-action="${hook}"]`).addEventListener("click", () => send(action));
  }
  const keys = { d: "draw", e: "end", u: "undo", h: "hint", s: "solution" };
  document.addEventListener("keydown", (e) => {
    if (!shortcut(e) || !keys[e.key]) return;
    e.preventDefault();
    send(keys[e.key]);
  });

  $("solve-form").addEventListener("submit", async (e) => {
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
