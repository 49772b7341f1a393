// The in-page solver's own thread: a dedicated worker that loads the
// WebAssembly search core (solver.js, solver.wasm, beside this file) and
// answers one search at a time, so a hard position never freezes the page.
// The page stops a search by ending the worker (thinker.js).
//   in:  {id, config, turns, options}   (solver.js's solve)
//   out: {ready: true} | {failed: why}  once, when the core is loaded or not
//        {id, answer} | {id, error}      per search, in the order asked
/* global TheGameSolver */
"use strict";
importScripts("solver.js");

const why = (e) => String((e && e.message) || e);
const loaded = TheGameSolver.load("solver.wasm");
loaded.then(() => postMessage({ ready: true }), (e) => postMessage({ failed: why(e) }));

self.onmessage = (ev) => {
  const { id, config, turns, options } = ev.data;
  loaded.then((solver) => {
    const t0 = performance.now();
    const answer = solver.solve(config, turns, options);
    answer.ms = performance.now() - t0;
    postMessage({ id, answer });
  }).catch((e) => postMessage({ id, error: why(e) }));
};
