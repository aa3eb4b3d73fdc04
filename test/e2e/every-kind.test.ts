// Every served kind in every served version, over HTTP: created in that version, read back in
// every version of the same resource (hub and spoke conversion through the API), listed, watched
// through both path forms, deleted; and kubectl proxy in front of the server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allKinds, apiVersionOf } from '../../src/api/kinds.js';
import type { KindVersion, KubeObject } from '../../src/api/schema/kind.js';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';
import { certificateRequestPem } from '../../src/machinery/x509/csr.testutil.js';
import { kubectlStream } from '../support/kubectl.js';
import { writeKubeconfig } from '../support/kubelite.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NS = 'every';
const containers = [{ name: 'c', image: 'busybox' }];

function template(app: string, restartPolicy = 'Always') {
  return { metadata: { labels: { app } }, spec: { restartPolicy, containers } };
}

/** A minimal valid object of a kind (the same body works in every version of the kind). */
function minimal(kind: string, name: string): KubeObject {
  switch (kind) {
    case 'Pod':
      return { spec: { containers } };
    case 'PodTemplate':
      return { template: template(name) };
    case 'Event':
      return { involvedObject: { kind: 'Pod', name: 'p', namespace: NS }, reason: 'Tested', message: 'hello', type: 'Normal', source: { component: 'e2e' } };
    case 'ConfigMap':
      return { data: { a: 'b' } };
    case 'Secret':
      return { stringData: { a: 'b' } };
    case 'Service':
      return { spec: { ports: [{ port: 80 }] } };
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
      return { spec: { selector: { matchLabels: { app: name } }, template: template(name) } };
    case 'ReplicationController':
      return { spec: { selector: { app: name }, template: template(name) } };
    case 'StatefulSet':
      return { spec: { serviceName: 'svc', selector: { matchLabels: { app: name } }, template: template(name) } };
    case 'ControllerRevision':
      return { revision: 1, data: { spec: { template: {} } } };
    case 'Job':
      return { spec: { template: { spec: { restartPolicy: 'Never', containers } } } };
    case 'CronJob':
      return { spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers } } } } } };
    case 'HorizontalPodAutoscaler':
      return { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, maxReplicas: 3 } };
    case 'PodDisruptionBudget':
      return { spec: { minAvailable: 1, selector: { matchLabels: { app: name } } } };
    case 'Lease':
      return { spec: { holderIdentity: 'e2e', leaseDurationSeconds: 10 } };
    case 'ResourceQuota':
      return { spec: { hard: { 'count/widgets.example.com': '5' } } };
    case 'LimitRange':
      // A type no admission enforces: the other kinds' objects in the namespace stay untouched.
      return { spec: { limits: [{ type: 'example.com/widget', max: { 'example.com/widget': '5' } }] } };
    case 'EndpointSlice':
      return { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ name: 'http', port: 80 }] };
    case 'PriorityClass':
      return { value: 1000 };
    case 'RuntimeClass':
      return { handler: 'runc' };
    case 'MutatingWebhookConfiguration':
    case 'ValidatingWebhookConfiguration':
      return { webhooks: [{ name: 'e2e.example.com', clientConfig: { url: 'https://hook.example.com/check' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }] };
    case 'ValidatingAdmissionPolicy':
      return { spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] }, validations: [{ expression: 'object.spec.replicas <= 5' }] } };
    case 'ValidatingAdmissionPolicyBinding':
      return { spec: { policyName: 'replicas', validationActions: ['Deny'] } };
    case 'CertificateSigningRequest':
      return { spec: { request: Buffer.from(certificateRequestPem(name)).toString('base64'), signerName: 'example.com/e2e', usages: ['client auth'] } };
    case 'Role':
    case 'ClusterRole':
      return { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'e2e' }] };
    case 'FlowSchema':
      return { spec: { priorityLevelConfiguration: { name: 'global-default' } } };
    case 'PriorityLevelConfiguration':
      return { spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } };
    case 'APIService':
      return { spec: { group: 'every.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15 } };
    case 'Ingress':
      return { spec: { defaultBackend: { service: { name: 'svc', port: { number: 80 } } } } };
    case 'IngressClass':
      return { spec: { controller: 'example.com/ingress' } };
    case 'NetworkPolicy':
      return { spec: { podSelector: {} } };
    case 'IPAddress':
      return { spec: { parentRef: { group: '', resource: 'services', namespace: NS, name: 'svc' } } };
    case 'ServiceCIDR':
      return { spec: { cidrs: ['10.250.0.0/24'] } };
    case 'PersistentVolume':
      return { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' } } };
    case 'PersistentVolumeClaim':
      return { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    case 'StorageClass':
      return { provisioner: 'example.com/e2e' };
    case 'CSIDriver':
      return { spec: {} };
    case 'CSINode':
      return { spec: { drivers: [{ name: 'example.com', nodeID: 'n1', topologyKeys: null }] } };
    case 'CustomResourceDefinition':
      return { spec: { group: 'every.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } };
    case 'CSIStorageCapacity':
      return { storageClassName: 'standard', capacity: '1Gi' };
    case 'VolumeAttachment':
      return { spec: { attacher: 'example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } } };
    default:
      return {};
  }
}

/** Kinds whose names must say something: an APIService is `<version>.<group>`, an IPAddress its address. */
const NAMES: Record<string, string> = { APIService: 'v1.every.example.com', IPAddress: '10.250.0.10', CustomResourceDefinition: 'widgets.every.example.com' };
/** Kinds whose status the API server writes right after a create (a CRD's names and conditions). */
const STATUS_WRITTEN_AT_ONCE = new Set(['CustomResourceDefinition']);

/** The name of the kind's object in this test. */
function nameFor(k: KindVersion): string {
  return NAMES[k.kind] ?? `${k.kind.toLowerCase()}-${(k.group || 'core').replace(/\./g, '-')}-${k.version}`;
}

/** A minimal object in `k`'s version, where the versions of a kind differ (events.k8s.io/v1's Event). */
function minimalIn(k: KindVersion, name: string): KubeObject {
  if (k.group === 'events.k8s.io') {
    return { eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'e2e', reportingInstance: 'e2e-1', action: 'Testing', reason: 'Tested', regarding: { kind: 'Pod', name: 'p', namespace: NS }, note: 'hello', type: 'Normal' };
  }
  return minimal(k.kind, name);
}

function collection(k: KindVersion, watch = false): string {
  const base = k.group === '' ? `/api/${k.version}` : `/apis/${k.group}/${k.version}`;
  const w = watch ? '/watch' : '';
  return k.namespaced ? `${base}${w}/namespaces/${NS}/${k.resource}` : `${base}${w}/${k.resource}`;
}

/** Reads a watch stream up to its first event, then hangs up. */
async function firstWatchEvent(url: string): Promise<{ type: string; object: KubeObject }> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal });
  const reader = res.body!.getReader();
  let text = '';
  try {
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
  } finally {
    abort.abort();
  }
  return JSON.parse(text.slice(0, text.indexOf('\n')));
}

describe('every kind in every served version', () => {
  let server: ApiServer;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };

  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'NodeRestriction'] });
    assert.equal((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
  });
  after(async () => {
    await server?.close();
  });

  // (Computed kinds, the metrics and component statuses, are read-only: test/e2e/metrics-kubectl.test.ts, componentstatus-binding.test.ts.)
  for (const k of allKinds.filter((k) => !k.createOnly && !k.computed)) {
    it(`${apiVersionOf(k)} ${k.kind}`, async () => {
      const name = nameFor(k);
      const obj = { apiVersion: apiVersionOf(k), kind: k.kind, metadata: { name }, ...minimalIn(k, name) };
      const created = await call('POST', collection(k), obj);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.apiVersion, apiVersionOf(k));
      assert.equal(created.body.kind, k.kind);
      // Read back in every version of the same resource: each converts from the storage version.
      for (const other of allKinds.filter((o) => o.resource === k.resource && o.kind === k.kind)) {
        const got = await call('GET', `${collection(other)}/${name}`);
        assert.equal(got.status, 200, `${apiVersionOf(other)}: ${JSON.stringify(got.body)}`);
        assert.equal(got.body.apiVersion, apiVersionOf(other));
        assert.equal(got.body.metadata.uid, created.body.metadata.uid);
        if (other === k && !STATUS_WRITTEN_AT_ONCE.has(k.kind)) assert.deepEqual(got.body, created.body);
      }
      const list = await call('GET', `${collection(k)}?fieldSelector=metadata.name%3D${name}`);
      assert.equal(list.status, 200);
      assert.equal(list.body.kind, `${k.kind}List`);
      assert.deepEqual(list.body.items.map((i: KubeObject) => (i.metadata as KubeObject).name), [name]);
      // The deprecated /watch/ path form streams the same events as ?watch=1.
      const first = await firstWatchEvent(`${server.url}${collection(k, true)}?fieldSelector=metadata.name%3D${name}`);
      assert.equal(first.type, 'ADDED');
      assert.equal((first.object as KubeObject & { metadata: KubeObject }).metadata.name, name);
      const deleted = await call('DELETE', `${collection(k)}/${name}?gracePeriodSeconds=0`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    });
  }

  it('virtual kinds (access reviews, SelfSubjectReview) are created and answered, never stored', async () => {
    // A Binding names the pod it binds.
    assert.equal((await call('POST', `/api/v1/namespaces/${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'to-bind' }, spec: { containers } })).status, 201);
    for (const k of allKinds.filter((k) => k.createOnly)) {
      if (k.kind === 'Binding') {
        const bound = await call('POST', collection(k), { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'to-bind' }, target: { kind: 'Node', name: 'n1' } });
        assert.equal(bound.status, 201, JSON.stringify(bound.body));
        assert.equal((await call('GET', collection(k))).status, 405, k.kind);
        continue;
      }
      const spec = k.kind === 'SelfSubjectReview' ? {} : k.kind === 'SelfSubjectRulesReview' ? { spec: { namespace: NS } } : k.kind === 'TokenReview' ? { spec: { token: 'not-a-token' } } : { spec: { user: 'e2e', resourceAttributes: { verb: 'get', resource: 'pods', namespace: NS } } };
      const created = await call('POST', collection(k), { apiVersion: apiVersionOf(k), kind: k.kind, ...spec });
      assert.equal(created.status, 201, `${apiVersionOf(k)} ${k.kind}: ${JSON.stringify(created.body)}`);
      assert.ok(created.body.status, k.kind);
      assert.equal((await call('GET', collection(k))).status, 405, k.kind);
    }
  });

  it('computed kinds (componentstatuses; the metrics have their own test) are listed and read, never written', async () => {
    for (const k of allKinds.filter((k) => k.computed && k.group === '')) {
      const list = await call('GET', collection(k));
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.equal(list.body.kind, `${k.kind}List`);
      const name = (list.body.items[0].metadata as KubeObject).name as string;
      assert.equal((await call('GET', `${collection(k)}/${name}`)).status, 200);
      assert.equal((await call('POST', collection(k), { apiVersion: apiVersionOf(k), kind: k.kind, metadata: { name: 'x' } })).status, 405, k.kind);
    }
  });

  it('kubectl proxy serves the API on a local port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubelite-proxy-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfig, server.url);
    const proxy = kubectlStream(kubeconfig, ['proxy', '--port=0']);
    try {
      const line = await proxy.waitFor(/Starting to serve on 127\.0\.0\.1:\d+/);
      const port = line.split(':').pop();
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/${NS}`);
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as KubeObject).kind, 'Namespace');
    } finally {
      proxy.child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
