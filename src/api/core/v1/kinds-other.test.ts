// The core/v1 kinds other than Pod against the golden vectors of kube-apiserver v1.26.1:
// every key of every vector is a declared field; the declared pointer/omitempty facts reproduce
// the server's JSON; the declared field numbers decode the server's protobuf to the same object;
// the defaults turn each request into the created object (minus what the server generates).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { field, listOf, struct, typeMetaFields } from '../../schema/dsl.js';
import type { KindVersion, KubeObject } from '../../schema/kind.js';
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import {
  decodeProto,
  goEncode,
  listDir,
  readBytes,
  readJson,
  unwrapEnvelope,
  walk,
  type Resolver,
} from '../../vectors.testutil.js';
import { Binding } from './binding.js';
import {
  admitNodeCreate,
  initServiceIPFamilies,
  mergeSecretStringData,
  prepareNamespaceForCreate,
  setDefaultsService,
} from './defaults-other.js';
import { coreV1Kinds } from './kinds.js';
import { NamespaceSpec } from './namespace.js';

const byKind = new Map(coreV1Kinds.map((k) => [k.kind, k]));
const kind = (name: string): KindVersion => {
  const k = byKind.get(name);
  if (!k) throw new Error(`no kind ${name}`);
  return k;
};
const resolve: Resolver = (apiVersion, k) => (apiVersion === 'v1' ? byKind.get(k)?.type : undefined);
const clone = <T>(v: T): T => structuredClone(v);

const KINDS = ['Namespace', 'Node', 'Event', 'ConfigMap', 'Endpoints', 'Service', 'ServiceAccount', 'Secret'];
const VARIANTS = ['request.json', 'created.json', 'pb.json', 'minimal.request.json', 'minimal.created.json'];

test('every key of every core/v1 vector is a declared field of the right JSON type', () => {
  let structs = 0;
  for (const name of KINDS) {
    for (const variant of VARIANTS) {
      const r = walk(kind(name).type, readJson('objects', `${name}.${variant}`), resolve, `${name}.${variant}`);
      assert.deepEqual(r.problems, [], `${name}.${variant}`);
      structs += r.structs;
    }
  }
  const terminating = walk(kind('Namespace').type, readJson('errors', 'terminating-namespace.json'), resolve);
  assert.deepEqual(terminating.problems, []);
  assert.ok(structs > 150, `walked only ${structs} structs`);
});

test('the walker reports undeclared keys and wrong JSON types (it can fail)', () => {
  const svc = readJson('objects', 'Service.created.json') as { spec: { ports: Array<Record<string, unknown>> } };
  svc.spec.ports[0]!.bogus = 1;
  svc.spec.ports[1]!.port = '80';
  const r = walk(kind('Service').type, svc, resolve);
  assert.deepEqual(r.problems, [
    '$.spec.ports[0].bogus: not a field of io.k8s.api.core.v1.ServicePort',
    '$.spec.ports[1].port: expected an integer (int32), got "80"',
  ]);
});

test("the declared pointer/omitempty facts reproduce the server's JSON exactly (created, pb.json)", () => {
  for (const name of KINDS) {
    for (const variant of ['created.json', 'pb.json', 'minimal.created.json']) {
      const body = readJson('objects', `${name}.${variant}`);
      assert.deepEqual(goEncode(kind(name).type, body), body, `${name}.${variant}`);
    }
  }
  // Some zero values Go writes: a minimal Node and Event show them.
  const node = goEncode(kind('Node').type, { metadata: { name: 'n' } }) as { status: Record<string, unknown> };
  assert.deepEqual(node.status.daemonEndpoints, { kubeletEndpoint: { Port: 0 } });
  const event = goEncode(kind('Event').type, {});
  assert.equal(event.eventTime, null);
  assert.equal(event.reportingComponent, '');
  assert.deepEqual(event.source, {});
});

test("the declared field numbers decode the server's protobuf to the same object as its JSON", () => {
  for (const name of KINDS) {
    const env = unwrapEnvelope(readBytes('objects', `${name}.pb`));
    assert.deepEqual([env.apiVersion, env.kind], ['v1', name]);
    const problems: string[] = [];
    const decoded = decodeProto(kind(name).type, env.raw, problems, name);
    assert.deepEqual(problems, [], name);
    const json = readJson('objects', `${name}.pb.json`);
    assert.deepEqual(goEncode(kind(name).type, { kind: env.kind, apiVersion: env.apiVersion, ...decoded }), json, name);
  }
});

