// The garbage collector, namespace, podgc, ttl and daemonset controllers in-process (src/client's
// REST client and shared informers) against a real `kubelite apiserver`, driven with kubectl:
// cascading deletion in the three modes, namespace deletion, orphaned pods, node TTLs and a
// DaemonSet following node labels.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/client/types.js';
import { DaemonSetController } from '../../src/controllers/daemonset/controller.js';
import { GarbageCollectorController } from '../../src/controllers/garbagecollector/controller.js';
import { NamespaceController } from '../../src/controllers/namespace/controller.js';
import { PodGCController } from '../../src/controllers/podgc/controller.js';
import { TTLController } from '../../src/controllers/ttl/controller.js';
import { startControllerEnv } from '../support/controllers.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import type { RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';

let api: RunningApiserver;
let kc: string;
const stop = new AbortController();
const running: Promise<void>[] = [];

async function getJson(path: string): Promise<KubeObject | undefined> {
  const r = await fetch(`${api.url}${path}`);
  if (r.status === 404) return undefined;
  assert.equal(r.status, 200, `GET ${path}`);
  return (await r.json()) as KubeObject;
}

const k = (...args: string[]) => kubectlOk(kc, args);
const meta = (o: KubeObject | undefined) => (o?.metadata ?? {}) as Record<string, unknown>;

