// The site's service worker: the shell is kept when it installs, each page
// visited asks it to keep that page's files, and every request is answered
// from the network when there is one (so new days appear) and from what was
// kept when there is none. One cache per build: a new build replaces it.
const CACHE = "thegame-daily-{{version}}";
const SHELL = ["./", "archive/", "days.json", "manifest.webmanifest", "assets/style.css", "assets/site.css",
  "assets/page.js", "assets/daily.js", "assets/site.js", "assets/home.js", "assets/day.js",
  "assets/thinker.js", "assets/solve-worker.js", "assets/archive.js", "assets/referee.js", "assets/cento.js", "assets/cento-day.js", "assets/icon.svg",
  "assets/icon-192.png", "assets/icon-512.png"];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k.startsWith("thegame-daily-") && k !== CACHE).map((k) => caches.delete(k)),
  )).then(() => self.clients.claim()));
});

self.addEventListener("message", (ev) => {
  const urls = (ev.data && ev.data.keep) || [];
  const port = ev.ports[0];
  ev.waitUntil(caches.open(CACHE).then((c) => Promise.all(urls.map((u) => fetch(u).then((r) => {
    if (r.ok) return c.put(u, r);
    return undefined;
  }).catch(() => undefined)))).then(() => { if (port) port.postMessage({ kept: urls.length }); }));
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  ev.respondWith(fetch(req).then((resp) => {
    if (resp.ok) {
      const copy = resp.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return resp;
  }).catch(() => caches.open(CACHE).then((c) => c.match(req, { ignoreSearch: true }))
    .then((hit) => hit || new Response("offline, and this page was not kept", { status: 503, headers: { "Content-Type": "text/plain" } }))));
});