test('the protobuf check can fail: an undeclared field number is reported', () => {
  const NamespaceWithoutStatus = struct('test.kinds-other.NamespaceWithoutStatus', {
    ...typeMetaFields,
    metadata: field(ObjectMeta, 1),
    spec: field(NamespaceSpec, 2),
  });
  const problems: string[] = [];
  decodeProto(NamespaceWithoutStatus, unwrapEnvelope(readBytes('objects', 'Namespace.pb')).raw, problems);
  assert.deepEqual(problems, ['$: field number 3 is not declared in test.kinds-other.NamespaceWithoutStatus']);
});

/**
 * What kube-apiserver does to a POSTed object, as far as the schema layer knows it: defaulting
 * (KindVersion.defaults) and the create steps that are not defaulting in Kubernetes; the fields
 * the server generates (uid, timestamps, resourceVersion, managedFields, namespace from the URL,
 * allocated IPs and ports) are copied from the created object.
 */
function create(name: string, request: KubeObject, created: KubeObject): KubeObject {
  const obj = clone(request);
  const k = kind(name);
  if (name === 'Secret') mergeSecretStringData(obj); // decoding (v1 → internal conversion)
  k.defaults?.(obj);
  if (name === 'Namespace') prepareNamespaceForCreate(obj); // registry strategy
  if (name === 'Node') admitNodeCreate(obj); // TaintNodesByCondition admission
  if (name === 'Service') initServiceIPFamilies(obj, ['IPv4']); // IP allocator (families)
  copyGenerated(obj, created);
  return obj;
}

function copyGenerated(obj: KubeObject, created: KubeObject): void {
  const meta = obj.metadata as Record<string, unknown>;
  const cmeta = created.metadata as Record<string, unknown>;
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'namespace']) {
    if (cmeta[k] !== undefined) meta[k] = cmeta[k];
  }
  if (obj.kind === 'Service') {
    const spec = obj.spec as Record<string, unknown>;
    const cspec = created.spec as Record<string, unknown> & { ports?: Array<Record<string, unknown>> };
    for (const k of ['clusterIP', 'clusterIPs', 'healthCheckNodePort']) if (cspec[k] !== undefined) spec[k] = cspec[k];
    (spec.ports as Array<Record<string, unknown>>).forEach((p, i) => {
      const nodePort = cspec.ports?.[i]?.nodePort;
      if (nodePort !== undefined) p.nodePort = nodePort;
    });
  }
}

test('defaults turn every request into the created object (rich and minimal)', () => {
  for (const name of KINDS) {
    for (const prefix of ['', 'minimal.']) {
      const request = readJson('objects', `${name}.${prefix}request.json`);
      const created = readJson('objects', `${name}.${prefix}created.json`);
      const type = kind(name).type;
      assert.deepEqual(goEncode(type, create(name, request, created)), created, `${name}.${prefix}request.json`);
    }
  }
});

test('the defaulting check can fail: without SetDefaults_Service the minimal Service differs', () => {
  const request = readJson('objects', 'Service.minimal.request.json');
  const created = readJson('objects', 'Service.minimal.created.json');
  const obj = clone(request);
  initServiceIPFamilies(obj);
  copyGenerated(obj, created);
  assert.notDeepEqual(goEncode(kind('Service').type, obj), created);
});

test('SetDefaults_Service: ClientIP affinity timeout, externally accessible services, LoadBalancer', () => {
  const svc: KubeObject = {
    spec: { type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 443, targetPort: 'https' }] },
    status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }, { hostname: 'lb.example' }] } },
  };
  setDefaultsService(svc);
  assert.deepEqual(svc, {
    spec: {
      type: 'LoadBalancer',
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      ports: [{ port: 443, targetPort: 'https', protocol: 'TCP' }],
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
    },
    status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }, { hostname: 'lb.example' }] } },
  });
  const external: KubeObject = { spec: { type: 'ExternalName', externalName: 'db.example', sessionAffinityConfig: {} } };
  setDefaultsService(external);
  initServiceIPFamilies(external);
  assert.deepEqual(external, { spec: { type: 'ExternalName', externalName: 'db.example', sessionAffinity: 'None' } });
  const withExternalIPs: KubeObject = { spec: { externalIPs: ['203.0.113.1'], ports: [{ port: 80, targetPort: 0 }] } };
  setDefaultsService(withExternalIPs);
  const spec = withExternalIPs.spec as Record<string, unknown>;
  assert.equal(spec.externalTrafficPolicy, 'Cluster');
  assert.deepEqual(spec.ports, [{ port: 80, targetPort: 80, protocol: 'TCP' }]);
  const dual: KubeObject = { spec: { ipFamilies: ['IPv6', 'IPv4'] } };
  initServiceIPFamilies(dual, ['IPv4', 'IPv6']);
  assert.deepEqual(dual.spec, { ipFamilies: ['IPv6', 'IPv4'], ipFamilyPolicy: 'RequireDualStack' });
  const prefer: KubeObject = { spec: { ipFamilyPolicy: 'PreferDualStack' } };
  initServiceIPFamilies(prefer, ['IPv4', 'IPv6']);
  assert.deepEqual(prefer.spec, { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4', 'IPv6'] });
});

