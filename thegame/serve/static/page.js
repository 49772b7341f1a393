// What every page's script shares (board.js, cento.js, nimmt.js, review.js,
// daily.js, home.js): an element maker, the JSON request to the API, the
// cards drawn in SVG, numbers for people and the visible wait. Loaded by
// every page before its own script, as window.page. No inline script or
// style anywhere: the pages run under a Content-Security-Policy of 'self'.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";

  // An element with attributes and (optionally) its text.
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const svgEl = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // A card's face: the number large in the middle, small in two corners.
  // Decorative (aria-hidden): the button around it carries the words.
  function face(label, opts) {
    const o = opts || {};
    const s = svgEl("svg", { viewBox: "0 0 60 84", class: "face" + (o.cls ? " " + o.cls : ""),
      "aria-hidden": "true", focusable: "false" });
    s.append(svgEl("rect", { x: "1.5", y: "1.5", width: "57", height: "81", rx: "6", class: "paper" }));
    const text = String(label);
    const big = text.length > 2 ? 22 : 28;
    s.append(svgEl("text", { x: "30", y: "52", "text-anchor": "middle", "font-size": String(big), class: "num" }, text));
    s.append(svgEl("text", { x: "6", y: "15", "font-size": "11", class: "corner" }, text));
    s.append(svgEl("text", { x: "54", y: "80", "font-size": "11", "text-anchor": "start",
      transform: "rotate(180 54 76)", class: "corner" }, text));
    if (o.note) s.append(svgEl("text", { x: "30", y: "72", "text-anchor": "middle", "font-size": "9", class: "note" }, o.note));
    return s;
  }

  // The face-down draw pile: a stack of backs (deeper with more cards) and its count.
  function stack(count) {
    const depth = count > 40 ? 3 : count > 10 ? 2 : count > 0 ? 1 : 0;
    const s = svgEl("svg", { viewBox: "0 0 72 96", class: "stack", "aria-hidden": "true", focusable: "false" });
    for (let k = depth - 1; k >= 0; k--) {
      s.append(svgEl("rect", { x: String(1.5 + 4 * k), y: String(1.5 + 4 * (depth - 1 - k)), width: "57",
        height: "81", rx: "6", class: k ? "back under" : "back" }));
    }
    if (!depth) s.append(svgEl("rect", { x: "9.5", y: "9.5", width: "57", height: "81", rx: "6", class: "empty" }));
    const x = 30 + 4 * Math.max(0, depth - 1), y = 8.5 + 4 * Math.max(0, depth - 1) - 4 * Math.max(0, depth - 1);
    s.append(svgEl("circle", { cx: String(x), cy: String(y + 42), r: "15", class: "badge" }));
    s.append(svgEl("text", { x: String(x), y: String(y + 48), "text-anchor": "middle", "font-size": "16", class: "count" }, String(count)));
    return s;
  }

  // POST a JSON body; the answer's JSON, or an Error with the server's one line.
  async function post(url, body, signal) {
    const resp = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal });
    const data = await resp.json();
    if (!resp.ok) throw new Error(data.error || ("error " + resp.status));
    return data;
  }

  // Numbers for people: "37%", "2.4%", "< 0.01%", never e-notation.
  function percent(p) {
    if (p <= 0) return "0%";
    if (p >= 1) return "100%";
    const q = 100 * p;
    if (q < 0.01) return "< 0.01%";
    if (q > 99.99) return "> 99.99%";
    const d = q >= 10 && q <= 90 ? 0 : q >= 1 && q <= 99 ? 1 : 2;
    let t = q.toFixed(d);
    if (t.includes(".")) t = t.replace(/0+$/, "").replace(/\.$/, "");
    return t + "%";
  }

  const IRREGULAR = { inaccuracy: "inaccuracies" };
  function plural(n, word) {
    return `${n} ${n === 1 ? word : IRREGULAR[word] || word + "s"}`;
  }

  // A key meant as a shortcut: no Ctrl, Meta or Alt with it (Ctrl+S saves the
  // page, it does not play a solution step), and not typed into a field.
  function shortcut(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const t = ev.target;
    return !(t && t.closest && t.closest("input, textarea, select, [contenteditable]"));
  }

  // A visible wait: what is being waited for, the seconds so far, a cancel
  // button. Returns a stop function. ``box`` is emptied and filled.
  function waiting(box, what, onCancel) {
    const start = performance.now();
    const bar = el("progress", { "aria-label": what });
    const text = el("span", { class: "elapsed" }, what + "…");
    box.replaceChildren(bar, text);
    if (onCancel) {
      const b = el("button", { type: "button", "data-action": "cancel" }, "Cancel");
      b.addEventListener("click", onCancel);
      box.append(b);
    }
    box.hidden = false;
    const timer = setInterval(() => {
      const s = (performance.now() - start) / 1000;
      text.textContent = `${what}… ${s.toFixed(1)} s`;
    }, 200);
    return () => { clearInterval(timer); box.hidden = true; box.replaceChildren(); };
  }

  // Forms that load a page the server takes seconds to make (a review, The
  // Mind's odds): show the wait, and a cancel that stops the request (the
  // server stops the job when its client goes away).
  for (const form of document.querySelectorAll("form[data-wait]")) {
    form.addEventListener("submit", () => {
      let box = form.querySelector(".wait");
      if (!box) { box = el("div", { class: "wait", role: "status" }); form.append(box); }
      const stop = waiting(box, form.dataset.wait, () => {
        window.stop();
        stop();
        for (const b of form.querySelectorAll("button[type=submit]")) b.disabled = false;
      });
      for (const b of form.querySelectorAll("button[type=submit]")) b.disabled = true;
    });
  }

  // A job the page watches (a review, The Mind's odds): started with
  // /api/jobs and asked how far it got until it ends, its progress (done of
  // total, in words from ``words(job)``) and a Cancel button shown in
  // ``box``. Resolves with the finished job, or null when cancelled.
  async function watch(start, box, words) {
    const first = await post("/api/jobs", start);
    const bar = el("progress", { "aria-label": "progress" });
    const text = el("span", { class: "elapsed", "data-progress": "" }, words(first));
    const cancel = el("button", { type: "button", "data-action": "cancel" }, "Cancel");
    cancel.addEventListener("click", () => {
      cancel.disabled = true;
      post("/api/job/cancel", { id: first.job }).catch(() => {});
    });
    box.replaceChildren(bar, text, cancel);
    box.hidden = false;
    for (;;) {
      const resp = await fetch("/api/job?id=" + encodeURIComponent(first.job));
      const job = await resp.json();
      if (!resp.ok) throw new Error(job.error || ("error " + resp.status));
      // Deals tried have no total (a puzzle is made when one qualifies): the bar stays indeterminate.
      if (job.total && job.unit !== "deals") { bar.max = job.total; bar.value = job.done; }
      text.textContent = words(job);
      if (job.status === "done") return job;
      if (job.status === "cancelled") return null;
      if (job.status === "failed") throw new Error(job.error);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  // A review form (the review page's, a finished game's): the review runs
  // as a watched job (the turns judged so far, a Cancel), then its page is
  // shown. Without script the form posts.
  function watchReview(form) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const box = form.querySelector(".wait") || form.appendChild(el("div", { class: "wait", role: "status" }));
      const submit = form.querySelector("button[type=submit]");
      const upload = form.querySelector("input[type=file]");
      const file = upload && upload.files[0];
      const record = file ? await file.text() : form.querySelector("textarea").value;
      const count = form.querySelector("input[name=samples]");
      const samples = (count && Number(count.value)) || 100;
      submit.disabled = true;
      const words = (j) => (j.done < (j.total || 0) || j.status !== "running"
        ? `reviewing: judged ${j.done} of ${plural(j.total || 0, "turn")}`
        : `reviewing: all ${plural(j.total, "turn")} judged; hindsight`) + ` · ${j.seconds.toFixed(1)} s`;
      try {
        const job = await watch({ analyze: { record, samples } }, box, words);
        if (job) { location.assign("/review?job=" + encodeURIComponent(job.job)); return; }
        box.replaceChildren(el("span", {}, "Review cancelled."));
      } catch (e) {
        box.replaceChildren(el("span", { class: "warn" }, e.message));
      }
      submit.disabled = false;
    });
  }
  for (const form of document.querySelectorAll("form[data-job=analyze]")) watchReview(form);

  for (const a of document.querySelectorAll('a[data-action="back"]')) {
    a.addEventListener("click", (ev) => { if (history.length > 1) { ev.preventDefault(); history.back(); } });
  }

  window.page = { el, svgEl, face, stack, post, percent, plural, shortcut, waiting, watch, watchReview };
})();
