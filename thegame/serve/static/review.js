// The review's analysis board: the position before any action of the game
// (the server sends them all, as judged by the review, and the end), stepped
// with the arrows, the buttons, a point of a chart, an action of the list or
// a row of a table; the board, the words, the charts, the list and the
// tables stay in step. Nothing is computed here: the words and figures come
// with the positions. At desktop width the board stays in view (CSS keeps it
// beside the rest); on a phone a jump from far below brings it back.
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const frames = JSON.parse(root.dataset.frames);
  const { el, face, stack, shortcut } = window.page;
  const $ = (id) => document.getElementById(id);
  const WORDS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };
  const wide = window.matchMedia("(min-width: 1024px)");
  let at = 0;

  // A marked action's card and pile are an error (red); the better ones a
  // success (green); an unmarked action's are only outlined.
  function pileCard(name, top, f) {
    const asc = name.startsWith("A");
    const played = f.played && !f.played.end_turn && f.played.pile === name;
    const better = f.better && !f.better.end_turn && f.better.pile === name;
    const box = el("div", { class: "pile " + (asc ? "up" : "down"), "data-pile": name, "data-top": String(top),
      role: "img", "aria-label": `pile ${name}, ${asc ? "ascending" : "descending"}, shows ${top}`
        + (played ? `; played here: ${f.played.card}` : "") + (better ? `; better here: ${f.better.card}` : "") });
    box.append(el("span", { class: "dir" }, name + (asc ? " ↑" : " ↓")), face(top));
    if (played) {
      box.classList.add("played");
      if (f.mark) box.classList.add("err");
      box.append(el("span", { class: "tag played" }, "played " + f.played.card));
    }
    if (better) { box.classList.add("better"); box.append(el("span", { class: "tag better" }, "better " + f.better.card)); }
    return box;
  }

  // The rules an action follows: small links to the rulebook, out of the sentence.
  function ruleRefs(rules) {
    return (rules || []).map((r) => {
      const sup = el("sup", { class: "rule-ref" });
      sup.append(el("a", { href: r.href, "data-rule": r.rule, "aria-label": `rule ${r.rule} in the rulebook` }, r.rule));
      return sup;
    });
  }

  // The draw pile: face down, or, where the player saw it, its next cards face up.
  function drawPile(f) {
    if (!f.draw_pile) {
      const draw = el("div", { class: "draw-stack facedown", role: "img", "aria-label": `draw pile: ${f.draw_left} cards face down` });
      draw.append(stack(f.draw_left));
      return [draw];
    }
    const peek = el("div", { class: "peek", role: "list", "aria-label": `the draw pile in view, top first: ${f.draw_pile.join(", ") || "empty"}` });
    for (const c of f.draw_pile.slice(0, 8)) {
      const e = el("div", { class: "card", role: "listitem", "aria-label": `card ${c}` });
      e.append(face(c));
      peek.append(e);
    }
    const more = f.draw_pile.length > 8 ? ` (+${f.draw_pile.length - 8})` : "";
    const col = el("div", { class: "seen" });
    col.append(el("div", { class: "draw-label" }, f.draw_pile.length ? `in view, top first${more}:` : "the draw pile is empty"), peek);
    return [col];
  }

  function words(f) {
    const box = $("replay-words");
    box.replaceChildren();
    box.classList.toggle("marked", Boolean(f.mark));
    if (f.played) {
      const line = el("p", { class: "what" });
      line.append(el("span", { class: "played" + (f.mark ? " err" : "") }, "played " + (f.played.end_turn ? "end of the turn" : f.played.text)));
      line.append(...ruleRefs(f.rules));
      if (f.mark) line.append(el("b", { class: "mark-cell", "data-mark": f.mark }, ` ${f.mark} ${WORDS[f.mark]}`));
      if (f.better) line.append(document.createTextNode(" · "),
        el("span", { class: "better" }, "better " + (f.better.end_turn ? "end the turn" : f.better.text)));
      box.append(line);
    }
    const said = el("p", { class: "why" }, f.words);
    if (!f.played) said.append(...ruleRefs(f.rules));
    box.append(said);
    if (f.hindsight_text) {
      box.append(el("p", { class: "dim", "data-hindsight-proven": String(Boolean(f.hindsight_proven)) }, f.hindsight_text));
    }
  }

  // Keep the current action of the list in its own scroll box, never the page's.
  function keepInList(item) {
    const list = $("moves");
    if (!list || !item) return;
    const top = item.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    const bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top - 4;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 4;
  }

  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    root.dataset.position = String(at);
    const end = at === frames.length - 1;
    $("replay-label").textContent = end ? `the end (after ${frames.length - 1} actions)`
      : `action ${at + 1} of ${frames.length - 1} · turn ${f.turn}, play ${f.play}` + (f.player > 1 ? ` · player ${f.player}` : "");
    $("replay-piles").replaceChildren(...Object.entries(f.piles).map(([n, t]) => pileCard(n, t, f)));
    $("replay-info").replaceChildren(...drawPile(f));
    $("replay-hand").replaceChildren(...f.hand.map((c) => {
      const played = f.played && f.played.card === c;
      const better = f.better && f.better.card === c;
      const b = el("div", { class: "card" + (played ? " played" : "") + (played && f.mark ? " err" : "") + (better ? " better" : ""),
        role: "img", "aria-label": `card ${c}` + (played ? ", played" : "") + (better ? ", the better play" : "") });
      b.append(face(c));
      return b;
    }));
    words(f);
    for (const b of root.querySelectorAll("[data-action]")) {
      const a = b.dataset.action;
      b.disabled = (a === "first" || a === "prev") ? at === 0 : at === frames.length - 1;
    }
    for (const b of document.querySelectorAll('[data-action$="-mark"]')) {
      b.disabled = b.dataset.action === "next-mark" ? !marked.some((m) => m > at) : !marked.some((m) => m < at);
    }
    // The charts, the list and the tables follow the board.
    for (const e of document.querySelectorAll("[data-chart] [data-position], tr[data-position], #moves [data-position]")) {
      const on = Number(e.dataset.position) === at;
      e.classList.toggle("current", on);
      if (e.tagName !== "circle" && e.tagName !== "g") {
        if (on) e.setAttribute("aria-current", "true"); else e.removeAttribute("aria-current");
      }
      if (on && e.classList.contains("move")) keepInList(e);
    }
  }

  const go = { first: () => 0, prev: () => at - 1, next: () => at + 1, last: () => frames.length - 1 };
  for (const [a, f] of Object.entries(go)) {
    root.querySelector(`[data-action="${a}"]`).addEventListener("click", () => show(f()));
  }
  // The marked actions in order, as lichess steps from mistake to mistake.
  const marked = frames.map((f, i) => (f.mark ? i : -1)).filter((i) => i >= 0);
  const nextMark = () => { const i = marked.find((m) => m > at); return i === undefined ? at : i; };
  const prevMark = () => { const i = marked.filter((m) => m < at).pop(); return i === undefined ? at : i; };
  for (const [a, f] of [["next-mark", nextMark], ["prev-mark", prevMark]]) {
    const b = document.querySelector(`[data-action="${a}"]`);
    if (b) b.addEventListener("click", () => show(f()));
  }
  document.addEventListener("keydown", (ev) => {
    if (!shortcut(ev)) return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: frames.length - 1,
      n: marked.length ? nextMark() : undefined, p: marked.length ? prevMark() : undefined }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    show(to);
  });
  document.addEventListener("click", (ev) => {
    const t = ev.target.closest && ev.target.closest("[data-chart] [data-position], tr[data-position], button[data-position]");
    if (!t) return;
    show(Number(t.dataset.position));
    // Beside the rest (desktop) the board is in view already; stacked (a
    // phone), a jump from a table far below brings the board back.
    if (wide.matches || !t.closest("table")) return;
    const box = root.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) root.scrollIntoView({ block: "start" });
  });
  show(0);
})();