async function ownedReplicaSet(name: string, owner: string, extra: Record<string, unknown> = {}): Promise<void> {
  const d = await getJson(`/apis/apps/v1/namespaces/default/deployments/${owner}`);
  const rs = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner, uid: meta(d).uid, controller: true, blockOwnerDeletion: true }], ...extra },
    spec: { replicas: 0, selector: { matchLabels: { rs: name } }, template: { metadata: { labels: { rs: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  await kubectlOk(kc, ['create', '-f', '-'], { input: JSON.stringify(rs) });
}

describe('garbagecollector, namespace, podgc, ttl and daemonset controllers against kubelite apiserver', () => {
  before(async () => {
    const env = await startControllerEnv();
    api = env.api;
    kc = env.kubeconfig;
    const { informers, ctx } = env;
    const controllers: [{ run(w: number, s: AbortSignal): Promise<void> }, number][] = [
      [new GarbageCollectorController(ctx), 5],
      [new NamespaceController(ctx, { deletionGraceMs: 100 }), 2],
      [new PodGCController(ctx, { gcCheckPeriodMs: 200, quarantineMs: 0 }), 1],
      [new TTLController(ctx), 2],
      [new DaemonSetController(ctx), 2],
    ];
    for (const [c, w] of controllers) running.push(c.run(w, stop.signal));
    informers.start(stop.signal);
    assert.ok(await informers.waitForCacheSync());
  });

  after(async () => {
    stop.abort();
    await Promise.all(running);
    await api?.stop();
  });

  it('kubectl delete --cascade=foreground: the dependents go first, a blocking one holds the owner', async () => {
    await k('create', 'deployment', 'fg', '--image=nginx');
    await ownedReplicaSet('fg-rs', 'fg', { finalizers: ['example.com/hold'] });
    await k('delete', 'deployment', 'fg', '--cascade=foreground', '--wait=false');
    await waitFor(async () => meta(await getJson('/apis/apps/v1/namespaces/default/replicasets/fg-rs')).deletionTimestamp, 'the replicaset being deleted');
    const d = await getJson('/apis/apps/v1/namespaces/default/deployments/fg');
    assert.ok(meta(d).deletionTimestamp, 'the deployment waits for its dependent');
    assert.deepEqual(meta(d).finalizers, ['foregroundDeletion']);
    await k('patch', 'replicaset', 'fg-rs', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    await waitFor(async () => (await getJson('/apis/apps/v1/namespaces/default/deployments/fg')) === undefined, 'the deployment gone');
    assert.equal(await getJson('/apis/apps/v1/namespaces/default/replicasets/fg-rs'), undefined);
  });

  it('kubectl delete --cascade=foreground (kubectl waits) removes the replicaset and then the deployment', async () => {
    await k('create', 'deployment', 'fg2', '--image=nginx');
    await ownedReplicaSet('fg2-rs', 'fg2');
    await k('delete', 'deployment', 'fg2', '--cascade=foreground', '--timeout=30s');
    assert.equal(await getJson('/apis/apps/v1/namespaces/default/deployments/fg2'), undefined);
    assert.equal(await getJson('/apis/apps/v1/namespaces/default/replicasets/fg2-rs'), undefined);
  });

  it('kubectl delete (background): the dependent of a deleted owner is collected', async () => {
    await k('create', 'deployment', 'bg', '--image=nginx');
    await ownedReplicaSet('bg-rs', 'bg');
    await k('delete', 'deployment', 'bg');
    await waitFor(async () => (await getJson('/apis/apps/v1/namespaces/default/replicasets/bg-rs')) === undefined, 'the replicaset collected');
  });

  it('kubectl delete --cascade=orphan: the dependent stays, without the owner reference', async () => {
    await k('create', 'deployment', 'or', '--image=nginx');
    await ownedReplicaSet('or-rs', 'or');
    await k('delete', 'deployment', 'or', '--cascade=orphan', '--timeout=30s');
    assert.equal(await getJson('/apis/apps/v1/namespaces/default/deployments/or'), undefined);
    const rs = await getJson('/apis/apps/v1/namespaces/default/replicasets/or-rs');
    assert.ok(rs, 'the replicaset stays');
    assert.equal(((meta(rs).ownerReferences as unknown[] | undefined) ?? []).length, 0);
  });

  it('kubectl delete namespace: emptied of every kind, finalized, gone', async () => {
    await k('create', 'namespace', 'doomed');
    await k('-n', 'doomed', 'create', 'configmap', 'c1');
    await k('-n', 'doomed', 'create', 'secret', 'generic', 's1');
    await k('-n', 'doomed', 'create', 'deployment', 'd', '--image=nginx');
    await k('-n', 'doomed', 'run', 'p', '--image=nginx');
    await k('delete', 'namespace', 'doomed', '--timeout=60s');
    assert.equal(await getJson('/api/v1/namespaces/doomed'), undefined);
    for (const path of ['/api/v1/namespaces/doomed/configmaps', '/api/v1/namespaces/doomed/pods', '/apis/apps/v1/namespaces/doomed/deployments']) {
      assert.equal((((await getJson(path))?.items ?? []) as unknown[]).length, 0, path);
    }
  });

  it('a Terminating namespace held by an object with a finalizer reports it, then goes once it is released', async () => {
    await k('create', 'namespace', 'held');
    await kubectlOk(kc, ['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'held', finalizers: ['example.com/hold'] } }) });
    await k('delete', 'namespace', 'held', '--wait=false');
    const cond = await waitFor(async () => {
      const ns = await getJson('/api/v1/namespaces/held');
      const conds = ((ns?.status as { conditions?: { type: string; status: string; message: string }[] } | undefined)?.conditions ?? []).filter((c) => c.status === 'True');
      return conds.find((c) => c.type === 'NamespaceFinalizersRemaining');
    }, 'NamespaceFinalizersRemaining');
    assert.equal(cond.message, 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances');
    await k('-n', 'held', 'patch', 'configmap', 'c', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    await waitFor(async () => (await getJson('/api/v1/namespaces/held')) === undefined, 'namespace held gone', 40_000);
  });

  it('nodes get the TTL annotation; a DaemonSet follows node labels; pods of a vanished node are collected', async () => {
    for (const n of ['node-a', 'node-b']) {
      await kubectlOk(kc, ['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: n, labels: { agent: 'yes' } } }) });
      // ready nodes carry no not-ready taint (no node lifecycle controller here)
      await kubectl(kc, ['patch', 'node', n, '--type=json', '-p', '[{"op":"remove","path":"/spec/taints"}]']);
    }
    await waitFor(async () => (meta(await getJson('/api/v1/nodes/node-a')).annotations as Record<string, string> | undefined)?.['node.alpha.kubernetes.io/ttl'] === '0', 'ttl annotation');
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { agent: 'yes' }, containers: [{ name: 'c', image: 'busybox' }] } } },
    };
    const agentPods = async () => (((await getJson('/api/v1/namespaces/default/pods?labelSelector=app%3Dagent'))?.items ?? []) as KubeObject[]);
    const podNodes = async () =>
      (await agentPods())
        .filter((p) => !meta(p).deletionTimestamp)
        .map((p) => (p.spec as { nodeName: string }).nodeName)
        .sort()
        .join(',');
    // the test plays the kubelet: pods become Ready as they appear, terminating ones finish at once
    const kubelet = async () => {
      for (const p of await agentPods()) {
        const name = String(meta(p).name);
        if (meta(p).deletionTimestamp) {
          await fetch(`${api.url}/api/v1/namespaces/default/pods/${name}`, { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ gracePeriodSeconds: 0 }) });
          continue;
        }
        const st = p.status as { conditions?: { type: string; status: string }[] } | undefined;
        if (st?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
        const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        await fetch(`${api.url}/api/v1/namespaces/default/pods/${name}/status`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/merge-patch+json' },
          body: JSON.stringify({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] } }),
        });
      }
    };
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      kubelet()
        .catch(() => {})
        .finally(() => (busy = false));
    }, 50);
    try {
      await kubectlOk(kc, ['create', '-f', '-'], { input: JSON.stringify(ds) });
      await waitFor(async () => (await podNodes()) === 'node-a,node-b', 'a daemon pod on each node');
      await k('label', 'node', 'node-b', 'agent-');
      await waitFor(async () => (await podNodes()) === 'node-a', 'the pod of the relabelled node removed');
      await waitFor(async () => ((await getJson('/apis/apps/v1/namespaces/default/daemonsets/agent'))?.status as { desiredNumberScheduled?: number } | undefined)?.desiredNumberScheduled === 1, 'status');
      await k('label', 'node', 'node-b', 'agent=yes');
      await waitFor(async () => (await podNodes()) === 'node-a,node-b', 'pods back on both nodes');
      await k('rollout', 'status', 'ds/agent', '--timeout=20s');
      // a rolling update (maxUnavailable 1)
      await k('set', 'image', 'ds/agent', 'c=busybox:2');
      await k('rollout', 'status', 'ds/agent', '--timeout=30s');
    } finally {
      clearInterval(timer);
    }
    const images = (await agentPods()).filter((p) => !meta(p).deletionTimestamp).map((p) => (p.spec as { containers: { image: string }[] }).containers[0]!.image);
    assert.deepEqual(images, ['busybox:2', 'busybox:2']);
    const revs = ((await getJson('/apis/apps/v1/namespaces/default/controllerrevisions'))?.items ?? []) as KubeObject[];
    assert.deepEqual(revs.map((r) => r.revision).sort(), [1, 2]);
    // podgc: a pod bound to a node that does not exist is force-deleted
    await kubectlOk(kc, ['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stranded' }, spec: { nodeName: 'no-such-node', containers: [{ name: 'c', image: 'nginx' }] } }) });
    await waitFor(async () => (await getJson('/api/v1/namespaces/default/pods/stranded')) === undefined, 'orphaned pod collected');
  });
});
