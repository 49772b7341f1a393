// The table of a daily puzzle or a real game. The rules live on the server:
// every action goes to /api/board, which replays the game through the rules
// engine and answers with the position; this script only draws it and
// highlights the piles the server says take the chosen card.
(function () {
  "use strict";
  const root = document.getElementById("board");
  const game = JSON.parse(root.dataset.game);
  const mode = root.dataset.mode;
  let turns = [], plays = [], view = null, selected = null, helped = 0, busy = false;
  // Hot seat: after a turn ends the next hand stays hidden until its player asks.
  let shownFor = null;

  const $ = (id) => document.getElementById(id);
  const { el } = window.page;
  const COMMAND = { stop: "stop", skull: "skull", three: "three", "no-trick": "no trick",
    "one-pile": "one pile", "draw-one": "draw one", "no-talk": "no talk" };

  async function send(action) {
    if (busy) return;
    busy = true;
    root.setAttribute("aria-busy", "true");
    if (action === "hint" || action === "solution") $("message").textContent = "thinking…";
    try {
      const resp = await fetch("/api/board", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game, turns, plays, action, helped }),
      });
      const data = await resp.json();
      if (!resp.ok) { $("message").textContent = data.error || ("error " + resp.status); return; }
      turns = data.turns; plays = data.plays; view = data; selected = null;
      if (data.hint || data.step) helped += 1;
      render();
    } catch (e) {
      $("message").textContent = "the server did not answer: " + e;
    } finally {
      busy = false;
      root.removeAttribute("aria-busy");
    }
  }

  function pileButton(p) {
    const b = el("button", { type: "button", class: "pile " + (p.ascending ? "up" : "down"),
      "data-pile": p.pile, "data-top": String(p.top) });
    if (p.start) b.classList.add("start");
    if (p.fire) b.classList.add("fire");
    if (p.cover) b.classList.add("cover");
    b.append(el("span", { class: "dir" }, p.pile + (p.ascending ? " ↑" : " ↓")));
    b.append(el("span", { class: "top" }, String(p.top)));
    b.append(el("span", { class: "room" + (p.room === 0 ? " none" : "") }, `room ${p.room}`));
    let label = `pile ${p.pile}, ${p.ascending ? "ascending" : "descending"}, shows ${p.top}, room for ${p.room} more`;
    if (p.command) { b.append(el("span", { class: "tag" }, COMMAND[p.command])); label += `, ${COMMAND[p.command]} command`; }
    if (p.cover) { b.append(el("span", { class: "tag" }, "cover!")); label += ", fire card: cover it this turn"; }
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => choosePile(p.pile));
    return b;
  }

  function cardButton(c) {
    const legal = view.legal[String(c.card)] || [];
    const b = el("button", { type: "button", class: "card", "data-card": String(c.card),
      "aria-pressed": "false" }, String(c.card));
    let label = `card ${c.card}`;
    if (c.fire) { b.classList.add("fire"); label += ", fire card"; }
    if (c.command) { b.append(el("span", { class: "tag" }, COMMAND[c.command])); label += `, ${COMMAND[c.command]} command`; }
    if (!legal.length) { b.classList.add("unplayable"); label += ", no pile takes it now"; }
    b.setAttribute("aria-label", label);
    b.dataset.piles = legal.join(" ");
    b.addEventListener("click", () => chooseCard(c.card));
    return b;
  }

  function chooseCard(card) {
    selected = selected === card ? null : card;
    highlight();
  }

  function highlight() {
    const takes = selected === null ? [] : (view.legal[String(selected)] || []);
    const loses = selected === null ? [] : (view.losing[String(selected)] || []);
    for (const b of document.querySelectorAll("#hand .card")) {
      const on = Number(b.dataset.card) === selected;
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    }
    for (const b of document.querySelectorAll("#piles .pile")) {
      b.classList.toggle("takes", takes.includes(b.dataset.pile));
      b.classList.toggle("loses", loses.includes(b.dataset.pile));
    }
  }

  function choosePile(pile) {
    if (selected === null) { $("message").textContent = "choose a card of your hand first"; return; }
    const card = selected;
    const loses = view.losing[String(card)] || [];
    if (loses.includes(pile) && !window.confirm(`${card} ${pile} breaks a command and loses the game. Play it?`)) return;
    send({ play: { card, pile } });
  }

  function render() {
    const v = view;
    root.dataset.state = v.state;
    const piles = $("piles"); piles.replaceChildren(...v.piles.map(pileButton));
    const who = v.players > 1 ? `player ${v.player} to move · ` : "";
    let status;
    if (v.state === "solved") status = `Solved in ${v.turns_taken} turns.`;
    else if (v.state === "lost") status = `Lost: ${v.reason} · ${v.cards_left} cards left.`;
    else status = `Turn ${v.turn} · ${who}played ${v.played} of at least ${v.minimum} · ${v.cards_left} cards left`;
    $("status").textContent = status;
    const info = $("info"); info.replaceChildren();
    const draw = el("span", { class: "draw" });
    if (v.draw_pile && mode === "daily") draw.textContent = `draw pile (top first): ${v.draw_pile.join(" ") || "empty"}`;
    else {
      draw.append(el("span", { class: "card facedown", "aria-label": `draw pile: ${v.draw_left} cards face down` }, String(v.draw_left)));
      draw.append(document.createTextNode(" cards in the draw pile"));
    }
    info.append(draw);
    for (const o of v.other_hands) info.append(el("span", { class: "dim" }, ` · player ${o.player}: ${o.cards} cards`));
    const hotSeat = mode === "play" && v.players > 1 && v.state === "playing";
    if (hotSeat && shownFor === null) shownFor = v.player;  // the first hand: no one saw another
    if (hotSeat && shownFor !== v.player) {
      const show = el("button", { type: "button", "data-action": "show-hand" },
        `Player ${v.player}: show my hand`);
      show.addEventListener("click", () => { shownFor = v.player; render(); });
      $("hand").replaceChildren(el("p", {}, `Pass the device to player ${v.player}.`), show);
    } else {
      $("hand").replaceChildren(...v.hand.map(cardButton));
    }
    let msg = "";
    if (v.error) msg = `rule ${v.error.rule}: ${v.error.message}`;
    if (v.step) msg = `solution: ${v.step}`;
    if (v.hint) {
      msg = "hint: " + v.hint.text;
      if (v.hint.estimate) msg += ` (win chance about ${Math.round(100 * v.hint.estimate.win_chance)}% over ${v.hint.estimate.samples} sampled orders)`;
      const first = v.hint.play || (v.hint.plays && v.hint.plays[0]);
      if (first) { selected = first.card; highlight(); }
    }
    $("message").textContent = msg;
    $("line").textContent = v.line ? "played: " + v.line + (v.plays_text.length ? " | " + v.plays_text.join(", ") : "") : (v.plays_text.length ? "played: " + v.plays_text.join(", ") : "");
    const over = v.state !== "playing";
    for (const b of root.querySelectorAll("[data-action]")) {
      const a = b.dataset.action;
      b.disabled = over || (a === "end-turn" && !v.can_end && v.end_loses === null) || (a === "undo" && !v.played && (mode !== "daily" || !v.turns_taken));
    }
    renderEnd(v);
  }

  function renderEnd(v) {
    const end = $("end");
    if (v.state === "playing") { end.hidden = true; return; }
    end.hidden = false; end.replaceChildren();
    if (v.share) {
      end.append(el("p", {}, "Share it (no spoilers):"));
      const pre = el("pre", { "data-share": "" }, v.share); end.append(pre);
      const copy = el("button", { type: "button", "data-action": "copy" }, "Copy");
      copy.addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(v.share));
      end.append(copy);
    }
    if (v.record) {
      const text = JSON.stringify(v.record, null, 1);
      const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
        download: "game.json", "data-action": "download" }, "Download the record");
      end.append(a);
      const form = el("form", { method: "post", action: "/review", enctype: "multipart/form-data" });
      const field = el("textarea", { name: "record", hidden: "" }); field.value = text;
      const go = el("button", { type: "submit", "data-action": "review" }, "Review this game");
      form.append(field, go);
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
    if (ev.target.closest && ev.target.closest("input, textarea")) return;
    const key = { u: "undo", e: "end-turn", h: "hint", s: "solution" }[ev.key];
    const b = key && root.querySelector(`[data-action="${key}"]`);
    if (b && !b.disabled) b.click();
  });
  send(null);
})();
