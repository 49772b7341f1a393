// The page's side of the solver's worker (solve-worker.js): searches asked
// as promises, answered in order off the page's thread, and stop(), which
// ends the worker (a search in WebAssembly cannot be interrupted otherwise)
// and starts a fresh one. A stopped search's promise fails with
// Thinker.STOPPED.
(function () {
  "use strict";
  const STOPPED = "stopped";

  class Thinker {
    constructor(url) {
      this.url = url;
      this.pending = new Map();  // id -> {ok, fail, since}
      this.next = 1;
      this.spawn();
    }

    // A worker; ``ready`` settles once it has loaded the core (or failed to).
    spawn() {
      const w = new Worker(this.url);
      this.worker = w;
      this.ready = new Promise((ok, fail) => {
        w.onerror = (ev) => { ev.preventDefault(); fail(new Error(ev.message || "the solver's worker could not start")); this.failAll(ev.message || "the solver's worker failed"); };
        w.onmessage = (ev) => {
          const m = ev.data || {};
          if (m.ready) ok(this);
          else if (m.failed) { w.terminate(); fail(new Error(m.failed)); }
          else this.settle(m);
        };
      });
      this.ready.catch(() => {});
    }

    settle(m) {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.fail(new Error(m.error));
      else p.ok(m.answer);
    }

    failAll(why) {
      const all = [...this.pending.values()];
      this.pending.clear();
      for (const p of all) p.fail(new Error(why));
    }

    // solver.js's solve(config, turns, options), off the page's thread.
    solve(config, turns, options) {
      const id = this.next++;
      return new Promise((ok, fail) => {
        this.pending.set(id, { ok, fail, since: performance.now() });
        this.worker.postMessage({ id, config, turns, options });
      });
    }

    busy() { return this.pending.size > 0; }

    // Milliseconds since the oldest search in flight was asked (0: none).
    elapsed() {
      let first = Infinity;
      for (const p of this.pending.values()) first = Math.min(first, p.since);
      return first === Infinity ? 0 : performance.now() - first;
    }

    stop() {
      if (!this.busy()) return;
      this.worker.terminate();
      this.failAll(STOPPED);
      this.spawn();
    }
  }

  Thinker.STOPPED = STOPPED;
  Thinker.load = (url) => { const t = new Thinker(url); return t.ready; };
  window.Thinker = Thinker;
})();
