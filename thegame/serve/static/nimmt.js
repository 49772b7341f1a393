// The table of 6 nimmt!. The game lives on the server: each click sends the
// game's seed and the turns played to /api/nimmt/table, which replays them
// and answers with the table; this script only draws it.
(function () {
  "use strict";
  const root = document.getElementById("board");
  const game = JSON.parse(root.dataset.game);
  let rounds = [], view = null, busy = false;
  const $ = (id) => document.getElementById(id);
  const { el, post, shortcut, waiting } = window.page;
  const who = (p) => (p === 1 ? "you" : "player " + p);
  const headsText = (h) => h + (h === 1 ? " head" : " heads");

  async function send(action) {
    if (busy) return;
    busy = true;
    root.setAttribute("aria-busy", "true");
    $("message").textContent = "";
    const controller = new AbortController();
    const what = action === "hint" ? "thinking of a card" : action ? "the others are choosing" : "dealing";
    let stop = null;
    const shown = setTimeout(() => { stop = waiting($("wait"), what, () => controller.abort()); }, 300);
    try {
      const data = await post("/api/nimmt/table", { game, rounds, action }, controller.signal);
      if (data.hint) {
        $("message").textContent = `hint: play ${data.hint.move.card} (by what you have seen, ${data.hint.samples} samples)`;
      } else {
        view = data; rounds = data.rounds;
        $("message").textContent = data.state === "choose-row"
          ? `your ${data.card} is lower than every row's end: click the row you take (rule S3)` : "";
        render();
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

  function cardEl(c, tag, attrs) {
    const e = el(tag, Object.assign({ class: "card heads-" + c.heads }, attrs || {}));
    e.append(el("span", { class: "num" }, String(c.card)));
    e.append(el("span", { class: "tag" }, "▼".repeat(Math.min(c.heads, 7))));
    return e;
  }

  function render() {
    root.dataset.state = view.state;
    const choosing = view.state === "choose-row";
    $("status").textContent = view.state === "over" ? (game.whole ? "The game is over" : "The round is over")
      : `Round ${view.round}, turn ${view.turn}` + (choosing ? ": take a row" : ": choose a card");
    const rows = $("rows");
    rows.replaceChildren();
    for (const r of view.rows) {
      const b = el("button", { type: "button", class: "nrow" + (choosing ? " takes" : ""),
        "data-row": String(r.row), "aria-label": `row ${r.row}: ${r.cards.map((c) => c.card).join(", ")}; ${headsText(r.heads)}` });
      b.disabled = !choosing;
      b.append(el("span", { class: "dir" }, "row " + r.row));
      for (const c of r.cards) b.append(cardEl(c, "span"));
      b.append(el("span", { class: "room" }, headsText(r.heads) + (r.cards.length === 5 ? ", full" : "")));
      b.addEventListener("click", () => send({ card: view.card, row: r.row }));
      rows.append(b);
    }
    const hand = $("hand");
    hand.replaceChildren();
    for (const c of view.hand) {
      const b = cardEl(c, "button", { type: "button", "data-card": String(c.card),
        "aria-label": `card ${c.card}, ${headsText(c.heads)}` });
      b.disabled = view.state !== "playing";
      b.addEventListener("click", () => send({ card: c.card }));
      hand.append(b);
    }
    if (choosing) {
      $("last").textContent = "revealed: " + view.trick.map((c, i) => `${who(i + 1)} ${c}`).join(", ");
    } else if (view.last) {
      const l = view.last;
      const takes = l.placements.filter((p) => p.taken.length).map((p) =>
        `${who(p.player)} ${p.card} takes row ${p.row} (${headsText(p.heads)})`);
      $("last").textContent = `turn ${l.turn}: ` + l.cards.map((c, i) => `${who(i + 1)} ${c}`).join(", ")
        + (takes.length ? "; " + takes.join("; ") : "");
    } else {
      $("last").textContent = "";
    }
    const t = $("scores");
    t.replaceChildren();
    const head = el("tr");
    for (const h of ["", ...view.heads.map((_, i) => who(i + 1))]) head.append(el("th", {}, h));
    t.append(head);
    for (const [name, vals] of [["heads this round", view.heads], ["points before", view.points], ["total", view.totals]]) {
      const tr = el("tr");
      tr.append(el("th", {}, name));
      for (const v of vals) tr.append(el("td", {}, String(v)));
      t.append(tr);
    }
    document.querySelector('[data-action="hint"]').disabled = view.state !== "playing";
    const end = $("end");
    if (view.state === "over") showEnd(end); else end.hidden = true;
  }

  function showEnd(end) {
    end.hidden = false;
    end.replaceChildren();
    const r = view.result;
    const text = r.you === "win" ? "You win" : r.you === "shared" ? "You share the win" : "You lose";
    end.append(el("p", { "data-verdict": r.you }, `${text}: ${r.totals.map((v, i) => `${who(i + 1)} ${v}`).join(", ")} (fewest wins, rule S5)`));
    const blob = new Blob([JSON.stringify(view.record, null, 1) + "\n"], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `nimmt-seed-${game.seed}.json`, "data-action": "download" }, "Download the record");
    end.append(a);
    const count = view.record.rounds ? view.record.rounds.length : 1;
    const pick = el("label", {}, " Review round ");
    const sel = el("select", { id: "review-round" });
    for (let i = 1; i <= count; i++) sel.append(el("option", { value: String(i) }, String(i)));
    sel.value = String(count);
    pick.append(sel);
    if (count > 1) end.append(pick);
    const b = el("button", { type: "button", "data-action": "review" }, "Review");
    b.addEventListener("click", () => review(Number(sel.value)));
    end.append(" ", b, el("div", { id: "review" }));
  }

  async function review(round) {
    const out = $("review");
    out.textContent = "reviewing (every turn priced with hindsight)…";
    out.removeAttribute("data-state");
    try {
      const r = await post("/api/nimmt/review", { record: view.record, round, player: 1 });
      out.replaceChildren();
      out.dataset.state = "done";
      out.append(el("p", {}, `you took ${headsText(r.played_heads)}; ${r.heads} at best with hindsight: ${r.lost} lost`));
      out.append(el("p", { class: "dim" }, "each card is priced in heads: its own this turn plus the fewest possible afterwards, "
        + `with hindsight (the others' cards known); "by what you knew" is the card sampled from what you saw (${r.samples} samples)`));
      const t = el("table", { "data-chart": "nimmt-review" });
      const h = el("tr");
      for (const x of ["turn", "played", "→ heads", "best with hindsight", "→ heads", "best by what you knew", "→ heads", "lost"]) h.append(el("th", {}, x));
      t.append(h);
      for (const x of r.turns) {
        const tr = el("tr", x.lost ? { "data-mark": "lost" } : {});
        const row = (c, r) => String(c) + (r ? ` (row ${r})` : "");
        for (const v of [x.turn, row(x.card, x.row), x.heads, row(x.best_card, x.best_row), x.best_heads, x.blind_card, x.blind_heads, x.lost || ""])
          tr.append(el("td", {}, String(v)));
        t.append(tr);
      }
      out.append(t);
    } catch (e) {
      out.textContent = String(e.message || e);
    }
  }

  document.querySelector('[data-action="hint"]').addEventListener("click", () => send("hint"));
  document.addEventListener("keydown", (e) => { if (e.key === "h" && shortcut(e)) send("hint"); });
  send(null);
})();
