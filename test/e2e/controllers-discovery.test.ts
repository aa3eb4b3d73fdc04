// The garbage collector, namespace and resourcequota controllers find what they work on through
// the API server's discovery (aggregated /api and /apis), read over HTTP by src/client, not from
// the compiled kind table. Until CustomResourceDefinitions are served this runs with built-in
// resources the controllers had no special code for (leases, ingresses): their monitors, their
// deletion with a namespace and their count quotas come from discovery alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deletableResources, GarbageCollectorController } from '../../src/controllers/garbagecollector/controller.js';
import { NamespaceController } from '../../src/controllers/namespace/controller.js';
import { quotableResources, ResourceQuotaController } from '../../src/controllers/resourcequota/controller.js';
import { preferredResources } from '../../src/client/discovery.js';
import type { RestClientset } from '../../src/client/rest.js';
import type { KubeObject } from '../../src/client/types.js';
import { startControllerEnv } from '../support/controllers.js';
import { kubectlOk } from '../support/kubectl.js';
import type { RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';

let api: RunningApiserver;
let kc: string;
let clientset: RestClientset;
let gc: GarbageCollectorController;
let quota: ResourceQuotaController;
const stop = new AbortController();
const running: Promise<void>[] = [];

const k = (...args: string[]) => kubectlOk(kc, args);

async function getJson(path: string): Promise<KubeObject | undefined> {
  const r = await fetch(`${api.url}${path}`);
  if (r.status === 404) return undefined;
  assert.equal(r.status, 200, `GET ${path}`);
  return (await r.json()) as KubeObject;
}

const uidOf = (o: KubeObject | undefined) => String((o?.metadata as { uid?: string } | undefined)?.uid);

function lease(name: string, ns: string, owner?: { apiVersion: string; kind: string; name: string; uid: string }): string {
  return JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: ns, ...(owner ? { ownerReferences: [owner] } : {}) }, spec: { holderIdentity: 'x' } });
}

