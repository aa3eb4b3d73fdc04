// `npm run bench -- token-auth [seconds] [rounds]`: what a service-account token costs the API
// server beside the admin client certificate, without the rest of a cluster in the figures. One
// `kubelite apiserver` (lmdb, `--authorization-mode Node,RBAC` as `kubelite up` runs it); pods
// created at 32 clients alternately as a ServiceAccount with a token from TokenRequest bound to a
// pod (allowed by a RoleBinding) and as the admin (client certificate, system:masters), in
// `rounds` rounds of A B B A; the API server's CPU per create for each, and their ratio.
// KUBELITE_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the API server meanwhile; a
// third argument, `token` or `cert`, runs that side alone (one profile per path).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientAgent, podTemplate, startApiserver } from './apiserver.js';
import { bareServerRate } from './ceiling.js';
import { quantile, type BenchReport } from './report.js';
import { createRun, merge, NAMESPACE, send, serviceAccountToken, until, type Caller, type CreateRun } from './up.js';

const TOKEN = 'SA token';
const CERT = 'admin cert';

export async function run(args: string[]): Promise<BenchReport> {
  const seconds = Number(args[0] ?? 3);
  const rounds = Number(args[1] ?? 2);
  const only = args[2] === 'token' ? TOKEN : args[2] === 'cert' ? CERT : undefined;
  const loads = [`start ${loadavg()[0]!.toFixed(1)}`];
  const pod = podTemplate('ceiling');
  const bareRate = await bareServerRate(32, seconds, (c, i) => `${pod.before}c-${c}-${i}${pod.after}`);
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-bench-token-auth-'));
  const server = await startApiserver(join(dir, 'data'), ['--authorization-mode', 'Node,RBAC']);
  try {
    const procs = new Map([['apiserver', server.process.pid!]]);
    const admin: Caller = { port: server.port, agent: clientAgent({ keepAlive: true, maxSockets: 64 }), headers: {} };
    // The default ServiceAccount the ServiceAccount admission plugin wants (no controller manager here).
    const createDefault = async () => {
      const r = await send(admin, 'POST', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
      return r.status === 201 || r.status === 409;
    };
    const tokenPromise = serviceAccountToken(admin);
    await until(async () => (await send(admin, 'GET', `/api/v1/namespaces/${NAMESPACE}`)).status === 200 && createDefault(), 'the bench namespace');
    const token = await tokenPromise;
    const callers: Record<string, Caller> = { [TOKEN]: { port: server.port, agent: new Agent({ keepAlive: true, maxSockets: 64, ca: (admin.agent.options as { ca?: Buffer }).ca }), headers: { Authorization: `Bearer ${token}` } }, [CERT]: admin };
    await until(async () => (await send(callers[TOKEN]!, 'GET', `/api/v1/namespaces/${NAMESPACE}/pods?limit=1`)).status === 200, 'the service account may list pods');
    const runs: Record<string, CreateRun[]> = { [TOKEN]: [], [CERT]: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [j, who] of [TOKEN, CERT, CERT, TOKEN].entries()) if (only === undefined || who === only) runs[who]!.push(await createRun(callers[who]!, procs, 32, seconds / 2, `r${r}-${j}`));
    }
    loads.push(`end ${loadavg()[0]!.toFixed(1)}`);
    const m = Object.fromEntries(Object.entries(runs).map(([who, rs]) => [who, merge(rs)])) as Record<string, CreateRun>;
    const rate = (who: string) => m[who]!.creates / m[who]!.seconds;
    const cpu = (who: string) => ((m[who]!.cpu.get('apiserver') ?? 0) / m[who]!.creates) * 1e6;
    // Each A B B A round on its own: how far the ratio moves between rounds.
    const perRound = Array.from({ length: rounds }, (_, r) => {
      const of = (who: string) => merge(runs[who]!.slice(2 * r, 2 * r + 2));
      const per = (x: CreateRun) => (x.cpu.get('apiserver') ?? 0) / x.creates;
      return `${((per(of(TOKEN)) / per(of(CERT)) - 1) * 100).toFixed(0)}%`;
    });
    for (const c of Object.values(callers)) c.agent.destroy();
    const ratio = cpu(TOKEN) / cpu(CERT);
    return {
      name: 'token-auth',
      columns: [TOKEN, CERT],
      ceiling: { bareServerPerSecond: bareRate },
      rows: [
        { metric: 'machine: bare Node HTTP server, pod JSON parsed and echoed, 32 clients', values: { [TOKEN]: bareRate }, unit: 'ops/s' },
        { metric: 'creates/s, 32 clients', values: { [TOKEN]: rate(TOKEN), [CERT]: rate(CERT) }, unit: 'ops/s' },
        { metric: 'same, of the bare server\'s rate', values: { [TOKEN]: `${((100 * rate(TOKEN)) / bareRate).toFixed(0)}%`, [CERT]: `${((100 * rate(CERT)) / bareRate).toFixed(0)}%` }, unit: '', target: '≥ 50%', met: rate(TOKEN) / bareRate >= 0.5 },
        { metric: 'create latency p50 / p99', values: Object.fromEntries([TOKEN, CERT].map((w) => [w, `${quantile(m[w]!.latencies, 0.5).toFixed(1)} / ${quantile(m[w]!.latencies, 0.99).toFixed(1)}`])), unit: 'ms' },
        { metric: 'API server CPU per create', values: { [TOKEN]: cpu(TOKEN), [CERT]: cpu(CERT) }, unit: 'µs' },
        { metric: 'SA token ÷ admin cert, CPU per create (each round)', values: { [TOKEN]: `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(0)}% (${perRound.join(', ')})` }, unit: '', target: '≤ +5%', met: ratio <= 1.05 },
      ],
      notes: [
        `One \`kubelite apiserver\` (lmdb, --authorization-mode Node,RBAC); 32 clients of this process over HTTPS keep-alive; ${rounds} rounds of SA token, admin cert, admin cert, SA token, ${seconds / 2} s each. "${TOKEN}": a token from TokenRequest bound to a pod, for a ServiceAccount allowed by a RoleBinding to create pods; "${CERT}": the admin client certificate (system:masters).`,
        `The machine is shared with other agents: read the ratio of the interleaved runs, not the absolute figures. 1-minute load average: ${loads.join(', ')}.`,
      ],
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
