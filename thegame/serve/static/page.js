// What the game pages' scripts share (cento.js, nimmt.js, board.js): an
// element maker and the JSON request to the API. Loaded before each page's
// own script, as window.page.
(function () {
  "use strict";
  // An element with attributes and (optionally) its text.
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // POST a JSON body; the answer's JSON, or an Error with the server's one line.
  async function post(url, body) {
    const resp = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    const data = await resp.json();
    if (!resp.ok) throw new Error(data.error || ("error " + resp.status));
    return data;
  }

  window.page = { el, post };
})();
