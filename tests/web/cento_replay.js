// Replays step scripts through the JavaScript Cento referee (thegame/web/cento.js)
// for tests/web/test_cento_referee.py: reads [{deal, steps}] on stdin, writes
// each step's answer (as the Python side writes them) as JSON on stdout.
"use strict";
const C = require(process.argv[2]);

function summary(s) {
  return { hands: s.hands.map((h) => h.map(C.cardText)), open: s.open, draw_pos: s.drawPos, to_move: s.toMove + 1,
    obliged: s.obliged, immune: s.immune, passes: s.passes, status: s.status, winners: s.winners.map((w) => w + 1) };
}

function step(b, st) {
  if (st.kind === "trick") b.trick();
  else if (st.kind === "treat") b.treat();
  else if (st.kind === "draw") return { drew: b.draw() };
  else if (st.kind === "play") b.play(st.card === "free" ? C.FREE : st.card, st.as);
  return {};
}

function replay(game) {
  const d = C.deal(game.deal);
  let state = C.initialState(d), b = null;
  const out = [];
  for (const st of game.steps) {
    if (!b) b = new C.Turn(d, state);
    try {
      if (st.kind === "finish") {
        state = b.finish(); b = null;
        out.push({ ok: summary(state) });
      } else {
        const r = step(b, st);
        out.push(Object.assign({ ok: true, can_continue: b.canContinue(), hand: b.hand.map(C.cardText), open: b.open }, r));
      }
    } catch (e) {
      if (!(e instanceof C.TurnError)) throw e;
      out.push({ rule: e.rule, message: e.text, play: e.play });
    }
  }
  return out;
}

let input = "";
process.stdin.on("data", (c) => { input += c; });
process.stdin.on("end", () => { process.stdout.write(JSON.stringify(JSON.parse(input).map(replay))); });
