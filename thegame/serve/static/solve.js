// The solve page: sends the deal to /api/solve, shows the time budget used
// while the search runs, cancels it on request (the server stops the search
// when the request goes away), then steps through the line turn by turn
// with the reasons the library's ``explain`` gives.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const form = $("solve-form");
  const cancelBtn = form.querySelector('[data-action="cancel"]');
  const solveBtn = form.querySelector('[data-action="solve"]');
  let controller = null, timer = null, result = null, at = 0;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  async function body() {
    const f = new FormData(form);
    const out = { variant: f.get("variant"), explain: true };
    const limit = Number(f.get("time_limit"));
    if (f.get("time_limit") !== "") out.time_limit = limit;
    const players = f.get("players");
    const file = f.get("file");
    if (file && file.name) {
      out.deal = await file.text();
      delete out.variant;
    } else if (f.get("deck").trim()) {
      out.deck = f.get("deck").trim();
      if (players) out.players = Number(players);
    } else {
      const seed = f.get("seed").trim();
      out.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
      if (players) out.players = Number(players);
    }
    return out;
  }

  function running(on, budget) {
    $("progress").hidden = !on;
    cancelBtn.disabled = !on;
    solveBtn.disabled = on;
    clearInterval(timer);
    if (!on) return;
    const start = performance.now();
    timer = setInterval(() => {
      const s = (performance.now() - start) / 1000;
      $("bar").value = Math.min(100, (100 * s) / budget);
      $("elapsed").textContent = `searching… ${s.toFixed(1)} s of at most ${budget} s`;
    }, 100);
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("message").textContent = "";
    let req;
    try { req = await body(); } catch (e) { $("message").textContent = String(e); return; }
    controller = new AbortController();
    running(true, req.time_limit || 10);
    try {
      const resp = await fetch("/api/solve", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(req), signal: controller.signal,
      });
      const data = await resp.json();
      if (!resp.ok) { $("message").textContent = data.error || ("error " + resp.status); return; }
      result = data; at = 0; show();
    } catch (e) {
      $("message").textContent = e.name === "AbortError" ? "cancelled: the search was stopped" : "the server did not answer: " + e;
      $("result").hidden = true;
    } finally {
      running(false, 0);
      controller = null;
    }
  });

  cancelBtn.addEventListener("click", () => { if (controller) controller.abort(); });

  function show() {
    const r = result;
    $("result").hidden = false;
    const v = $("verdict");
    v.textContent = r.verdict;
    v.dataset.verdict = r.verdict;
    const what = r.verdict === "win" ? "a perfect clear" :
      `${r.cards_left} cards left${r.optimal ? " (the fewest possible)" : ` (best found; at least ${r.lower_bound})`}`;
    $("summary").textContent = `${what} in ${r.turns.length} turns, player ${r.first} starting · ` +
      `${r.stats.nodes.toLocaleString()} nodes in ${r.stats.seconds} s (${r.engine})` + (r.stopped_early ? " · stopped at the budget" : "");
    $("proof").textContent = r.proof || (r.verdict === "unknown" ? "undecided within the budget: the line is the best found" : "");
    $("line").textContent = r.line;
    step();
  }

  function step() {
    const turns = result.explain || [];
    const t = turns[at];
    $("step-label").textContent = turns.length ? `turn ${at + 1} of ${turns.length}` : "no turns";
    document.querySelector('[data-action="prev"]').disabled = at <= 0;
    document.querySelector('[data-action="next"]').disabled = at >= turns.length - 1;
    const box = $("step"); box.replaceChildren();
    if (!t) return;
    const piles = el("div", { class: "mini-piles" });
    for (const [name, top] of Object.entries(t.before.piles)) piles.append(el("span", { class: "mini-pile" }, `${name} ${top}`));
    box.append(el("p", {}, `Turn ${t.turn}, player ${t.player}, at least ${t.minimum} cards; hand ${t.before.hand.join(" ")}`), piles);
    const list = el("ol", {});
    for (const p of t.plays) {
      const li = el("li", { "data-play": p.text });
      li.append(el("b", {}, p.text), document.createTextNode(" — " + p.reasons.map((r) => r.text).join("; ")));
      list.append(li);
    }
    box.append(list);
    const notes = t.notes.map((n) => n.text);
    box.append(el("p", { class: "dim" }, (t.drew.length ? `drew ${t.drew.join(" ")}; ` : "") +
      `${t.cards_left} cards left` + (notes.length ? " · " + notes.join("; ") : "")));
  }

  document.querySelector('[data-action="prev"]').addEventListener("click", () => { if (at > 0) { at--; step(); } });
  document.querySelector('[data-action="next"]').addEventListener("click", () => {
    if (result && at < (result.explain || []).length - 1) { at++; step(); }
  });
})();
