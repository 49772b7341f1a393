// What the static daily site's pages share (home.js, day.js, archive.js):
// where the site's root is (every link is relative, so the site works from
// any sub-path), today's date (UTC), the list of days the site holds, the
// links to a day, and the service worker that keeps visited days offline.
(function () {
  "use strict";
  const html = document.documentElement;
  const root = html.dataset.root || "./";
  const STREAMS = { classic: "Daily", extreme: "Extreme", cento: "Cento" };

  // A day's page: the classic family's daily, or ?variant=extreme|cento.
  const dayHref = (day, stream) => `${root}daily/${day}/` + (stream && stream !== "classic" ? `?variant=${stream}` : "");

  async function getJSON(path) {
    const resp = await fetch(root + path, { cache: "no-cache" });
    if (!resp.ok) throw new Error(`${path}: ${resp.status}`);
    return resp.json();
  }

  // The days of the site whose date (UTC) has come: the others are on the
  // host but never shown nor linked.
  async function days() {
    const all = await getJSON("days.json");
    const now = window.daily.today();
    const shown = all.days.filter((d) => d <= now);
    return { all, shown, has: (d) => shown.includes(d), now };
  }

  // The service worker: a page once visited reloads with the network off.
  // It keeps the shell when installed; each page asks it to keep its own files.
  function offline(files) {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(root + "sw.js").then(() => navigator.serviceWorker.ready).then((reg) => {
      const urls = [location.href.split("#")[0], ...files.map((f) => new URL(root + f, location.href).href)];
      const channel = new MessageChannel();
      channel.port1.onmessage = (ev) => { html.dataset.offline = ev.data && ev.data.kept ? "ready" : "failed"; };
      reg.active.postMessage({ keep: urls }, [channel.port2]);
    }).catch(() => { html.dataset.offline = "failed"; });
  }

  window.site = { root, dayHref, getJSON, days, offline, STREAMS };
})();
