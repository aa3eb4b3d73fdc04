// `npm run bench -- <name> [args]`: runs one benchmark, prints its table and writes
// bench/results/<name>.json. Each benchmark is a module bench/<name>.ts exporting `run`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { completeCeiling } from './ceiling.js';
import { formatTable, type BenchReport } from './report.js';

const benchmarks: Record<string, () => Promise<{ run: (args: string[]) => Promise<BenchReport> }>> = {
  storage: () => import('./storage.js'),
  codec: () => import('./codec.js'),
  apiserver: () => import('./apiserver.js'),
  apply: () => import('./apply.js'),
  scheduler: () => import('./scheduler.js'),
  nodes: () => import('./nodes.js'),
  controllers: () => import('./controllers.js'),
  'controllers-nodes': () => import('./controllers-nodes.js'),
  'controllers-endpoints': () => import('./controllers-endpoints.js'),
  authz: () => import('./authz.js'),
  cluster: () => import('./cluster.js'),
  crd: () => import('./crd.js'),
  volumes: () => import('./volumes.js'),
  'pod-logs': () => import('./pod-logs.js'),
  'pod-io': () => import('./pod-io.js'),
  shell: () => import('./shell.js'),
  'process-runtime': () => import('./process-runtime.js'),
  snapshot: () => import('./snapshot.js'),
  soak: () => import('./soak.js'),
  'idle-watches': () => import('./idle-watches.js'),
  up: () => import('./up.js'),
  'token-auth': () => import('./token-auth.js'),
  'single-process': () => import('./single-process.js'),
};

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || !(name in benchmarks)) {
    process.stderr.write(`usage: npm run bench -- <${Object.keys(benchmarks).join('|')}> [args]\n`);
    return 2;
  }
  const mod = await benchmarks[name]!();
  const report = await mod.run(args);
  // Every figure beside what this machine can do, measured in the same run (after the benchmark
  // when it did not measure it itself).
  const { podTemplate } = await import('./apiserver.js');
  const pod = podTemplate('ceiling');
  report.ceiling = await completeCeiling(report.ceiling, 2, (c, i) => `${pod.before}c-${c}-${i}${pod.after}`);
  process.stdout.write(`${formatTable(report)}\n`);
  // dist/bench/main.js → <repo>/bench/results
  const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}.json`);
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  writeFileSync(file, `${JSON.stringify({ ...report, date: new Date().toISOString(), machine }, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
