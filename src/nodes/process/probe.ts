// The kubelet's probes, really executed against a process-runtime container (pkg/kubelet/prober):
// exec (the command run beside the container, with its environment and root, success on exit 0),
// httpGet (to the pod's IP, success on 200–399; a redirect is not followed and counts as success),
// tcpSocket (a connection opens). Each has its timeout (timeoutSeconds, default 1). gRPC probes
// are not run: the kubelet's gRPC health client has no counterpart here, and they report failure
// with that reason rather than pretend.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { Container, Probe } from '../../api/types.js';
import { besideCommand } from './host-command.js';

export interface ProbeResult {
  ok: boolean;
  /** Why it failed, as the kubelet's event message says it ("Get \"http://...\": ...", "HTTP probe failed with statuscode: 500"). */
  message: string;
}

export interface ProbeTarget {
  podIP: string;
  container: Container;
  env: Record<string, string>;
  cwd: string;
}

/** A named port (`http`) is the container's containerPort of that name. */
function portOf(port: number | string | null | undefined, c: Container): number | undefined {
  if (typeof port === 'number') return port;
  if (typeof port === 'string' && /^\d+$/.test(port)) return Number(port);
  return c.ports?.find((p) => p.name === port)?.containerPort ?? undefined;
}

export function runProbe(probe: Probe, target: ProbeTarget): Promise<ProbeResult> {
  const timeoutMs = Math.max(1, probe.timeoutSeconds ?? 1) * 1000;
  if (probe.exec) return execProbe(probe.exec.command ?? [], target, timeoutMs);
  if (probe.httpGet) {
    const port = portOf(probe.httpGet.port, target.container);
    if (port === undefined) return Promise.resolve({ ok: false, message: `unable to find port ${String(probe.httpGet.port)}` });
    return httpProbe(probe.httpGet.scheme === 'HTTPS', probe.httpGet.host || target.podIP, port, probe.httpGet.path || '/', probe.httpGet.httpHeaders ?? [], timeoutMs);
  }
  if (probe.tcpSocket) {
    const port = portOf(probe.tcpSocket.port, target.container);
    if (port === undefined) return Promise.resolve({ ok: false, message: `unable to find port ${String(probe.tcpSocket.port)}` });
    return tcpProbe(probe.tcpSocket.host || target.podIP, port, timeoutMs);
  }
  return Promise.resolve({ ok: false, message: 'gRPC probes are not run by the kubelite process runtime' });
}

function execProbe(command: string[], target: ProbeTarget, timeoutMs: number): Promise<ProbeResult> {
  const host = besideCommand(target.container, command);
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(host.file, host.args, { cwd: target.cwd, env: target.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ok: false, message: `command ${JSON.stringify(command.join(' '))} timed out` });
    }, timeoutMs);
    const keep = (b: Buffer) => {
      if (output.length < 10_240) output += b.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, message: e.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? { ok: true, message: '' } : { ok: false, message: output.trim() || `command exited with ${code ?? 'a signal'}` });
    });
  });
}

function httpProbe(https: boolean, host: string, port: number, path: string, headers: Array<{ name?: string | null; value?: string | null }>, timeoutMs: number): Promise<ProbeResult> {
  const url = `${https ? 'https' : 'http'}://${host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
  return new Promise((resolve) => {
    const h: Record<string, string> = { 'user-agent': 'kube-probe/1.33', accept: '*/*' };
    for (const { name, value } of headers) if (name) h[name.toLowerCase()] = value ?? '';
    const req = (https ? httpsRequest : httpRequest)(url, { method: 'GET', headers: h, timeout: timeoutMs, ...(https ? { rejectUnauthorized: false } : {}) }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? { ok: true, message: '' } : { ok: false, message: `HTTP probe failed with statuscode: ${code}` });
    });
    req.once('timeout', () => req.destroy(new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')));
    req.once('error', (e) => resolve({ ok: false, message: `Get ${JSON.stringify(url)}: ${e.message}` }));
    req.end();
  });
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ok: true, message: '' });
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve({ ok: false, message: `dial tcp ${host}:${port}: i/o timeout` });
    });
    socket.once('error', (e) => resolve({ ok: false, message: `dial tcp ${host}:${port}: ${e.message}` }));
  });
}
