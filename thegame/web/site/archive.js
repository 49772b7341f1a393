// The archive: a calendar for each month of the site up to today (UTC),
// each day a link to its puzzle with its number, the days solved in this
// browser marked. Days to come are not drawn.
(function () {
  "use strict";
  const { el } = window.page;
  const { dayHref, days, offline, STREAMS } = window.site;
  let stream = new URLSearchParams(location.search).get("variant") || "classic";
  if (!(stream in STREAMS)) stream = "classic";

  async function main() {
    const note = document.getElementById("archive-note"), months = document.getElementById("months");
    let d;
    try { d = await days(); } catch (e) { note.textContent = "The list of days could not be read: " + e.message; return; }
    const box = document.getElementById("archive-streams");
    for (const [s, name] of Object.entries(STREAMS)) {
      const a = el("a", { href: `?variant=${s}` }, name);
      if (s === stream) a.setAttribute("aria-current", "page");
      box.append(a);
    }
    if (!d.shown.length) { note.textContent = `The first puzzle of this site comes on ${d.all.first}.`; return; }
    const mine = window.daily.load(stream);
    const solved = Object.keys(mine).filter(d.has).sort();
    note.textContent = `${d.shown.length} days from ${d.shown[0]} to ${d.shown[d.shown.length - 1]}; ${solved.length} solved in this browser.`;
    // The stats, from this browser's record: the streak, the longest run, the days solved without help.
    let best = 0, run = 0, prev = null;
    for (const day of solved) {
      run = prev && Date.parse(day) - Date.parse(prev) === 86400000 ? run + 1 : 1;
      best = Math.max(best, run);
      prev = day;
    }
    const clean = solved.filter((x) => !mine[x].hints && !mine[x].steps).length;
    const stats = el("p", { class: "stats", "data-stats": stream });
    stats.textContent = `streak: ${window.page.plural(window.daily.streak(stream), "day")} · longest: ${window.page.plural(best, "day")} · solved without help: ${clean}`;
    note.after(stats);
    const seen = [];
    for (const day of d.shown.slice().reverse()) if (!seen.includes(day.slice(0, 7))) seen.push(day.slice(0, 7));
    for (const month of seen) {
      const first = d.shown.find((x) => x.startsWith(month));
      const t = window.daily.calendar(stream, first, (x) => dayHref(x, stream), { has: d.has, number: (x) => d.all.numbers[x] });
      t.classList.add("archive-month");
      months.append(t);
    }
    offline([]);
  }
  main();
})();
