// What this machine can do, measured in the same run as a benchmark so that its figures can be
// read as fractions of it (machines differ by 2× and drift by more than a build changes a figure):
// - a bare Node HTTP server in its own process that parses and echoes each JSON body (no TLS, no
//   storage, no validation), driven by the same kind of client loop the benchmark uses: the
//   rate no Node API server on this machine can beat;
// - the same server over HTTPS as kubelite serves it (TLS 1.3, an ECDSA P-256 certificate, AES-128-GCM
//   first, keep-alive): what TLS alone leaves of that rate, since every kubelite client speaks TLS;
// - a bare `node -e 0` spawn to exit: what any Node process needs to start here;
// - the resident memory of a bare idle node process: what any Node process holds here.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';
import { createCA, issueCertificate } from '../src/apiserver/tls/pki.js';
import { SERVER_CIPHERS } from '../src/machinery/tls-ciphers.js';
import { quantile, type BenchRow, type Ceiling } from './report.js';

/**
 * The bare server: parse the body, answer it back as JSON with 201, as a create would. Over HTTPS
 * when BARE_TLS_KEY and BARE_TLS_CERT are in its environment.
 */
const BARE_SERVER = `
const tls = process.env.BARE_TLS_KEY !== undefined;
const http = require(tls ? 'node:https' : 'node:http');
const options = tls ? { key: process.env.BARE_TLS_KEY, cert: process.env.BARE_TLS_CERT, ciphers: process.env.BARE_TLS_CIPHERS, minVersion: 'TLSv1.2' } : {};
const server = http.createServer(options, (req, res) => {
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

function post(agent: Agent | TlsAgent, port: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = (agent instanceof TlsAgent ? tlsRequest : request)({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
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
export async function bareServerRate(clients: number, seconds: number, bodyOf: (client: number, i: number) => string, tls?: BareTls): Promise<number> {
  const env = tls ? { ...process.env, BARE_TLS_KEY: tls.key, BARE_TLS_CERT: tls.cert, BARE_TLS_CIPHERS: SERVER_CIPHERS } : process.env;
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'], env });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    });
    const agent = tls ? new TlsAgent({ keepAlive: true, maxSockets: 64, ca: tls.ca }) : new Agent({ keepAlive: true, maxSockets: 64 });
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

/** A serving certificate for 127.0.0.1 signed by a CA of its own, as `kubelite up` makes them. */
export interface BareTls {
  ca: string;
  cert: string;
  key: string;
}

export async function bareTls(): Promise<BareTls> {
  const ca = await createCA('bench-ceiling-ca');
  const serving = await issueCertificate(ca, { commonName: 'bench-ceiling', usage: 'server', dnsNames: [], ips: ['127.0.0.1'] });
  return { ca: ca.cert, cert: serving.cert, key: serving.key };
}

/** The bare server's rate over HTTPS (see bareServerRate). */
export async function bareTlsServerRate(clients: number, seconds: number, bodyOf: (client: number, i: number) => string): Promise<number> {
  return bareServerRate(clients, seconds, bodyOf, await bareTls());
}

/** The bare HTTPS server's row for a benchmark's table: its rate, and what TLS leaves of the bare rate. */
export function bareTlsRow(tlsRate: number, bareRate: number, column: string): BenchRow {
  return { metric: `machine: the same bare server over HTTPS as kubelite serves (${((100 * tlsRate) / bareRate).toFixed(0)}% of it)`, unit: 'ops/s', values: { [column]: tlsRate } };
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
