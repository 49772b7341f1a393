// The Cento daily played in the day's page (?variant=cento): one player,
// empty the hand in as few turns as the proven line. The rules are the
// JavaScript Cento referee's (cento.js, rules Z1-Z5); a turn is built step
// by step (the 100 as Trick or Treat, a draw, plays, a free card named) and
// ends by itself once nothing more can be played, or on End turn.
(function () {
  "use strict";
  const { el, face, plural } = window.page;

  function start(p, o) {
    const C = window.TheGameCento, board = o.board, $ = (id) => document.getElementById(id);
    const deal = C.deal(p.deal);
    let done = [], cur = [], state = null, turn = null, steps = 0;

    function apply(b, s) {
      if (s.kind === "trick") b.trick();
      else if (s.kind === "treat") b.treat();
      else if (s.kind === "draw") b.draw();
      else b.play(s.card, s.as);
    }

    function rebuild() {
      state = C.initialState(deal);
      for (const t of done) { const b = new C.Turn(deal, state); t.forEach((s) => apply(b, s)); state = b.finish(); }
      turn = state.status === "in_progress" ? new C.Turn(deal, state) : null;
      if (turn) cur.forEach((s) => apply(turn, s));
    }

    const say = (t) => { $("message").textContent = t; };

    // One step, or End turn (s null); a refusal is said with its rule.
    function step(s) {
      try {
        if (s) { apply(turn, s); cur.push(s); }
        if (!s || (!turn.canContinue() && turn.phase !== "start" && turn.phase !== "tricked")) end();
        say("");
      } catch (e) {
        if (!(e instanceof C.TurnError)) throw e;
        say(e.message);
      }
      render();
    }

    function end() {
      state = turn.finish();
      done.push(cur); cur = [];
      turn = state.status === "in_progress" ? new C.Turn(deal, state) : null;
    }

    function undo() {
      if (cur.length) cur.pop();
      else if (done.length) cur = done.pop().slice(0, -1);
      rebuild(); say(""); render();
    }

    function cardButton(c, i) {
      const text = C.cardText(c);
      const b = el("button", { type: "button", class: "card", "data-card": text, "data-index": String(i) });
      b.append(face(c === C.FREE ? "free" : c));
      const fitting = turn && (c === C.FREE || (deal.rules.isNumber(c) && C.fits(c, turn.open)));
      b.setAttribute("aria-label", `card ${text}` + (c === C.FREE ? ", free: name its value" : fitting ? "" : ", shares no digit with the open card"));
      b.disabled = !turn;
      b.addEventListener("click", () => {
        if (c === C.FREE) { $("cento-name").focus(); say("a free card: name its value (1-99), then Play the free card"); return; }
        if (c === C.HUNDRED && deal.rules.special) { say("the 100: show it as a Trick or lay it out as a Treat"); return; }
        step({ kind: "play", card: c });
      });
      return b;
    }

    function status() {
      if (state.status === "won") return `Solved in ${plural(done.length, "turn")}.`;
      if (state.status === "blocked") return `Blocked: ${state.hands[0].length} cards left and the draw pile is empty.`;
      const bound = turn.bound ? " · bound (Z2): play a single-digit card or draw the penalty" : "";
      return `Turn ${done.length + 1} · open card ${turn.open} · ${plural(turn.hand.length, "card")} in hand · draw pile ${deal.draw.length - turn.pos}${bound}`;
    }

    function render() {
      board.dataset.state = state.status === "won" ? "solved" : state.status === "blocked" ? "lost" : "playing";
      board.dataset.turns = String(done.length);
      $("status").textContent = status();
      const open = el("div", { class: "pile", role: "img", "aria-label": `the open card: ${turn ? turn.open : state.open}` });
      open.append(face(turn ? turn.open : state.open));
      $("piles").replaceChildren(open);
      const hand = turn ? turn.hand : state.hands[0];
      $("hand").replaceChildren(...hand.map(cardButton));
      const has = (c) => turn && turn.hand.includes(c);
      for (const b of board.querySelectorAll("[data-cento]")) {
        const a = b.dataset.cento;
        b.hidden = (a === "trick" || a === "treat") && !(deal.rules.special && has(C.HUNDRED));
        b.disabled = a === "undo" ? !(cur.length || done.length) || state.status === "won" : !turn;
      }
      $("cento-free").hidden = !has(C.FREE);
      $("line").textContent = done.length ? `turns played: ${done.length}` : "";
      renderEnd();
    }

    function renderEnd() {
      const box = $("end");
      if (state.status === "in_progress") { box.hidden = true; return; }
      box.hidden = false;
      box.replaceChildren();
      if (state.status === "won") {
        const share = `thegame daily No. ${o.number} (Cento)\nemptied in ${plural(done.length, "turn")}; the proven fewest: ${p.turn_count}\n` + (steps ? "" : "no help");
        window.daily.solvedScreen(box, { stream: "cento", day: o.day, turns: done.length, optimum: p.turn_count,
          optimumWords: "turns, the proven fewest", hints: 0, steps, share, href: o.href, has: o.has, number: o.numberOf });
      } else {
        box.append(el("h2", {}, "Blocked"), el("p", {}, "Take turns back (Undo) and try another way."));
      }
      box.append(solution());
    }

    function solution() {
      const d = el("details", { class: "cento-solution" });
      d.append(el("summary", {}, "Show the proven line"));
      p.turns.forEach((t, k) => d.append(el("p", {}, `turn ${k + 1}: ` + [t.trick ? "Trick" : "", t.treat ? "Treat" : "",
        t.draw ? `draw ${t.draw}` : "", ...t.plays.map((x) => (x.card === "free" ? `free as ${x.as}` : String(x.card)))].filter(Boolean).join(", "))));
      return d;
    }

    function controls() {
      const box = el("div", { class: "actions cento-actions" });
      const button = (name, text, fn) => {
        const b = el("button", { type: "button", "data-cento": name }, text);
        b.addEventListener("click", fn);
        return b;
      };
      box.append(button("draw", "Draw", () => step({ kind: "draw" })), button("end-turn", "End turn", () => step(null)),
        button("trick", "Trick: show the 100", () => step({ kind: "trick" })),
        button("treat", "Treat: lay out the 100", () => step({ kind: "treat" })), button("undo", "Undo", undo));
      const free = el("div", { id: "cento-free", class: "cento-free" });
      const input = el("input", { id: "cento-name", type: "number", min: "1", max: "99", inputmode: "numeric" });
      const label = el("label", { for: "cento-name" }, "Name the free card ");
      free.append(label, input, button("free", "Play the free card", () => step({ kind: "play", card: C.FREE, as: Number(input.value) || null })));
      return [box, free];
    }

    for (const b of board.querySelectorAll(".actions")) b.hidden = true;
    $("hand").after(...controls());
    $("info").replaceChildren(el("p", {}, "The draw pile is face down; cards that share a digit with the open card fit it (Z1)."));
    board.dataset.centoFewest = String(p.turn_count);
    rebuild();
    render();
    return { undo };
  }

  window.centoDay = { start };
})();
