// The home page: today's puzzles drawn as small boards (the same answers the
// puzzle pages get: /api/board and /api/cento/board with no action), and the
// streak of each kept in this browser.
(function () {
  "use strict";
  const { el, face, post, plural, waiting, watch } = window.page;

  function mini(cards, cls) {
    const row = el("div", { class: cls });
    for (const c of cards) {
      const e = el("div", { class: c.pile ? "pile " + (c.ascending ? "up" : "down") : "card", role: "img",
        "aria-label": c.pile ? `pile ${c.pile} shows ${c.top}` : `card ${c.card}` });
      e.append(face(c.pile ? c.top : c.card));
      row.append(e);
    }
    return row;
  }

  async function draw(box) {
    const kind = box.dataset.home;
    const game = JSON.parse(box.dataset.game);
    const out = box.querySelector(".mini-board");
    const streak = box.querySelector("[data-streak-of]");
    if (window.daily) {
      const n = window.daily.streak(kind);
      streak.dataset.streak = String(n);
      streak.textContent = n ? `streak: ${plural(n, "day")}` : "no streak yet";
    }
    const wait = el("div", { class: "wait" });
    out.replaceChildren(wait);
    const stop = waiting(wait, "dealing the day's puzzle");
    try {
      if (kind === "cento") {
        const v = await post("/api/cento/board", { game, turns: [], steps: [], action: null });
        out.replaceChildren(mini([{ pile: "open", top: v.open, ascending: true }], "piles"),
          mini(v.hand.map((c) => ({ card: c === "free" ? "★" : c })), "hand"),
          el("p", { class: "dim" }, `empty the hand in ${plural(v.puzzle.turns_in_solution, "turn")}; ${v.draw_left} cards to draw`));
      } else {
        // Made (or found made) as a watched job: the deals tried while it is made.
        const made = await watch({ daily: { date: game.daily, variant: game.variant } }, wait,
          (j) => `making the day's puzzle: ${plural(j.done, "deal")} tried · ${j.seconds.toFixed(1)} s`);
        if (!made) { out.replaceChildren(el("p", {}, "Cancelled: reload the page to make it.")); return; }
        const v = await post("/api/board", { game, turns: [], plays: [], action: null });
        out.replaceChildren(mini(v.piles, "piles"), mini(v.hand, "hand"),
          el("p", { class: "dim" }, `${v.puzzle.variant}, ${v.puzzle.label}: clear the last ${plural(v.cards_left, "card")}`));
      }
    } catch (e) {
      out.replaceChildren(el("p", {}, String(e.message || e)));
    } finally {
      stop();
    }
  }

  // All at once: the server's pool queues them; the Extreme one, the slowest
  // to make, is asked last.
  const boxes = [...document.querySelectorAll("[data-home]")];
  const order = { classic: 0, cento: 1, extreme: 2 };
  boxes.sort((a, b) => order[a.dataset.home] - order[b.dataset.home]).forEach(draw);
})();
