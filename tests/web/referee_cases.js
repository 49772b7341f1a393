// Plays the cases of test_referee.py through the JavaScript referee and
// prints, for each action, what the referee answered and the position after
// it, in the shape the test compares with the Python rules engine.
"use strict";
const fs = require("fs");
const { Game } = require(process.argv[2]);
const cases = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));

function snapshot(g) {
  return {
    status: g.status, reason: g.reason, tops: g.tops.slice(), hand: g.hand(), current: g.current + 1,
    turn: g.turn, minimum: g.turnMin, cards_left: g.cardsLeft(), can_end: g.over ? false : g.canEndTurn(),
    end_loses: g.over ? null : g.endLoses(), legal: g.legalPlays().map((p) => `${p.card} ${p.pile}`),
    losing: g.losingPlays().map((p) => `${p.card} ${p.pile}`),
  };
}

const out = cases.map((c) => {
  const g = new Game(c.spec);
  const steps = [snapshot(g)];
  for (const a of c.actions) {
    let error = null;
    try {
      if (a.do === "play") g.play(a.card, a.pile);
      else if (a.do === "end") g.endTurn();
      else g.undoPlay();
    } catch (e) {
      if (e.rule === undefined) throw e;
      error = { rule: e.rule, message: e.text };
    }
    steps.push({ error, ...snapshot(g) });
  }
  return steps;
});
process.stdout.write(JSON.stringify(out));
