/* The exact solver in the browser: the classic family's compiled search
 * (the C core of thegame/solver/the_game/csrc, built to WebAssembly by
 * build-wasm.sh) behind a small API. Plain script, no request of its own:
 * the caller hands over the .wasm (a URL or its bytes).
 *
 *   const solver = await TheGameSolver.load("solver.wasm");
 *   const answer = solver.solve(config, turns, {nodeLimit: 2e6, timeMs: 400});
 *
 * ``config`` is thegame.solver.the_game.webcore.kernel_config(deal) (the
 * rules, the deck and the placement tables, computed in Python); ``turns``
 * the finished turns from the deal's start, each a list of {card, pile}
 * with piles by name ("A1", "D2"). The answer:
 *   {verdict: "win"|"loss"|"unknown", cards_left, proven, line, nodes}
 * ``line``: the best line from the position, as turns of {card, pile}
 * (unless a win, a whole game: the search's best line finished greedily,
 * as ``thegame solve`` makes it); ``cards_left``: what that line leaves (0
 * for a win); ``proven``: the figure is the optimum (a win; or a proven
 * loss whose line leaves one card). A loss's fewest cards left is proven
 * by the Python branch and bound (``thegame solve``), not here: a loss's
 * figure above one is the best found, ``proven: false``. A game already over (F2, X3b/X3c, C8:
 * the rules engine's end) answers a loss with its cards left, proven.
 */