test('Node defaults: allocatable defaults to capacity; the not-ready taint is added once', () => {
  const node: KubeObject = { metadata: { name: 'n' }, status: { capacity: { cpu: '4', pods: '110' } } };
  kind('Node').defaults?.(node);
  assert.deepEqual((node.status as Record<string, unknown>).allocatable, { cpu: '4', pods: '110' });
  admitNodeCreate(node);
  admitNodeCreate(node);
  assert.deepEqual((node.spec as Record<string, unknown>).taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
});

test('kinds: names, scope, short names and categories as kube-apiserver discovery has them', () => {
  const rows = coreV1Kinds.map((k) => [k.resource, k.singular, (k.shortNames ?? []).join(','), (k.categories ?? []).join(','), k.namespaced, k.kind]);
  assert.deepEqual(rows, [
    ['pods', 'pod', 'po', 'all', true, 'Pod'],
    ['namespaces', 'namespace', 'ns', '', false, 'Namespace'],
    ['nodes', 'node', 'no', '', false, 'Node'],
    ['events', 'event', 'ev', '', true, 'Event'],
    ['configmaps', 'configmap', 'cm', '', true, 'ConfigMap'],
    ['endpoints', 'endpoints', 'ep', '', true, 'Endpoints'],
    ['services', 'service', 'svc', 'all', true, 'Service'],
    ['serviceaccounts', 'serviceaccount', 'sa', '', true, 'ServiceAccount'],
    ['secrets', 'secret', '', '', true, 'Secret'],
    ['replicationcontrollers', 'replicationcontroller', 'rc', 'all', true, 'ReplicationController'],
    ['podtemplates', 'podtemplate', '', '', true, 'PodTemplate'],
    ['resourcequotas', 'resourcequota', 'quota', '', true, 'ResourceQuota'],
    ['limitranges', 'limitrange', 'limits', '', true, 'LimitRange'],
    ['bindings', 'binding', '', '', true, 'Binding'],
    ['componentstatuses', 'componentstatus', 'cs', '', false, 'ComponentStatus'],
    ['persistentvolumes', 'persistentvolume', 'pv', '', false, 'PersistentVolume'],
    ['persistentvolumeclaims', 'persistentvolumeclaim', 'pvc', '', true, 'PersistentVolumeClaim'],
  ]);
  // The virtual kinds: a create-only one that acts on pods, a computed read-only one.
  assert.deepEqual(kind('Binding').actsOn, { resource: 'pods', subresource: 'binding' });
  assert.equal(kind('ComponentStatus').computed, true);
  for (const k of coreV1Kinds.filter((k) => k.storage)) {
    assert.deepEqual([k.group, k.version, k.storage], ['', 'v1', true], k.kind);
    assert.equal(k.type.name, `io.k8s.api.core.v1.${k.kind}`);
    assert.equal(k.list!.name, `io.k8s.api.core.v1.${k.kind}List`);
    assert.deepEqual(Object.keys(k.type.fields).slice(0, 3), ['kind', 'apiVersion', 'metadata'], k.kind);
    assert.deepEqual(Object.keys(k.list!.fields), ['kind', 'apiVersion', 'metadata', 'items'], k.kind);
    assert.equal(k.type.fields.metadata?.type, ObjectMeta);
    assert.equal(k.list!.fields.metadata?.type, ListMeta);
    assert.deepEqual(k.list!.fields.items?.type, listOf(k.type));
    assert.equal(k.list!.fields.items?.omitempty, false);
  }
  assert.deepEqual(kind('Pod').subresources, { status: true, binding: true, eviction: true, ephemeralcontainers: true, resize: true, log: true, proxy: true, exec: true, attach: true, portforward: true });
  assert.deepEqual(kind('Namespace').subresources, { status: true, finalize: true });
  assert.deepEqual(kind('Service').subresources, { status: true, proxy: true });
  assert.deepEqual(kind('Node').subresources, { status: true, proxy: true });
  assert.deepEqual(kind('ReplicationController').subresources, { status: true, scale: true });
  assert.deepEqual(kind('ResourceQuota').subresources, { status: true });
});

test('Binding carries the node as an ObjectReference', () => {
  const body = { kind: 'Binding', apiVersion: 'v1', metadata: { name: 'p', namespace: 'ns', creationTimestamp: null }, target: { kind: 'Node', name: 'n1' } };
  assert.deepEqual(walk(Binding, body).problems, []);
  assert.deepEqual(goEncode(Binding, body), body);
  assert.equal(Binding.fields.target.tag, 2);
});
