// The rules of The Game's classic family in the browser: the classic game,
// Profi, On Fire and Extreme (rules C, P, F, X of the rulebook), for one to
// five players sharing one draw pile. A port of the Python rules engine
// (thegame.models.the_game.state and .extreme), checked against it play for
// play by the tests; the rule ids and messages are the same. Used by the
// static daily site and by the served daily page; runs under Node too
// (module.exports) for those tests.
(function (root) {
  "use strict";

  const STOP = "stop", SKULL = "skull", THREE = "three", NO_TRICK = "no-trick",
    ONE_PILE = "one-pile", DRAW_ONE = "draw-one";

  class IllegalMove extends Error {
    constructor(rule, message) { super(`rule ${rule}: ${message}`); this.rule = rule; this.text = message; }
  }

  const plural = (n, word) => `${n} ${n === 1 ? word : word + "s"}`;
  // Rule C5: beyond the top, or exactly ``step`` back (the backward trick).
  const beyond = (asc, top, card) => (asc ? card > top : card < top);
  const trickCard = (asc, top, step) => (asc ? top - step : top + step);
  const isTrick = (asc, top, card, step) => card === trickCard(asc, top, step);
  const accepts = (asc, top, card, step) => beyond(asc, top, card) || isTrick(asc, top, card, step);

  // ``spec``: {rules: {low, high, asc_piles, desc_piles, step, hand_sizes,
  // min_play, min_play_empty, min_play_rule, fire_cards, fire_safe_at_clear,
  // commands}, players, deck, first, commands: {"card": kind}}.
  class Game {
    constructor(spec) {
      const r = spec.rules;
      this.rules = r;
      this.players = spec.players;
      this.extreme = Boolean(r.commands);
      this.commandOf = new Map(Object.entries(spec.commands || {}).map(([c, k]) => [Number(c), k]));
      this.fire = new Set(r.fire_cards || []);
      this.nPiles = r.asc_piles + r.desc_piles;
      this.names = [];
      for (let i = 0; i < r.asc_piles; i++) this.names.push(`A${i + 1}`);
      for (let i = 0; i < r.desc_piles; i++) this.names.push(`D${i + 1}`);
      const size = this.handSize();
      this.hands = [];
      for (let p = 0; p < this.players; p++) this.hands.push(new Set(spec.deck.slice(p * size, (p + 1) * size)));
      this.stock = spec.deck.slice();
      this.stockPos = this.players * size;
      this.tops = this.names.map((_, i) => (this.ascending(i) ? r.low - 1 : r.high + 1));
      this.topTurn = this.names.map(() => -1);
      const first = spec.first || 1;
      this.current = first - 1;
      this.turn = 0;
      this.placed = [];  // this turn's plays: {card, pile, prevTop, prevTurn}
      this.status = "in_progress";
      this.reason = null;
      this.turnMin = this.minimum();
      this.checkCanMove();
    }

    handSize() { return this.rules.hand_sizes[this.players - 1]; }
    ascending(i) { return i < this.rules.asc_piles; }
    pileName(i) { return this.names[i]; }
    pileIndex(name) { return this.names.indexOf(String(name).toUpperCase()); }
    command(card) { return this.commandOf.get(card) || null; }
    get over() { return this.status !== "in_progress"; }
    stockLeft() { return this.stock.length - this.stockPos; }
    drawPile() { return this.stock.slice(this.stockPos); }
    hand(p) { return [...this.hands[p === undefined ? this.current : p]].sort((a, b) => a - b); }
    cardsLeft() { return this.hands.reduce((n, h) => n + h.size, 0) + this.stockLeft(); }
    playsThisTurn() { return this.placed.map((p) => ({ card: p.card, pile: this.names[p.pile] })); }

    minimum() { return this.stockLeft() > 0 ? this.rules.min_play : this.rules.min_play_empty; }
    minimumRule() {
      // P1 while the draw pile lasts in Profi; C4 otherwise.
      return this.rules.min_play_rule !== "C4" && this.stockLeft() > 0 ? this.rules.min_play_rule : "C4";
    }

    finish(status, rule, message) { this.status = status; this.reason = `${message} (rule ${rule})`; }

    // -- legality ---------------------------------------------------------------

    // The error (rule, message) refusing ``card`` on pile index ``pile``, or null.
    refusal(card, pile) {
      if (this.over) return new IllegalMove("C8", `the game is over (${this.reason})`);
      if (!this.hands[this.current].has(card)) {
        return new IllegalMove("C4", `card ${card} is not in player ${this.current + 1}'s hand`);
      }
      if (!(pile >= 0 && pile < this.nPiles)) return new IllegalMove("C1", `there is no pile ${pile}`);
      const asc = this.ascending(pile), top = this.tops[pile], step = this.rules.step;
      if (isTrick(asc, top, card, step) || beyond(asc, top, card)) return null;
      const word = asc ? "higher than" : "lower than";
      const back = trickCard(asc, top, step);
      const name = this.names[pile];
      const trick = this.rules.low <= back && back <= this.rules.high ? ` or exactly ${back}` : "";
      return new IllegalMove("C5", `${card} ${name}: ${name} shows ${top}; a card must be ${word} ${top}${trick}`);
    }

    // X2: the command (rule, message) an accepted play breaks, or null.
    breaks(card, pile) {
      if (!this.extreme) return null;
      const showing = new Set(this.tops.map((t) => this.command(t)));
      const played = new Set(this.placed.map((p) => this.command(p.card)));
      const n = this.placed.length;
      const kind = this.command(card);
      if (played.has(STOP)) return ["X3a", `${card} played after a stop card had ended the turn`];
      const three = played.has(THREE) || kind === THREE;
      if (three && n >= 3) return ["X3c", `${card} would be card ${n + 1} of a three turn (exactly 3)`];
      if (kind === STOP && three && n !== 2) return ["X3c", `stop card ${card} as card ${n + 1} of a three turn (only 3rd)`];
      const name = this.names[pile];
      if (showing.has(ONE_PILE) && this.placed.some((p) => p.pile !== pile)) {
        return ["X4b", `${card} on ${name}: a one-pile card is showing and this turn's cards went onto another pile`];
      }
      if (showing.has(NO_TRICK) && isTrick(this.ascending(pile), this.tops[pile], card, this.rules.step)) {
        return ["X4a", `${card} on ${name} is a backward trick while no-trick is showing`];
      }
      return null;
    }

    // Accepted and keeps the game going (a play that breaks a command is not).
    isLegal(card, pile) { return this.refusal(card, pile) === null && this.breaks(card, pile) === null; }
    // The rule id of the command an accepted play breaks (it loses at once), else null.
    loses(card, pile) {
      if (this.refusal(card, pile) !== null) return null;
      const b = this.breaks(card, pile);
      return b ? b[0] : null;
    }

    legalPlays() {
      if (this.over) return [];
      const out = [];
      for (const c of this.hand()) for (let p = 0; p < this.nPiles; p++) if (this.isLegal(c, p)) out.push({ card: c, pile: this.names[p] });
      return out;
    }

    losingPlays() {
      if (this.over) return [];
      const out = [];
      for (const c of this.hand()) for (let p = 0; p < this.nPiles; p++) if (this.loses(c, p)) out.push({ card: c, pile: this.names[p] });
      return out;
    }

    // X3a/X3c: a stop or a three card lets the turn end whatever the minimum.
    endsAnyway() {
      return this.extreme && this.placed.some((p) => [STOP, THREE].includes(this.command(p.card)));
    }

    endRefusal() {
      if (this.over) return new IllegalMove("C8", `the game is over (${this.reason})`);
      if (this.endsAnyway()) return null;
      const n = this.placed.length;
      if (n < this.turnMin) return new IllegalMove(this.minimumRule(), `a turn needs at least ${plural(this.turnMin, "card")}, played ${n}`);
      return null;
    }

    // The command (rule, message) ending the turn now breaks (X3b, X3c), or null.
    endBreaks() {
      if (!this.extreme) return null;
      const n = this.placed.length;
      if (this.placed.some((p) => this.command(p.card) === THREE) && n !== 3) {
        return ["X3c", `a three card needs exactly 3 cards, the turn ended with ${n}`];
      }
      for (let i = 0; i < this.nPiles; i++) {
        const top = this.tops[i];
        if (this.command(top) === SKULL && this.placed.some((p) => p.card === top)) {
          return ["X3b", `the skull card ${top} on ${this.names[i]} was left uncovered this turn`];
        }
      }
      return null;
    }

    canEndTurn() { return this.endRefusal() === null && this.endBreaks() === null; }
    endLoses() {
      if (this.endRefusal() !== null) return null;
      const b = this.endBreaks();
      return b ? b[0] : null;
    }

    // -- changing the position -------------------------------------------------

    // ``pile``: a name (A1, D2) or an index.
    play(card, pile) {
      const i = typeof pile === "number" ? pile : this.pileIndex(pile);
      const err = i < 0 ? new IllegalMove("C1", `there is no pile ${pile}`) : this.refusal(card, i);
      if (err) throw err;
      const broken = this.breaks(card, i);
      this.placed.push({ card, pile: i, prevTop: this.tops[i], prevTurn: this.topTurn[i] });
      this.hands[this.current].delete(card);
      this.tops[i] = card;
      this.topTurn[i] = this.turn;
      if (broken) this.finish("lost", broken[0], broken[1]);  // X2: lost at once
    }

    undoPlay() {
      if (!this.placed.length) throw new IllegalMove("C4", "no play of this turn to take back");
      const last = this.placed.pop();
      this.tops[last.pile] = last.prevTop;
      this.topTurn[last.pile] = last.prevTurn;
      this.hands[this.current].add(last.card);
      // Extreme: a play ends the game only by breaking a command; taking it back resumes.
      if (this.extreme && this.status === "lost") { this.status = "in_progress"; this.reason = null; }
      return { card: last.card, pile: this.names[last.pile] };
    }

    endTurn() {
      const err = this.endRefusal();
      if (err) throw err;
      const broken = this.endBreaks();
      if (broken) { this.placed = []; this.turn += 1; this.finish("lost", broken[0], broken[1]); return; }
      const hand = this.hands[this.current];
      // C6: back to the hand size; X4c: one card while a draw-one card shows.
      const want = this.extreme && this.tops.some((t) => this.command(t) === DRAW_ONE) ? 1 : this.handSize() - hand.size;
      const take = Math.max(0, Math.min(want, this.stockLeft()));
      for (const c of this.stock.slice(this.stockPos, this.stockPos + take)) hand.add(c);
      this.stockPos += take;
      const allPlayed = this.cardsLeft() === 0;
      if (this.fire.size && !(allPlayed && this.rules.fire_safe_at_clear !== false)) {
        for (let i = 0; i < this.nPiles; i++) {
          const top = this.tops[i];
          // F2: a fire card laid in an earlier turn had this turn as its deadline.
          if (this.fire.has(top) && this.topTurn[i] < this.turn) {
            this.placed = []; this.turn += 1;
            this.finish("lost", "F2", `fire card ${top} on ${this.names[i]} was not covered in time`);
            return;
          }
        }
      }
      this.placed = [];
      this.turn += 1;
      if (allPlayed) { this.finish("won", "C7", "all cards played: a perfect clear"); return; }
      let nxt = (this.current + 1) % this.players;
      // C7: once the draw pile is empty, a player with no cards is skipped.
      for (let k = 0; k < this.players && !this.hands[nxt].size; k++) nxt = (nxt + 1) % this.players;
      this.current = nxt;
      this.turnMin = this.minimum();
      this.checkCanMove();
    }

    // C8 / X5: the game ends at once if the player to move has no legal turn.
    checkCanMove() {
      if (!this.hasLegalTurn()) {
        this.finish("lost", this.extreme ? "X5" : "C8", `player ${this.current + 1} cannot play ${plural(this.turnMin, "card")}`);
      }
    }

    hasLegalTurn() {
      if (this.over) return false;
      return this.quickTurn() || this.searchedTurn();
    }

    // A legal turn plainly exists (classic family without commands): enough
    // cards beyond some top.
    quickTurn() {
      if (this.extreme) return false;
      const a = this.rules.asc_piles;
      const ascLow = a ? Math.min(...this.tops.slice(0, a)) : null;
      const descHigh = this.nPiles > a ? Math.max(...this.tops.slice(a)) : null;
      let fits = 0;
      for (const c of this.hands[this.current]) if ((ascLow !== null && c > ascLow) || (descHigh !== null && c < descHigh)) fits += 1;
      return fits >= Math.max(this.turnMin, 1);
    }

    // Whether some sequence of plays lets the turn end legally (searched).
    searchedTurn() {
      const seen = new Set();
      const search = () => {
        if (this.placed.length && this.canEndTurn()) return true;
        const shape = this.extreme
          ? [this.placed.length, [...new Set(this.placed.map((p) => p.pile))].sort().join(","),
            [...new Set(this.placed.map((p) => this.command(p.card) || "-"))].sort().join(",")].join("/")
          : String(this.placed.length);
        const key = this.tops.join(",") + "|" + this.hand().join(",") + "|" + shape;
        if (seen.has(key) || this.turnBlocked()) return false;
        seen.add(key);
        for (const c of this.hand()) {
          for (let p = 0; p < this.nPiles; p++) {
            if (!this.isLegal(c, p)) continue;
            this.play(c, p);
            const found = search();
            this.undoPlay();
            if (found) return true;
          }
        }
        return false;
      };
      return !this.over && !this.placed.length && search();
    }

    // Extreme: no continuation of this turn can end it (a skull laid this
    // turn that no card in hand covers; a three turn that cannot reach 3).
    turnBlocked() {
      if (!this.extreme) return false;
      const hand = this.hands[this.current], mine = new Set(this.placed.map((p) => p.card));
      for (let i = 0; i < this.nPiles; i++) {
        const top = this.tops[i];
        if (mine.has(top) && this.command(top) === SKULL) {
          if (![...hand].some((c) => accepts(this.ascending(i), top, c, this.rules.step))) return true;
        }
      }
      if ([...mine].some((c) => this.command(c) === THREE)) return this.placed.length + hand.size < 3;
      return false;
    }

    // Play whole turns ([[{card, pile}]...]); an error names the turn and play (from 1).
    playTurns(turns) {
      turns.forEach((t, k) => {
        t.forEach((p, j) => {
          try { this.play(p.card, p.pile); } catch (e) { e.turn = k + 1; e.play = j + 1; throw e; }
        });
        if (!this.over) {
          try { this.endTurn(); } catch (e) { e.turn = k + 1; e.play = null; throw e; }
        }
      });
      return this;
    }
  }

  const api = { Game, IllegalMove, accepts, plural };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.TheGameReferee = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
