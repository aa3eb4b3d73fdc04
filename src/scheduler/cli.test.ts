// `kubelite scheduler` as a process against an in-process API server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApiServer } from '../apiserver/server.js';
import type { Lease } from '../api/types.js';
import { RestClientset } from '../client/rest.js';
import { freePort } from '../../test/support/ports.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'main.js');
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };


async function until(cond: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('kubelite scheduler: bad flags are one-line errors with exit 2', () => {
  for (const args of [['--bogus'], ['--master', 'http://127.0.0.1:1', '--kube-api-qps', 'x'], [], ['--master', 'http://127.0.0.1:1', '--leader-elect', 'maybe'], ['--master', 'http://127.0.0.1:1', '--port', '70000']]) {
    const r = spawnSync(process.execPath, [BIN, 'scheduler', ...args], { encoding: 'utf8' });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^kubelite scheduler: [^\n]+\n$/, args.join(' '));
  }
});

test('kubelite scheduler: leader lease, /readyz and /metrics, SIGTERM releases the lease and exits 0', async () => {
  const server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'NodeRestriction'] });
  const cs = new RestClientset({ config: { server: server.url }, qps: 0 });
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'scheduler', '--master', server.url, '--port', String(port), '--leader-elect-resource-name', 'test-scheduler'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    await cs.resource(NAMESPACES).create('', { metadata: { name: 'kube-system' } }).catch(() => undefined);
    await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, `readyz (${stderr})`);
    const lease: Lease = await cs.resource(LEASES).get('kube-system', 'test-scheduler');
    assert.match(String(lease.spec!.holderIdentity), /_/);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    assert.match(metrics, /scheduler_pending_pods\{queue="active"\} 0/);
    assert.match(metrics, /^process_resident_memory_bytes \d+/m);
    assert.match(metrics, /^nodejs_heap_size_used_bytes \d+/m);
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.once('exit', r));
    assert.equal(code, 0, stderr);
    const released: Lease = await cs.resource(LEASES).get('kube-system', 'test-scheduler');
    assert.equal(released.spec!.holderIdentity, '');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    cs.close();
    await server.close();
  }
});
