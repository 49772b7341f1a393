// The daily puzzles' memory, kept in this browser's local storage (nothing
// leaves the machine): the days solved per stream (classic, extreme, cento),
// the streak, a calendar of the month and the next unsolved day; and the
// "solved" screen that shows them. Used by board.js and cento.js.
(function () {
  "use strict";
  const { el } = window.page;
  const KEY = "thegame.daily.";
  const DAY = 86400000;

  const iso = (ms) => new Date(ms).toISOString().slice(0, 10);
  const ms = (day) => Date.parse(day + "T00:00:00Z");
  // The daily puzzles change at midnight UTC (as `thegame daily` does).
  const today = () => iso(Date.now());

  function load(stream) {
    try { return JSON.parse(localStorage.getItem(KEY + stream) || "{}") || {}; } catch (e) { return {}; }
  }

  function save(stream, day, result) {
    const all = load(stream);
    const old = all[day];
    // The first solve of a day is the one that counts (a replay does not improve it).
    if (!old) all[day] = result;
    try { localStorage.setItem(KEY + stream, JSON.stringify(all)); } catch (e) { /* private mode: no memory */ }
    return all;
  }

  // Days solved in a row, up to today (or up to yesterday while today is still open).
  function streak(stream) {
    const all = load(stream);
    let t = ms(today());
    if (!all[iso(t)]) t -= DAY;
    let n = 0;
    while (all[iso(t)]) { n += 1; t -= DAY; }
    return n;
  }

  // The first unsolved day after ``day`` up to today; else the latest unsolved
  // before it (``has``: the days there are, where not every day is).
  function nextUnsolved(stream, day, has) {
    const all = load(stream), last = ms(today());
    const open = (d) => !all[d] && (!has || has(d));
    for (let t = ms(day) + DAY; t <= last; t += DAY) if (open(iso(t))) return iso(t);
    for (let t = Math.min(ms(day), last) - DAY, k = 0; k < 366; t -= DAY, k++) if (open(iso(t)) && iso(t) !== day) return iso(t);
    return null;
  }

  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"];

  // The month of ``day``: each day a link to its puzzle, the solved ones
  // marked. ``opts``: ``has`` (the days there are, where not every day is),
  // ``number`` (a day's puzzle number, said with it).
  function calendar(stream, day, href, opts) {
    const o = opts || {};
    const all = load(stream), now = today();
    const d = new Date(ms(day));
    const y = d.getUTCFullYear(), m = d.getUTCMonth();
    const first = Date.UTC(y, m, 1), days = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    const solved = Object.keys(all).filter((k) => k.startsWith(iso(first).slice(0, 8))).length;
    const t = el("table", { class: "calendar", "data-calendar": iso(first).slice(0, 7) });
    t.append(el("caption", {}, `${MONTHS[m]} ${y}: ${solved} solved`));
    const head = el("tr", {});
    for (const w of ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]) head.append(el("th", { scope: "col" }, w));
    const thead = el("thead", {}); thead.append(head); t.append(thead);
    const body = el("tbody", {});
    let row = el("tr", {});
    const lead = (new Date(first).getUTCDay() + 6) % 7;
    for (let k = 0; k < lead; k++) row.append(el("td", {}));
    for (let n = 1; n <= days; n++) {
      const key = iso(Date.UTC(y, m, n));
      const td = el("td", {});
      if (all[key]) td.classList.add("solved");
      if (key === now) td.classList.add("is-today");
      if (key === day) td.classList.add("is-this");
      const no = o.number && o.number(key) ? `, No. ${o.number(key)}` : "";
      const words = `${n} ${MONTHS[m]}${no}` + (all[key] ? ", solved" : "") + (key === now ? ", today" : "");
      if (key > now) td.append(el("span", { "aria-label": words + ", not yet" }, String(n)));
      else if (o.has && !o.has(key)) td.append(el("span", { class: "dim", "aria-label": `${n} ${MONTHS[m]}, no puzzle here` }, String(n)));
      else {
        const a = el("a", { href: href(key), "aria-label": words, "data-day": key }, String(n));
        if (no) a.append(el("small", { class: "no", "aria-hidden": "true" }, `#${o.number(key)}`));
        td.append(a);
      }
      row.append(td);
      if ((lead + n) % 7 === 0) { body.append(row); row = el("tr", {}); }
    }
    if (row.children.length) body.append(row);
    t.append(body);
    return t;
  }

  function streakText(n) { return `streak: ${n} day${n === 1 ? "" : "s"}`; }

  // The counter shown on a daily page (``#streak``), kept in step.
  function showStreak(stream) {
    const box = document.getElementById("streak");
    if (!box) return;
    const n = streak(stream);
    box.dataset.streak = String(n);
    box.replaceChildren(el("b", {}, String(n)), document.createTextNode(` day${n === 1 ? "" : "s"} in a row`));
  }

  // The solved screen: the figures, the share text and its Copy, the streak,
  // the next unsolved day and the month.
  function solvedScreen(box, o) {
    save(o.stream, o.day, { turns: o.turns, hints: o.hints, steps: o.steps });
    showStreak(o.stream);
    const n = streak(o.stream);
    box.append(el("h2", {}, "Solved!"));
    const figs = el("ul", { class: "result-figures" });
    const li = (big, text) => { const e = el("li", {}); e.append(el("b", {}, big), document.createTextNode(" " + text)); return e; };
    figs.append(li(String(o.turns), `turn${o.turns === 1 ? "" : "s"} taken`));
    figs.append(li(String(o.optimum), o.optimumWords));
    figs.append(li(String(o.hints), `hint${o.hints === 1 ? "" : "s"}`));
    figs.append(li(String(o.steps), `solution step${o.steps === 1 ? "" : "s"}`));
    box.append(figs);
    const verdict = o.turns <= o.optimum ? (o.hints + o.steps ? "as few turns as the puzzle's line, with help"
      : "as few turns as the puzzle's line, without help") : `${o.turns - o.optimum} turn${o.turns - o.optimum === 1 ? "" : "s"} more than the puzzle's line`;
    box.append(el("p", {}, verdict + "."));
    if (o.share) {
      box.append(el("p", {}, "Share it (no spoilers):"));
      box.append(el("pre", { "data-share": "" }, o.share));
      const copy = el("button", { type: "button", "data-action": "copy" }, "Copy");
      const said = el("span", { role: "status", class: "copied" });
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(o.share); said.textContent = " copied"; }
        catch (e) { said.textContent = " select the text above to copy it"; }
      });
      box.append(copy, said);
    }
    const s = el("p", { class: "streak" });
    s.append(el("b", { "data-streak": String(n) }, String(n)), document.createTextNode(` day${n === 1 ? "" : "s"} in a row solved here`));
    box.append(s);
    const next = nextUnsolved(o.stream, o.day, o.has);
    if (next) {
      const p = el("p", {});
      p.append(el("a", { href: o.href(next), "data-action": "next-day" }, `Next unsolved day: ${next} →`));
      box.append(p);
    }
    else box.append(el("p", { class: "dim" }, "Every day of the last year solved."));
    box.append(calendar(o.stream, o.day, o.href, { has: o.has, number: o.number }));
  }

  window.daily = { load, save, streak, nextUnsolved, calendar, showStreak, solvedScreen, today };
})();
