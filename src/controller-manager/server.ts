// The controller manager's HTTP service on --address:--port: /healthz (Kubernetes' healthz: `ok`,
// `?verbose` lists each check as `[+]name ok`, `/healthz/<check>` one check), /metrics
// (Prometheus, from the manager's registry), /configz (the effective options), and with
// --profiling /debug/pprof/ (CPU profiles: /debug/pprof/profile?seconds=N in pprof's gzipped
// protobuf, `&format=cpuprofile` for V8's .cpuprofile JSON).
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { encodePprof, heapPprof, startHeapSampling, stopHeapSampling, takeCpuProfile, waitsToPprof } from './pprof.js';

/** A health check: undefined when healthy, else the reason. */
export type HealthCheck = () => string | undefined;

export interface ServerOptions {
  address: string;
  port: number;
  profiling: boolean;
  /** --contention-profiling's block profile (absent: /debug/pprof/block is empty, as Go's without a block profile rate). */
  contention?: { pprof(): Buffer };
  checks: Map<string, HealthCheck>;
  registry: Registry;
  configz: () => unknown;
  /** HTTPS instead of HTTP. */
  tls?: { certFile: string; keyFile: string };
  log?: (fields: Record<string, unknown>) => void;
}

export interface RunningServer {
  /** The port bound (the one asked for, or the one picked for 0). */
  port: number;
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, code: number, body: string | Buffer, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}): void {
  res.writeHead(code, { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Content-Length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

function healthz(req: IncomingMessage, res: ServerResponse, url: URL, checks: Map<string, HealthCheck>, root: string): void {
  const rest = url.pathname.slice(root.length);
  if (rest !== '' && rest !== '/') {
    const name = rest.replace(/^\//, '');
    const check = checks.get(name);
    if (!check) return send(res, 404, '404 page not found\n');
    const err = check();
    if (err !== undefined) return send(res, 500, `internal server error: ${err}\n`);
    return send(res, 200, 'ok');
  }
  const exclude = new Set(url.searchParams.getAll('exclude'));
  const verbose = url.searchParams.has('verbose');
  const lines: string[] = [];
  let failed = false;
  for (const [name, check] of checks) {
    if (exclude.has(name)) {
      lines.push(`[+]${name} excluded: ok`);
      continue;
    }
    const err = check();
    if (err === undefined) lines.push(`[+]${name} ok`);
    else {
      failed = true;
      lines.push(verbose ? `[-]${name} failed: ${err}` : `[-]${name} failed: reason withheld`);
    }
  }
  if (failed) return send(res, 500, `${lines.join('\n')}\n${root.slice(1)} check failed\n`);
  if (verbose) return send(res, 200, `${lines.join('\n')}\n${root.slice(1)} check passed\n`);
  send(res, 200, 'ok');
  void req;
}

const PPROF_INDEX = `<html>
<head><title>/debug/pprof/</title></head>
<body>
/debug/pprof/<br>
<br>
Types of profiles available:
<table>
<thead><td>Count</td><td>Profile</td></thead>
<tr><td>0</td><td><a href='block'>block</a></td></tr>
<tr><td>0</td><td><a href='heap'>heap</a></td></tr>
<tr><td>0</td><td><a href='profile?seconds=30'>profile</a></td></tr>
</table>
<p>block: With --contention-profiling, what waited since the start: each work queue's items (count, and the time until a worker took them) and the event loop's delay.</p>
<p>heap: A sampling of live objects (V8's sampling heap profiler, one sample per 512 KiB allocated, since the server started).</p>
<p>profile: CPU profile. You can specify the duration in the seconds GET parameter. After you get the profile file, use the go tool pprof command to investigate the profile (or open it in speedscope); add format=cpuprofile for V8's .cpuprofile JSON.</p>
</body>
</html>
`;

async function pprof(res: ServerResponse, url: URL, o: ServerOptions): Promise<void> {
  const log = o.log;
  const path = url.pathname;
  if (path === '/debug/pprof' || path === '/debug/pprof/') return send(res, 200, PPROF_INDEX, 'text/html; charset=utf-8');
  if (path === '/debug/pprof/block') {
    return send(res, 200, o.contention?.pprof() ?? waitsToPprof([], Date.now()), 'application/octet-stream', { 'Content-Disposition': 'attachment; filename="block"' });
  }
  if (path === '/debug/pprof/heap') {
    return send(res, 200, await heapPprof(), 'application/octet-stream', { 'Content-Disposition': 'attachment; filename="heap"' });
  }
  if (path !== '/debug/pprof/profile') return send(res, 404, 'Unknown profile\n');
  const secParam = url.searchParams.get('seconds');
  const seconds = secParam === null ? 30 : Number(secParam);
  if (!Number.isFinite(seconds) || seconds <= 0) return send(res, 400, 'Bad Request: invalid seconds parameter\n');
  const format = url.searchParams.get('format') ?? 'pprof';
  if (format !== 'pprof' && format !== 'cpuprofile') return send(res, 400, 'Bad Request: format must be pprof or cpuprofile\n');
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  let profile;
  const startedAt = Date.now();
  try {
    profile = await takeCpuProfile(seconds, abort.signal);
  } catch (err) {
    return send(res, 500, `Could not enable CPU profiling: ${(err as Error).message}\n`);
  }
  log?.({ msg: 'CPU profile taken', seconds, format });
  if (res.destroyed) return;
  if (format === 'cpuprofile') {
    return send(res, 200, JSON.stringify(profile), 'application/json', { 'Content-Disposition': 'attachment; filename="profile.cpuprofile"' });
  }
  send(res, 200, encodePprof(profile, 1000, startedAt), 'application/octet-stream', { 'Content-Disposition': 'attachment; filename="profile"' });
}

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const p = url.pathname;
    const run = async (): Promise<void> => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method Not Allowed\n');
      if (p === '/healthz' || p.startsWith('/healthz/')) return healthz(req, res, url, o.checks, '/healthz');
      if (p === '/livez' || p.startsWith('/livez/')) return healthz(req, res, url, o.checks, '/livez');
      if (p === '/readyz' || p.startsWith('/readyz/')) return healthz(req, res, url, o.checks, '/readyz');
      if (p === '/metrics') return send(res, 200, await o.registry.metrics(), o.registry.contentType);
      if (p === '/configz') return send(res, 200, JSON.stringify(o.configz()), 'application/json');
      if (p === '/debug/pprof' || p.startsWith('/debug/pprof/')) {
        if (!o.profiling) return send(res, 404, '404 page not found\n');
        return pprof(res, url, o);
      }
      send(res, 404, '404 page not found\n');
    };
    run().catch((err: unknown) => {
      o.log?.({ msg: 'HTTP handler failed', path: p, error: (err as Error).message, level: 'error' });
      if (!res.headersSent) send(res, 500, 'internal server error\n');
      else res.destroy();
    });
  };
  const server: Server = o.tls
    ? createHttpsServer({ cert: readFileSync(o.tls.certFile), key: readFileSync(o.tls.keyFile) }, handler)
    : createHttpServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  if (o.profiling) await startHeapSampling();
  const host = o.address.includes(':') ? `[${o.address}]` : o.address;
  return {
    port,
    url: `${o.tls ? 'https' : 'http'}://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (o.profiling && server.listening) stopHeapSampling();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
