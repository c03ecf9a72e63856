// The peer side of bench/scoring_bench.py: the same jobs done by the npm package
// `bridge-scorer`, timed here with process.hrtime so that reading the JSON input is not
// counted. Usage: node bridge_scorer.js INPUT.json REPEAT  -> JSON on stdout; with REPEAT
// "first", only the session job, once, in this fresh process, loading the package counted.
'use strict';
const loading = process.hrtime.bigint();
const path = require('path');
const scorer = require(path.join(__dirname, 'node_modules', 'bridge-scorer'));
const loadMs = Number(process.hrtime.bigint() - loading) / 1e6;
const fs = require('fs');

const input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const first = process.argv[3] === 'first';
const repeat = first ? 1 : parseInt(process.argv[3] || '5', 10);

function time(job) {
  const times = [];
  let result;
  for (let i = 0; i < repeat; i++) {
    const start = process.hrtime.bigint();
    result = job();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], result: result };
}

// games as bridge-scorer wants them: the declarer's score, or 0 for a passed-out board
function games(board) {
  return board.map(r => r.declarer
    ? { contract: { declaror: r.declarer }, score: r.declarer_score }
    : { score: 0 });
}

function session() {
  // score every contract, matchpoint every board, total each pair, rank each direction
  const totals = {};
  for (const board of input.session) {
    const g = board.map(r => {
      if (!r.declarer) return { score: 0, r: r };
      const contract = { level: r.level, denomination: r.strain, risk: r.risk };
      return { contract: { declaror: r.declarer }, r: r,
               score: scorer.contractTricks(contract, r.vul, r.tricks) };
    });
    scorer.matchpoints(g);
    for (const x of g) {
      totals[x.r.ns] = (totals[x.r.ns] || 0) + x.matchpointsNS.value;
      totals[x.r.ew] = (totals[x.r.ew] || 0) + x.matchpointsEW.value;
    }
  }
  const ranked = {};
  for (const side of ['ns', 'ew']) {
    const pairs = Object.keys(totals).filter(p => p.startsWith(side === 'ns' ? 'N' : 'E'));
    for (const r of scorer.rank(pairs.map(p => ({ pair: p, score: totals[p] })))) {
      ranked[r.pair] = [r.score, r.rank];
    }
  }
  return ranked;
}

const out = {};
if (first) {
  const run = time(session);
  out.first = { ms: loadMs + run.ms, result: run.result };
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}
out.matchpoints = time(() => scorer.matchpoints(games(input.board)).map(g => g.matchpointsNS.value));
out.cross_imps = time(() => { const g = games(input.board); scorer.crossImps(g); return g.map(x => x.impsNS.value); });
out.butler = time(() => { const g = games(input.board); const d = scorer.butler(g); return [d, g.map(x => x.impsNS.value)]; });

out.session = time(session);
process.stdout.write(JSON.stringify(out));
