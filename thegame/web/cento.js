// The rules of Cento game 2 in the browser (rules Z1-Z5 of the rulebook,
// thegame/rulebook/cento.md): a port of the Python rules engine
// (thegame.models.cento.state: a position, and one turn built step by step),
// checked against it step for step by the tests; the rule ids and messages
// are the same. A deal is the Python Deal's JSON (deal.to_dict()); a free
// card is "free" there and FREE (0) here. Runs under Node too (module.exports).
(function (root) {
  "use strict";

  const FREE = 0, HUNDRED = 100, MAX_NAMED = 99;

  class TurnError extends Error {
    constructor(rule, message, play) {
      super(`rule ${rule}: ${message}`);
      this.rule = rule; this.text = message; this.play = play == null ? null : play;
    }
  }

  const digits = (v) => new Set(String(v).split("").map(Number));
  const isSingle = (v) => v >= 1 && v <= 9;                       // rule Z2
  const repdigit = (v) => (v >= 11 && v <= 99 && v % 11 === 0 ? v / 11 : null);  // rule Z3
  // Rule Z1: shares a digit with the open card; Z2: single on single fits.
  function fits(value, open) {
    if (isSingle(value) && isSingle(open)) return true;
    const d = digits(open);
    return [...digits(value)].some((x) => d.has(x));
  }
  const cardText = (c) => (c === FREE ? "free" : String(c));
  const fromJSON = (c) => (c === "free" ? FREE : c);
  const sortCards = (cs) => cs.slice().sort((a, b) => (a === FREE ? 1000 : a) - (b === FREE ? 1000 : b));

  // A deal from its JSON: the rules with their defaults filled in (Rules()).
  function deal(json) {
    const r = Object.assign({ low: 1, high: 100, hand_size: 7, free_cards: 4, penalty: 3, trick_draw: 3,
      hundred: "trick_treat", chain_all: false }, json.rules || {});
    const special = r.high === HUNDRED && r.hundred === "trick_treat";
    const rules = Object.assign(r, { special, isNumber: (c) => c !== FREE && !(c === HUNDRED && special) });
    return { rules, hands: json.hands.map((h) => h.map(fromJSON)), open: json.open, draw: json.draw.map(fromJSON) };
  }

  // Player 1 moves first; nobody is bound by the open card (rule Z2 Decision).
  function initialState(d) {
    return { hands: d.hands.map((h) => h.slice()), open: d.open, drawPos: 0, toMove: 0, obliged: false,
      immune: d.hands.map(() => false), passes: 0, status: "in_progress", winners: [] };
  }

  // One turn of the player to move, step by step; each step obeys the
  // rules or throws a TurnError with the rule id (the builder unchanged).
  class Turn {
    constructor(d, state) {
      if (state.status !== "in_progress") throw new TurnError("Z1", "the game is over");
      this.deal = d; this.rules = d.rules; this.state = state;
      this.player = state.toMove;
      this.hands = state.hands.map((h) => h.slice());
      this.pos = state.drawPos; this.open = state.open; this.immune = state.immune.slice();
      this.bound = state.obliged && !state.immune[this.player];
      this.phase = "start"; this.chain = null; this.plays = []; this.drawn = null; this.drew = 0;
      this.trickShown = false; this.treated = false;
    }

    get hand() { return this.hands[this.player]; }

    take(n) {
      const cards = this.deal.draw.slice(this.pos, this.pos + n);
      this.pos += cards.length;
      return cards;
    }

    checkOpen(rule) {
      const at = this.plays.length + 1;
      if (this.phase === "over") throw new TurnError("Z1", "the game is over: the hand is empty", at);
      if (this.phase === "treated") throw new TurnError("Z5", "a Treat is the whole turn", at);
      if (this.phase === "penalty") throw new TurnError("Z2", "a player who draws the penalty misses the turn", at);
      if (this.phase === "passed") throw new TurnError(rule, "the turn has passed", at);
    }

    // Rule Z1: some card of the hand fits the open card (a free card always does).
    canPlay() { return this.hand.some((c) => c === FREE || (this.rules.isNumber(c) && fits(c, this.open))); }

    hundred(what) {
      if (!this.rules.special) throw new TurnError("Z5", "the 100 is a plain card in these rules");
      if (this.phase !== "start") throw new TurnError("Z5", what);
      if (!this.hand.includes(HUNDRED)) throw new TurnError("Z5", "the player does not hold the 100");
    }

    // Rule Z5 Trick: show the 100 first; every other player draws.
    trick() {
      this.hundred("the Trick is shown at the start of the turn");
      this.hand.splice(this.hand.indexOf(HUNDRED), 1);
      this.trickShown = true;
      const n = this.hands.length;
      for (let k = 1; k < n; k++) this.hands[(this.player + k) % n].push(...this.take(this.rules.trick_draw));
      this.phase = this.hand.length ? "tricked" : "over";
    }

    // Rule Z5 Treat: lay the 100 out instead of playing; immune to Z2 from the next turn on.
    treat() {
      this.hundred("a Treat is the whole turn");
      if (this.bound) throw new TurnError("Z2", "a bound player plays a single-digit card or draws");
      this.hand.splice(this.hand.indexOf(HUNDRED), 1);
      this.immune[this.player] = true;
      this.treated = true;
      this.phase = this.hand.length ? "treated" : "over";
    }

    // The Z2 penalty when bound, else one card when no card fits (Z1); the count drawn.
    draw() {
      this.checkOpen("Z1");
      if (this.phase !== "start" && this.phase !== "tricked") throw new TurnError("Z1", "the player draws before playing", this.plays.length + 1);
      if (this.bound) {
        const got = this.take(this.rules.penalty);
        this.hand.push(...got); this.drew = got.length; this.phase = "penalty";
        return this.drew;
      }
      if (this.canPlay()) throw new TurnError("Z1", "a player who holds a fitting card must play");
      const got = this.take(1);
      this.hand.push(...got); this.drew = got.length;
      if (got.length) { this.drawn = got[0]; this.phase = "drawn"; } else this.phase = "passed";
      return this.drew;
    }

    value(card, named, at) {
      if (card === FREE) {
        if (named == null || !(named >= 1 && named <= MAX_NAMED)) throw new TurnError("Z4", `a free card is named 1..99, not ${named == null ? "None" : named}`, at);
        return named;
      }
      if (named != null) throw new TurnError("Z4", "only a free card is named", at);
      if (!this.rules.isNumber(card)) throw new TurnError("Z5", "the 100 is shown (Trick) or laid out (Treat), never played", at);
      return card;
    }

    play(card, named) {
      const at = this.plays.length + 1;
      this.checkOpen("Z1");
      const value = this.value(card, named, at);
      if (this.phase === "drawn" && card !== this.drawn) throw new TurnError("Z1", `after drawing, only the drawn card (${cardText(this.drawn || 0)}) may be played`, at);
      if (!this.hand.includes(card)) throw new TurnError("Z1", `the player does not hold ${cardText(card)}`, at);
      if (!this.plays.length) {
        if (this.bound) {
          if (!isSingle(value)) throw new TurnError("Z2", `a bound player must play a single-digit card, not ${value}`, at);
        } else if (!fits(value, this.open)) {
          throw new TurnError(card === FREE ? "Z4" : "Z1", `${value} shares no digit with the open card ${this.open}`, at);
        }
        this.chain = repdigit(value);
      } else {
        if (this.bound) throw new TurnError("Z2", "a bound player plays one single-digit card", at);
        if (this.chain === null) throw new TurnError("Z3", "only a repdigit lets the player go on", at);
        if (!digits(value).has(this.chain)) throw new TurnError("Z3", `${value} does not contain the digit ${this.chain}`, at);
      }
      this.hand.splice(this.hand.indexOf(card), 1);
      this.open = value;
      this.plays.push(card === FREE ? { card: "free", as: named } : { card });
      this.phase = this.hand.length ? "playing" : "over";
    }

    // A further play is possible: the drawn card fits (Z1), or the repdigit's chain goes on (Z3).
    canContinue() {
      const r = this.rules;
      if (this.phase === "drawn") { const d = this.drawn; return d !== null && (d === FREE || (r.isNumber(d) && fits(d, this.open))); }
      if (this.phase === "playing" && this.chain !== null) return this.hand.some((c) => c === FREE || (r.isNumber(c) && digits(c).has(this.chain)));
      return this.phase === "start" || this.phase === "tricked";
    }

    // End the turn: the position the next player faces.
    finish() {
      if (this.phase === "start" || this.phase === "tricked") {
        if (this.bound) throw new TurnError("Z2", "a bound player must play a single-digit card or draw");
        throw new TurnError("Z1", "the turn needs a play, or a draw when no card fits");
      }
      if (this.rules.chain_all && this.chain !== null && this.phase !== "over") {
        const left = this.hand.filter((c) => this.rules.isNumber(c) && digits(c).has(this.chain));
        if (left.length) throw new TurnError("Z3", `chain_all: ${left[0]} contains ${this.chain} and must be played`);
      }
      const n = this.hands.length, hands = this.hands.map(sortCards);
      const s = Object.assign({}, this.state, { hands, open: this.open, drawPos: this.pos, immune: this.immune.slice(),
        toMove: (this.player + 1) % n, obliged: this.plays.length > 0 && isSingle(this.open),
        passes: this.phase === "passed" ? this.state.passes + 1 : 0 });
      if (this.phase === "over") return Object.assign(s, { status: "won", winners: [this.player] });
      if (s.passes >= n) {  // rule Z1 Decision: every player passed in a row
        let winners = [];
        if (n > 1) { const fewest = Math.min(...hands.map((h) => h.length)); winners = hands.flatMap((h, i) => (h.length === fewest ? [i] : [])); }
        return Object.assign(s, { status: "blocked", winners });
      }
      return s;
    }
  }

  const api = { FREE, HUNDRED, TurnError, Turn, deal, initialState, fits, repdigit, isSingle, cardText };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.TheGameCento = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
