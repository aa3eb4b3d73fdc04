// Starts real etcd processes for tests and benchmarks: one member or a three-member cluster on
// free loopback ports, each in a fresh temporary directory that is removed on stop.
//
// Every member runs with --max-request-bytes=2 MiB: kubelite accepts values up to 1.5 MiB
// (MAX_VALUE_BYTES), and etcd's default limit of exactly 1.5 MiB counts the whole request (key,
// value, compare clauses, protobuf framing), so a value at our limit would be refused.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { freePort } from './ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ETCD_MAX_REQUEST_BYTES = 2 * 1024 * 1024;
/** etcd's own default quota (2 GiB), stated explicitly so a test run never depends on it. */
export const ETCD_QUOTA_BACKEND_BYTES = 2 * 1024 * 1024 * 1024;

export interface StartEtcdOptions {
  members?: 1 | 3;
  /**
   * Durable (the default) keeps the data directory on the real disk, where etcd fsyncs every
   * commit. `false` puts it on tmpfs (/dev/shm) instead, where fsync costs nothing: for functional
   * tests only, since etcd 3.4 has no --unsafe-no-fsync flag.
   */
  fsync?: boolean;
  /** Extra command-line flags for every member. */
  extraArgs?: string[];
  /** How long to wait for the cluster to become healthy. */
  startTimeoutMs?: number;
}

export interface EtcdMember {
  name: string;
  clientUrl: string;
  peerUrl: string;
  dataDir: string;
  logFile: string;
  /** The running process; replaced by `restart()`. */
  process: ChildProcess;
  /** SIGKILLs the member (no clean shutdown, like a crash or a power cut). */
  kill(): void;
  /** Resolves once the member's process has exited. */
  exited(): Promise<void>;
  /** Starts a killed member again on the same ports and data directory; resolves when healthy. */
  restart(): Promise<void>;
}

export interface EtcdServer {
  endpoints: string[];
  members: EtcdMember[];
  dir: string;
  stop(): Promise<void>;
}

export function etcdBinary(): string {
  return process.env.ETCD_BIN || 'etcd';
}

/** Whether an etcd binary can be run here, and if not, why (one line). */
export function etcdAvailable(): { ok: boolean; reason: string } {
  const bin = etcdBinary();
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error) return { ok: false, reason: `cannot run ${bin}: ${r.error.message} (install Debian's etcd-server)` };
  if (r.status !== 0) return { ok: false, reason: `${bin} --version exited with ${r.status}: ${r.stderr.trim().split('\n')[0] ?? ''}` };
  const version = /etcd Version: (\S+)/.exec(r.stdout)?.[1] ?? 'unknown version';
  return { ok: true, reason: `${bin} ${version}` };
}

/**
 * For test files: undefined when etcd tests should run, otherwise a one-line reason to skip them.
 * With KUBELITE_REQUIRE_ETCD=1 (CI), a missing etcd is an error instead of a skip.
 */
export function etcdSkipReason(): string | undefined {
  const { ok, reason } = etcdAvailable();
  if (ok) return undefined;
  if (process.env.KUBELITE_REQUIRE_ETCD === '1') throw new Error(`KUBELITE_REQUIRE_ETCD=1 but etcd is unavailable: ${reason}`);
  return `etcd unavailable: ${reason}`;
}

const running = new Set<ChildProcess>();
const liveDirs = new Set<string>();
let exitHookInstalled = false;

