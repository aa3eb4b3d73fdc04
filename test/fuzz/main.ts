// `npm run fuzz [target ...] [--runs N] [--seed S]`: the long run of the fuzz targets (10^6 cases
// each by default, a fresh seed unless given). A failing input is shrunk by fast-check and kept in
// test/vectors/fuzz/<target>/, which the test suite replays from then on.
import { parseArgs } from 'node:util';
import { FUZZ_TARGETS } from './targets.js';
import { runTarget, saveVector } from './target.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string' }, seed: { type: 'string' } } });
const runs = Number(values.runs ?? 1_000_000);
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
const unknown = positionals.filter((p) => !FUZZ_TARGETS.some((t) => t.name === p));
if (unknown.length > 0 || !Number.isInteger(runs) || runs <= 0 || !Number.isInteger(seed)) {
  console.error(`usage: npm run fuzz -- [${FUZZ_TARGETS.map((t) => t.name).join('|')} ...] [--runs N] [--seed S]`);
  process.exit(2);
}
const targets = positionals.length > 0 ? FUZZ_TARGETS.filter((t) => positionals.includes(t.name)) : FUZZ_TARGETS;

let failures = 0;
for (const target of targets) {
  const started = performance.now();
  const run = await runTarget(target, runs, seed);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!run.failed) {
    console.log(`${target.name}: ${run.runs} cases passed in ${seconds} s (seed ${seed})`);
    continue;
  }
  failures++;
  const path = saveVector(target.name, run.counterexample);
  console.log(`${target.name}: FAILED after ${run.runs} cases in ${seconds} s (seed ${seed}); input kept as ${path}\n${run.error}`);
}
process.exit(failures > 0 ? 1 : 0);
