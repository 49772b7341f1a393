// The Mind's page before its odds are counted: the count runs as a job the
// page watches (levels counted so far, a Cancel); the page shows the odds
// once they are in (the server keeps them).
(function () {
  "use strict";
  const box = document.getElementById("mind-wait");
  if (!box) return;
  const { el, watch, plural } = window.page;
  const start = { mind_odds: { players: Number(box.dataset.players), tolerance: Number(box.dataset.tolerance) } };
  const words = (j) => `counting: ${j.done} of ${plural(j.total || 0, "level")} counted · ${j.seconds.toFixed(1)} s`;
  watch(start, box, words).then((job) => {
    if (job) { location.reload(); return; }
    box.dataset.state = "cancelled";
    box.replaceChildren(el("span", {}, "Count cancelled. Press Count to start it again."));
  }, (e) => {
    box.dataset.state = "failed";
    box.replaceChildren(el("span", { class: "warn" }, e.message));
  });
})();
