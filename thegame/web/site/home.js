// The home page: today's three puzzles (the classic family's daily, the
// Extreme daily, the Cento daily), each with its streak here and a link to
// play it; the latest day the site holds when today is not among them.
(function () {
  "use strict";
  const { el, plural } = window.page;
  const { dayHref, getJSON, days, offline } = window.site;

  function card(stream, title, lines, day) {
    const box = el("section", { class: "today-card", "data-home": stream });
    box.append(el("h2", {}, title));
    for (const t of lines) box.append(el("p", {}, t));
    const solved = window.daily.load(stream)[day];
    const streak = window.daily.streak(stream);
    box.append(el("p", { class: "dim" }, (solved ? "solved here · " : "") + `streak: ${plural(streak, "day")}`));
    const p = el("p", {});
    p.append(el("a", { href: dayHref(day, stream), class: "play", "data-action": "play" }, solved ? "See it again" : "Play"));
    box.append(p);
    return box;
  }

  async function main() {
    const note = document.getElementById("today"), grid = document.getElementById("puzzles");
    let d;
    try { d = await days(); } catch (e) { note.textContent = "The list of days could not be read: " + e.message; return; }
    if (!d.shown.length) {
      note.textContent = `The first puzzle of this site comes on ${d.all.first}.`;
      return;
    }
    const day = d.has(d.now) ? d.now : d.shown[d.shown.length - 1];
    note.textContent = day === d.now ? `${day} (UTC): the puzzles change at midnight UTC.`
      : `This site holds no puzzle for today (${d.now}); its latest day is ${day}.`;
    let data;
    try { data = await getJSON(`daily/${day}/day.json`); } catch (e) { note.textContent += " The day could not be read: " + e.message; return; }
    const c = data.classic.puzzle, x = data.extreme.puzzle, k = data.cento;
    grid.replaceChildren(
      card("classic", `No. ${data.number}: ${c.variant}`, [`${c.difficulty.label}: clear every card; the puzzle's line takes ${plural(c.turns.length, "turn")}.`], day),
      card("extreme", "Extreme", [`${x.difficulty.label}: command cards bind the turn or the table; the line takes ${plural(x.turns.length, "turn")}.`], day),
      card("cento", "Cento", [`Empty your hand in ${plural(k.turn_count, "turn")}.`], day),
    );
    const more = el("p", {});
    more.append(el("a", { href: `${window.site.root}archive/` }, "Every earlier day: the archive"));
    grid.after(more);
    offline([`daily/${day}/day.json`]);
  }
  main();
})();
