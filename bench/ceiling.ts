// What this machine can do, measured in the same run as a benchmark so that its figures can be
// read as fractions of it (machines differ by 2× and drift by more than a build changes a figure):
// - a bare Node HTTP server in its own process that parses and echoes each JSON body (no TLS, no
//   storage, no validation), driven by the same kind of client loop the benchmark uses: the
//   rate no Node API server on this machine can beat;
// - a bare `node -e 0` spawn to exit: what any Node process needs to start here;
// - the resident memory of a bare idle node process: what any Node process holds here.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { quantile, type Ceiling } from './report.js';

/** The bare server: parse the body, answer it back as JSON with 201, as a create would. */
const BARE_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let out;
    try { out = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8'))); } catch { res.writeHead(400).end(); return; }
    res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) }).end(out);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

function post(agent: Agent, port: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Bodies/s the bare server answers with `clients` concurrent keep-alive clients for `seconds`;
 * `bodyOf(client, i)` makes each request's JSON (the benchmark's own pods).
 */
export async function bareServerRate(clients: number, seconds: number, bodyOf: (client: number, i: number) => string): Promise<number> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    let done = 0;
    const start = performance.now();
    const deadline = start + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; performance.now() < deadline; i++) {
          const status = await post(agent, port, bodyOf(c, i));
          if (status !== 201) throw new Error(`the bare server answered ${status}`);
          done++;
        }
      }),
    );
    const rate = done / ((performance.now() - start) / 1000);
    agent.destroy();
    return rate;
  } finally {
    child.kill();
  }
}

/** The median time of `runs` spawns of `node -e 0` until they exit, in ms. */
export function nodeSpawnMs(runs = 7): number {
  const sample: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['-e', '0']);
    if (r.status !== 0) throw new Error('node -e 0 failed');
    sample.push(performance.now() - t0);
  }
  return quantile(sample, 0.5);
}

/** VmRSS in MiB of a bare node process idling on a timer, once it has settled (1 s). */
export async function idleNodeRssMiB(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); process.stdout.write("up\\n")'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the idle node process exited (${code})`)));
    });
    await new Promise((r) => setTimeout(r, 1000));
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    if (!m) throw new Error('no VmRSS for the idle node process');
    return Number(m[1]) / 1024;
  } finally {
    child.kill();
  }
}

/**
 * The parts of the machine's ceiling a benchmark did not measure itself, measured now: the bare
 * server at 32 clients for `seconds` on `bodyOf`'s JSON, and the spawn.
 */
export async function completeCeiling(have: Ceiling | undefined, seconds: number, bodyOf: (client: number, i: number) => string): Promise<Ceiling> {
  return {
    bareServerPerSecond: have?.bareServerPerSecond ?? (await bareServerRate(32, seconds, bodyOf)),
    spawnMs: have?.spawnMs ?? nodeSpawnMs(7),
    ...(have?.idleNodeRssMiB !== undefined ? { idleNodeRssMiB: have.idleNodeRssMiB } : {}),
  };
}
