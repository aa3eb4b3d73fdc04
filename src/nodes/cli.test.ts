// `kubelite nodes` as a process: flag errors, and a run against an in-process API server.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startApiServer } from '../apiserver/server.js';
import type { Node, Pod } from '../api/types.js';
import { RestClientset } from '../client/rest.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'main.js');

test('kubelite nodes: bad flags end with a one-line error and exit 2', () => {
  const master = ['--master', 'https://127.0.0.1:1'];
  const badCredentials = [
    [...master, '--cluster-signing-cert-file', '/nonexistent/ca.crt'],
    [...master, '--cluster-signing-cert-file', '/nonexistent/ca.crt', '--cluster-signing-key-file', '/nonexistent/ca.key'],
    [...master, '--impersonate-nodes', '--cluster-signing-cert-file', '/nonexistent/ca.crt', '--cluster-signing-key-file', '/nonexistent/ca.key'],
  ];
  for (const args of [['--nodes', 'x'], ['--node-cpu', 'lots'], ['--node-lease-renew-interval', 'soon'], ['--bogus'], [], ...badCredentials]) {
    const r = spawnSync(process.execPath, [BIN, 'nodes', ...args], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: '' } });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^kubelite nodes: /);
  }
});

test('kubelite nodes --master: registers the nodes, runs a pod, stops on SIGTERM', async () => {
  const server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'NodeRestriction'] });
  const cs = new RestClientset({ config: { server: server.url }, qps: 0 });
  const child = spawn(process.execPath, [BIN, 'nodes', '--master', server.url, '--nodes', '2', '--node-name-prefix', 'cli-', '--zones', 'x'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    await cs.resource({ group: '', version: 'v1', resource: 'namespaces' }).create('', { metadata: { name: 'default' } }).catch(() => {});
    const deadline = Date.now() + 15_000;
    for (;;) {
      const nodes: Node[] = (await cs.resource({ group: '', version: 'v1', resource: 'nodes' }).list('')).items;
      const ready = nodes.filter((n) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
      if (ready.length === 2) break;
      if (Date.now() > deadline) throw new Error(`nodes not ready: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const pods = cs.resource({ group: '', version: 'v1', resource: 'pods' });
    await pods.create('default', { metadata: { name: 'p' }, spec: { nodeName: 'cli-1', containers: [{ name: 'c', image: 'nginx' }] } });
    for (;;) {
      const p: Pod = await pods.get('default', 'p');
      if (p.status?.phase === 'Running') break;
      if (Date.now() > deadline) throw new Error(`pod not running: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.match(stderr, /"msg":"nodes started"/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    cs.close();
    await server.close();
  }
});