describe('controllers driven by discovery against kubelite apiserver', () => {
  before(async () => {
    const env = await startControllerEnv();
    ({ api, clientset } = env);
    kc = env.kubeconfig;
    const { informers, ctx } = env;
    gc = new GarbageCollectorController(ctx, { discoveryResyncMs: 500 });
    quota = new ResourceQuotaController(ctx, { discoveryResyncMs: 500 });
    const controllers: [{ run(w: number, s: AbortSignal): Promise<void> }, number][] = [
      [gc, 5],
      [new NamespaceController(ctx, { deletionGraceMs: 100 }), 2],
      [quota, 2],
    ];
    informers.start(stop.signal);
    for (const [c, w] of controllers) running.push(c.run(w, stop.signal));
    await waitFor(() => gc.monitors.size > 0 && quota.monitors.size > 0, 'monitors started from discovery');
  });

  after(async () => {
    stop.abort();
    await Promise.all(running);
    clientset?.close();
    await api?.stop();
  });

  it("the collector monitors exactly the server's deletable resources, the quota controller its quotable ones", async () => {
    const doc = await clientset.discovery().serverGroupsAndResources();
    assert.equal(doc.failed.size, 0);
    const preferred = preferredResources(doc);
    const want = deletableResources(preferred).map((r) => `${r.group}/${r.version}/${r.resource}`).sort();
    assert.deepEqual([...gc.monitors.keys()].sort(), want);
    assert.ok(want.includes('coordination.k8s.io/v1/leases'));
    assert.ok(!want.some((r) => r.endsWith('/events')), 'events are ignored');
    assert.ok(!want.includes('authentication.k8s.io/v1/tokenreviews'), 'create-only resources are not monitored');
    // the quota controller's monitors: quotable resources other than those it watches from the start
    const quotable = quotableResources(preferred).map((r) => `${r.resource}.${r.group}`);
    for (const key of quota.monitors.keys()) assert.ok(quotable.includes(key), key);
    assert.ok(quota.monitors.has('leases.coordination.k8s.io'));
  });

  it('a lease owned by a configmap is collected with it (owner resolved through the RESTMapper)', async () => {
    await k('create', 'configmap', 'owner');
    const cm = await getJson('/api/v1/namespaces/default/configmaps/owner');
    await kubectlOk(kc, ['create', '-f', '-'], { input: lease('owned', 'default', { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: uidOf(cm) }) });
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(await getJson('/apis/coordination.k8s.io/v1/namespaces/default/leases/owned'), 'a live owner keeps its lease');
    await k('delete', 'configmap', 'owner');
    await waitFor(async () => (await getJson('/apis/coordination.k8s.io/v1/namespaces/default/leases/owned')) === undefined, 'lease collected');
  });

  it('kubectl delete namespace removes what discovery lists in it (leases, ingresses, configmaps)', async () => {
    await k('create', 'namespace', 'doomed');
    await kubectlOk(kc, ['create', '-f', '-'], { input: lease('l', 'doomed') });
    await k('-n', 'doomed', 'create', 'ingress', 'web', '--rule=example.com/=svc:80');
    await k('-n', 'doomed', 'create', 'configmap', 'cm');
    await k('delete', 'namespace', 'doomed', '--timeout=60s');
    assert.equal(await getJson('/api/v1/namespaces/doomed'), undefined);
    assert.equal(await getJson('/apis/coordination.k8s.io/v1/namespaces/doomed/leases/l'), undefined);
    assert.equal(await getJson('/apis/networking.k8s.io/v1/namespaces/doomed/ingresses/web'), undefined);
  });

  it('count/leases.coordination.k8s.io is counted and replenished through the discovered monitor', async () => {
    await k('create', 'namespace', 'q');
    await k('-n', 'q', 'create', 'quota', 'leases', '--hard=count/leases.coordination.k8s.io=5');
    for (const n of ['a', 'b']) await kubectlOk(kc, ['create', '-f', '-'], { input: lease(n, 'q') });
    const used = async () => ((await getJson('/api/v1/namespaces/q/resourcequotas/leases'))?.status as { used?: Record<string, string> } | undefined)?.used?.['count/leases.coordination.k8s.io'];
    await waitFor(async () => (await used()) === '2', 'two leases counted');
    await k('-n', 'q', 'delete', 'lease', 'a');
    await waitFor(async () => (await used()) === '1', 'the deletion replenished the quota');
  });

  it('custom resources: found once their CRD is served, deleted with their namespace, counted by count/<plural>.<group>, collected with their owner', async () => {
    await kubectlOk(kc, ['apply', '-f', '-'], { input: GADGET_CRD });
    await k('wait', '--for', 'condition=Established', '--timeout', '10s', 'crd/gadgets.disco.example.com');
    await waitFor(() => gc.monitors.has('disco.example.com/v1/gadgets') && quota.monitors.has('gadgets.disco.example.com'), 'monitors for the new resource');
    const gadget = (name: string, ns: string, owner?: Record<string, string>) =>
      JSON.stringify({ apiVersion: 'disco.example.com/v1', kind: 'Gadget', metadata: { name, namespace: ns, ...(owner ? { ownerReferences: [owner] } : {}) }, size: 1 });
    await k('create', 'namespace', 'gq');
    await k('-n', 'gq', 'create', 'quota', 'gadgets', '--hard=count/gadgets.disco.example.com=2');
    for (const n of ['a', 'b']) await kubectlOk(kc, ['create', '-f', '-'], { input: gadget(n, 'gq') });
    const used = async () => ((await getJson('/api/v1/namespaces/gq/resourcequotas/gadgets'))?.status as { used?: Record<string, string> } | undefined)?.used?.['count/gadgets.disco.example.com'];
    await waitFor(async () => (await used()) === '2', 'two gadgets counted');
    // An owned custom resource goes with its owner.
    await k('-n', 'gq', 'create', 'configmap', 'owner');
    const cm = await getJson('/api/v1/namespaces/gq/configmaps/owner');
    await k('-n', 'gq', 'delete', 'gadget', 'b');
    await kubectlOk(kc, ['create', '-f', '-'], { input: gadget('owned', 'gq', { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: uidOf(cm) }) });
    await k('-n', 'gq', 'delete', 'configmap', 'owner');
    await waitFor(async () => (await getJson('/apis/disco.example.com/v1/namespaces/gq/gadgets/owned')) === undefined, 'the owned gadget collected');
    await k('delete', 'namespace', 'gq', '--timeout=60s');
    assert.equal(await getJson('/apis/disco.example.com/v1/namespaces/gq/gadgets/a'), undefined);
  });
});

const GADGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.disco.example.com}
spec:
  group: disco.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`;