(function (root) {
    "use strict";

    var FORMAT = 1;
    var INF = 1 << 30;

    /* The WASI calls wasi-libc may import: the clock (the search's deadline)
     * and inert answers for the rest (the core does no I/O). */
    function wasiImports(getMemory) {
        var ENOSYS = 52;
        var now = (typeof performance !== "undefined" && performance.now)
            ? function () { return performance.now(); }
            : function () { return Date.now(); };
        var known = {
            clock_time_get: function (id, precision, out) {
                var ns = BigInt(Math.round(now() * 1e6));
                new DataView(getMemory().buffer).setBigUint64(out, ns, true);
                return 0;
            },
            clock_res_get: function (id, out) {
                new DataView(getMemory().buffer).setBigUint64(out, 1000n, true);
                return 0;
            },
            fd_write: function (fd, iovs, n, written) {
                var view = new DataView(getMemory().buffer), total = 0;
                for (var i = 0; i < n; i++) total += view.getUint32(iovs + 8 * i + 4, true);
                view.setUint32(written, total, true);
                return 0;
            },
            environ_sizes_get: function (count, size) {
                var view = new DataView(getMemory().buffer);
                view.setUint32(count, 0, true);
                view.setUint32(size, 0, true);
                return 0;
            },
            environ_get: function () { return 0; },
            proc_exit: function (code) { throw new Error("the solver exited (" + code + ")"); },
        };
        var stub = function () { return ENOSYS; };
        return typeof Proxy === "function"
            ? new Proxy(known, { get: function (t, name) { return name in t ? t[name] : stub; } })
            : known;
    }

    /* A card mask (hexadecimal) as four 32-bit words, lowest first */
    function maskWords(hex) {
        var s = String(hex || "0");
        while (s.length < 32) s = "0" + s;
        if (s.length > 32) throw new Error("a card mask past 128 cards");
        var out = [];
        for (var i = 3; i >= 0; i--) out.push(parseInt(s.slice(i * 8, i * 8 + 8), 16) | 0);
        return out;
    }

    /* The config as the core's int array (wasm.c: tg_configure reads it) */
    function configInts(c) {
        if (c.format !== FORMAT) throw new Error("a kernel config of format " + c.format + ", not " + FORMAT);
        var ints = [];
        var push = function (xs) { for (var i = 0; i < xs.length; i++) ints.push(xs[i] | 0); };
        var cmd = c.commands || null;
        push([FORMAT, c.players, c.hand_size, c.n_asc, c.piles.length, c.step, c.min_play,
              c.min_empty, c.low, c.size, Math.min(c.base_max_turn, INF), c.w2, c.w3,
              cmd ? 1 : 0, c.deck.length]);
        push(maskWords(c.fire));
        ["stop", "skull", "three", "no_trick", "one_pile", "draw_one"].forEach(function (k) {
            push(maskWords(cmd ? cmd[k] : "0"));
        });
        push(c.deck);
        push(c.trick_up);
        push(c.trick_down);
        push(c.first_beyond);
        push(c.last_beyond);
        c.accepted_up.forEach(function (m) { push(maskWords(m)); });
        c.accepted_down.forEach(function (m) { push(maskWords(m)); });
        var s = c.start;
        push(s.tops);
        s.hands.forEach(function (m) { push(maskWords(m)); });
        push([s.pos]);
        push(maskWords(s.unplayed));
        push([s.player, s.turn_min, Math.min(s.max_turn, INF)]);
        return Int32Array.from(ints);
    }

    var PLAY_ERRORS = {
        1: "no such card or pile",
        2: "the card is not in the hand of the player to move",
        3: "the pile does not take the card",
        4: "the turn cannot end here (too few cards played, or a fire card uncovered)",
        5: "a command card forbids the play",
        6: "the game is over",
    };

    function Solver(instance) {
        this.x = instance.exports;
        this.configured = null;
    }

    Solver.prototype._ints = function (arr) {
        var x = this.x, ptr = x.tg_alloc(arr.length * 4);
        if (!ptr) throw new Error("the solver is out of memory");
        new Int32Array(x.memory.buffer, ptr, arr.length).set(arr);
        return ptr;
    };

    Solver.prototype._configure = function (config) {
        if (this.configured === config) return;
        var ints = configInts(config), ptr = this._ints(ints);
        var rc = this.x.tg_configure(ptr, ints.length);
        this.x.tg_free(ptr);
        if (rc !== 0) throw new Error("the solver refused the kernel config (" + rc + ")");
        this.configured = config;
    };

    /* The position after ``turns`` (the core's kernel is left there) */
    Solver.prototype._replay = function (config, turns) {
        var x = this.x, names = config.piles;
        x.tg_reset();
        for (var t = 0; t < turns.length; t++) {
            var plays = turns[t];
            for (var i = 0; i < plays.length; i++) {
                var pile = names.indexOf(String(plays[i].pile).toUpperCase());
                var rc = pile < 0 ? 1 : x.tg_play(plays[i].card | 0, pile);
                if (rc !== 0)
                    throw new Error("turn " + (t + 1) + ", play " + (i + 1) + ": " + PLAY_ERRORS[rc]);
            }
            var end = x.tg_end_turn();
            if (end !== 0) throw new Error("turn " + (t + 1) + ": " + PLAY_ERRORS[end]);
        }
    };

    Solver.prototype.solve = function (config, turns, options) {
        var o = options || {}, x = this.x;
        this._configure(config);
        this._replay(config, turns || []);
        if (x.tg_won()) return { verdict: "win", cards_left: 0, proven: true, line: [], nodes: 0 };
        if (x.tg_lost())  // the game is over: what is left stays
            return { verdict: "loss", cards_left: x.tg_cards_left(), proven: true, line: [], nodes: 0 };
        var s = config.search;
        var widths = x.tg_draw_left() <= s.short_draw ? s.short_widths : s.widths;
        var wptr = this._ints(Int32Array.from(widths));
        var nodeLimit = o.nodeLimit == null ? -1 : Number(o.nodeLimit);
        var timeMs = o.timeMs == null ? -1 : Number(o.timeMs);
        var memory = (o.memoryMiB == null ? config.memory_mib : o.memoryMiB) * 1048576;
        var rc = x.tg_search(s.mode, nodeLimit, timeMs, wptr, widths.length, s.branch,
                             s.per_parent, s.extra, Math.min(s.endgame, INF), memory);
        x.tg_free(wptr);
        if (rc < 0) throw new Error("the solver ran out of memory");
        var win = (rc & 1) !== 0, proven = (rc & 2) !== 0;
        var n = x.tg_line_length(), at = x.tg_line();
        var acts = new Int16Array(x.memory.buffer, at, 2 * n);
        var line = [[]];
        for (var i = 0; i < n; i++) {
            var c = acts[2 * i], p = acts[2 * i + 1];
            if (c < 0) line.push([]);
            else line[line.length - 1].push({ card: c, pile: config.piles[p] });
        }
        if (line[line.length - 1].length === 0) line.pop();
        var left = win ? 0 : x.tg_best_left();
        return {
            verdict: win ? "win" : proven ? "loss" : "unknown",
            cards_left: left,
            // a proven loss leaves at least one card: a line leaving one is optimal
            proven: win || (proven && left === 1),
            line: line,
            nodes: x.tg_nodes(),
        };
    };

    function toBytes(src) {
        if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return Promise.resolve(src);
        if (typeof fetch === "function" && !(typeof process !== "undefined" && process.versions &&
                                             process.versions.node && !/^(https?|blob|data):/.test(String(src))))
            return fetch(src).then(function (r) {
                if (!r.ok) throw new Error("cannot load " + src + ": " + r.status);
                return r.arrayBuffer();
            });
        /* Node with a file path */
        return Promise.resolve(require("fs").readFileSync(String(src)));
    }

    var TheGameSolver = {
        FORMAT: FORMAT,
        load: function (wasmUrlOrBytes) {
            return toBytes(wasmUrlOrBytes).then(function (bytes) {
                var memory = null;
                var imports = { wasi_snapshot_preview1: wasiImports(function () { return memory; }) };
                return WebAssembly.instantiate(bytes, imports).then(function (r) {
                    var inst = r.instance || r;
                    memory = inst.exports.memory;
                    if (inst.exports._initialize) inst.exports._initialize();
                    return new Solver(inst);
                });
            });
        },
    };

    root.TheGameSolver = TheGameSolver;
    if (typeof module === "object" && module && module.exports) module.exports = TheGameSolver;
})(typeof globalThis !== "undefined" ? globalThis : this);
