/* Runs thegame/web/solver.js under Node for the tests: reads
 * {"wasm": path, "cases": [{"config", "turns", "options"}]} on stdin and
 * writes one answer a case on stdout (a JSON list; {"error": message} where
 * solve threw), with the milliseconds each took as "ms". */
"use strict";
const path = require("path");
const TheGameSolver = require(path.join(__dirname, "..", "..", "thegame", "web", "solver.js"));

let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", async () => {
    const job = JSON.parse(input);
    const solver = await TheGameSolver.load(job.wasm);
    const out = job.cases.map((c) => {
        const t = process.hrtime.bigint();
        try {
            const answer = solver.solve(c.config, c.turns, c.options || {});
            answer.ms = Number(process.hrtime.bigint() - t) / 1e6;
            return answer;
        } catch (e) {
            return { error: String(e.message || e) };
        }
    });
    process.stdout.write(JSON.stringify(out));
});