/** Makes sure no etcd outlives the test process, even when it dies on a signal or a timeout. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const cleanup = (): void => {
    for (const p of running) p.kill('SIGKILL');
    for (const d of liveDirs) rmSync(d, { recursive: true, force: true });
  };
  process.on('exit', cleanup);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      cleanup();
      process.kill(process.pid, sig);
    });
  }
}

export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdServer> {
  const available = etcdAvailable();
  if (!available.ok) throw new Error(available.reason);
  // A port picked free may be taken before etcd binds it; a fresh set of ports fixes that.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (err) {
      if (!(err instanceof PortInUse) || attempt >= 5) throw err;
    }
  }
}

class PortInUse extends Error {}

async function startOnce(opts: StartEtcdOptions): Promise<EtcdServer> {
  installExitHook();
  const count = opts.members ?? 1;
  const fsync = opts.fsync ?? true;
  const base = !fsync && existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(base, 'kubelite-etcd-'));
  liveDirs.add(dir);
  const ports = await freePorts(count * 2);
  const token = `kubelite-${randomBytes(4).toString('hex')}`;
  const specs = Array.from({ length: count }, (_, i) => ({
    name: `m${i}`,
    clientUrl: `http://127.0.0.1:${ports[2 * i]!}`,
    peerUrl: `http://127.0.0.1:${ports[2 * i + 1]!}`,
    dataDir: join(dir, `m${i}`),
    logFile: join(dir, `m${i}.log`),
  }));
  const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
  const members: EtcdMember[] = specs.map((spec) => {
    mkdirSync(spec.dataDir, { recursive: true, mode: 0o700 });
    const args = [
      `--name=${spec.name}`,
      `--data-dir=${spec.dataDir}`,
      `--listen-client-urls=${spec.clientUrl}`,
      `--advertise-client-urls=${spec.clientUrl}`,
      `--listen-peer-urls=${spec.peerUrl}`,
      `--initial-advertise-peer-urls=${spec.peerUrl}`,
      `--initial-cluster=${initialCluster}`,
      '--initial-cluster-state=new',
      `--initial-cluster-token=${token}`,
      `--max-request-bytes=${ETCD_MAX_REQUEST_BYTES}`,
      `--quota-backend-bytes=${ETCD_QUOTA_BACKEND_BYTES}`,
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=warn',
      ...(opts.extraArgs ?? []),
    ];
    const member: EtcdMember = {
      ...spec,
      process: launch(args, spec.logFile),
      kill: () => {
        member.process.kill('SIGKILL');
      },
      exited: () => waitExit(member.process),
      restart: async () => {
        if (member.process.exitCode === null && member.process.signalCode === null) {
          throw new Error(`etcd member ${spec.name} is still running`);
        }
        member.process = launch(args, spec.logFile);
        await waitHealthy([member], opts.startTimeoutMs ?? 30_000);
      },
    };
    return member;
  });
  try {
    await waitHealthy(members, opts.startTimeoutMs ?? 30_000);
  } catch (err) {
    await stopAll(members, dir);
    throw err;
  }
  return {
    endpoints: members.map((m) => m.clientUrl),
    members,
    dir,
    stop: () => stopAll(members, dir),
  };
}

function launch(args: string[], logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(etcdBinary(), args, { stdio: ['ignore', fd, fd] });
    running.add(child);
    child.once('exit', () => running.delete(child));
    // A failed spawn (binary vanished) must not crash the test process with an unhandled error.
    child.once('error', () => running.delete(child));
    return child;
  } finally {
    closeSync(fd);
  }
}

function waitExit(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => p.once('exit', () => resolve()));
}

async function stopAll(members: EtcdMember[], dir: string): Promise<void> {
  // No graceful shutdown needed: the data directory is thrown away.
  for (const m of members) m.process.kill('SIGKILL');
  await Promise.all(members.map((m) => m.exited()));
  rmSync(dir, { recursive: true, force: true });
  liveDirs.delete(dir);
}

/** Distinct free loopback ports. */
async function freePorts(n: number): Promise<number[]> {
  const taken = new Set<number>();
  for (let i = 0; i < n; i++) taken.add(await freePort(taken));
  return [...taken];
}

async function waitHealthy(members: EtcdMember[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(members);
  while (pending.size > 0) {
    for (const m of [...pending]) {
      if (m.process.exitCode !== null || m.process.signalCode !== null) {
        const log = readLog(m.logFile);
        if (/address already in use/.test(log)) throw new PortInUse(`etcd ${m.name}: port in use`);
        throw new Error(`etcd member ${m.name} exited during startup (${m.process.exitCode ?? m.process.signalCode}):\n${tail(log)}`);
      }
      if (await healthy(m.clientUrl)) pending.delete(m);
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) {
      const m = [...pending][0]!;
      throw new Error(`etcd member ${m.name} not healthy after ${timeoutMs} ms:\n${tail(readLog(m.logFile))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** etcd's /health is true once the member has a leader and serves linearizable reads. */
function healthy(clientUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${clientUrl}/health`, { timeout: 2000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 && /"health"\s*:\s*"true"/.test(body)));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function tail(log: string, lines = 20): string {
  return log.trimEnd().split('\n').slice(-lines).join('\n');
}
