// A single-process cluster's components in one event loop (startCluster({ singleProcess: true }),
// src/up/in-loop.ts): a component that fails is restarted as a process would be, and two clusters
// started at once in one process share nothing — not their objects, not their API servers' or
// controller managers' metrics, not their stop.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { freePort } from '../support/ports.js';
import { waitFor } from '../support/wait.js';

/** The sum of a metric's lines of a Prometheus text whose labels match, 0 when none. */
function metricValue(text: string, name: string, labels: RegExp): number {
  const lines = text.split('\n').filter((l) => l.startsWith(`${name}{`) && labels.test(l.slice(0, l.lastIndexOf(' '))));
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

async function httpText(url: string): Promise<string> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return res.text();
}

describe('startCluster({ singleProcess: true }) in one event loop', () => {
  const clusters: Cluster[] = [];
  after(async () => {
    await Promise.all(clusters.map((c) => c.stop()));
  });

  it('restarts a component that fails, as a supervised process', { timeout: 90_000 }, async () => {
    // The scheduler's health port taken: it exits 1 at start, and comes back once the port is free.
    const port = await freePort();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const lines: string[] = [];
    const cluster = await startCluster({ singleProcess: true, nodes: 1, storage: 'memory', args: { scheduler: ['--port', String(port)] }, log: (l) => lines.push(l) });
    clusters.push(cluster);
    await waitFor(() => lines.some((l) => /^\[up\] scheduler exited \(1\); restarting in \d+s$/.test(l)), 'the scheduler failing', 30_000);
    assert.ok(lines.some((l) => l.startsWith('[scheduler] kubelite scheduler: cannot listen on 127.0.0.1:') && l.includes('EADDRINUSE')), lines.join('\n'));
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, 'the restarted scheduler ready', 60_000);
    // and it schedules: a pod runs on the one node
    await kubectlOk(cluster.kubeconfig, ['run', 'p', '--image=busybox', '--restart=Never', '--', 'sleep', '3600']);
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/p', '--timeout=60s']);
    await cluster.stop();
  });

  it('two clusters at once share no objects, no metrics and no stop', { timeout: 120_000 }, async () => {
    const cmPorts = [await freePort(), await freePort()];
    const [a, b] = await Promise.all(cmPorts.map((p) => startCluster({ singleProcess: true, nodes: 1, args: { controllerManager: ['--port', String(p)] } })));
    clusters.push(a!, b!);
    assert.notEqual(a!.server, b!.server);
    await kubectlOk(a!.kubeconfig, ['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    await kubectlOk(a!.kubeconfig, ['wait', '--for=condition=Available', 'deployment/web', '--timeout=60s']);
    assert.match((await kubectl(b!.kubeconfig, ['get', 'deployment', 'web'])).stderr, /NotFound/);
    assert.equal((await kubectlOk(b!.kubeconfig, ['get', 'pods', '-A', '-o', 'name'])).trim(), '');

    // each API server counts its own requests
    const created = /verb="create",group="apps",resource="deployments",code="201"/;
    const requests = 'apiserver_request_total';
    const apiserverMetrics = async (c: Cluster) => kubectlOk(c.kubeconfig, ['get', '--raw', '/metrics']);
    assert.ok(metricValue(await apiserverMetrics(a!), requests, created) >= 1);
    assert.equal(metricValue(await apiserverMetrics(b!), requests, created), 0);
    // each controller manager reports its own work queues: A's deployment controller synced web, B's nothing
    const [cmA, cmB] = await Promise.all(cmPorts.map((p) => httpText(`http://127.0.0.1:${p}/metrics`)));
    assert.ok(metricValue(cmA!, 'workqueue_adds_total', /name="deployment"/) >= 1, cmA);
    assert.equal(metricValue(cmB!, 'workqueue_adds_total', /name="deployment"/), 0, cmB);
    assert.ok(metricValue(cmA!, 'workqueue_adds_total', /name="replicaset"/) >= 1);
    assert.equal(metricValue(cmB!, 'workqueue_adds_total', /name="replicaset"/), 0);

    // stopping one leaves the other serving
    await a!.stop();
    assert.equal((await kubectlOk(b!.kubeconfig, ['get', '--raw', '/readyz'])).trim(), 'ok');
    await kubectlOk(b!.kubeconfig, ['create', 'namespace', 'still-here']);
  });
});
