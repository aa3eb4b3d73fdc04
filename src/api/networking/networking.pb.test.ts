// networking.k8s.io/v1 on the protobuf wire: every kind round-trips through the codec, and the
// field numbers of generated.proto are where the bytes say (read back with the test's own wire
// reader; fields go out in number order, as Go's generated marshalers write them):
// IngressSpec.ingressClassName is 4 (after the older 1-3), IngressBackend.service is 4,
// IngressRule embeds IngressRuleValue at 2, ServiceBackendPort.number is a varint at 2.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeProtobuf, encodeProtobuf } from '../../machinery/codec/protobuf.js';
import { parseMessage, unwrapEnvelope } from '../round-trip.testutil.js';
import type { KubeObject } from '../schema/kind.js';
import { networkingKinds } from './kinds.js';

const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}), uid: '6b1f6a7c-58a3-4c5c-9f0b-2f6d1f2b8e11', resourceVersion: '7', generation: 1, creationTimestamp: '2026-11-22T02:34:38Z' });

const samples: Record<string, KubeObject> = {
  Ingress: {
    metadata: meta('web', 'ns'),
    spec: {
      ingressClassName: 'nginx',
      defaultBackend: { resource: { apiGroup: 'k8s.example.com', kind: 'Bucket', name: 'static' } },
      tls: [{ hosts: ['a.example.com'], secretName: 'tls' }],
      rules: [{ host: 'a.example.com', http: { paths: [{ path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { number: 8080 } } } }, { pathType: 'ImplementationSpecific', backend: { service: { name: 'web', port: { name: 'http' } } } }] } }, { host: '*.example.com' }],
    },
    status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ports: [{ port: 443, protocol: 'TCP', error: 'pending' }] }, { hostname: 'lb.example.com' }] } },
  },
  IngressClass: { metadata: meta('nginx'), spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p', scope: 'Namespace', namespace: 'ns' } } },
  NetworkPolicy: {
    metadata: meta('db', 'ns'),
    spec: {
      podSelector: { matchLabels: { role: 'db' } },
      ingress: [{ ports: [{ protocol: 'TCP', port: 6379 }, { protocol: 'UDP', port: 'dns' }], from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }, { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] }, podSelector: {} }] }],
      egress: [{ ports: [{ protocol: 'TCP', port: 32000, endPort: 32768 }], to: [{ ipBlock: { cidr: '10.0.0.0/24' } }] }],
      policyTypes: ['Ingress', 'Egress'],
    },
  },
  IPAddress: { metadata: meta('10.96.0.10'), spec: { parentRef: { resource: 'services', namespace: 'default', name: 'dns' } } },
  ServiceCIDR: { metadata: meta('kubernetes'), spec: { cidrs: ['10.96.0.0/12', 'fd00::/108'] }, status: { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1, lastTransitionTime: '2026-11-22T02:34:38Z', reason: 'Ready', message: 'ok' }] } },
};

test('every networking.k8s.io/v1 kind round-trips through protobuf', () => {
  for (const k of networkingKinds) {
    const obj = { apiVersion: 'networking.k8s.io/v1', kind: k.kind, ...samples[k.kind]! };
    const bytes = encodeProtobuf(obj, k.type, { apiVersion: 'networking.k8s.io/v1', kind: k.kind });
    const back = decodeProtobuf(bytes, k.type).object;
    assert.deepEqual(back, obj, k.kind);
  }
});

test('Ingress field numbers on the wire are those of generated.proto', () => {
  const k = networkingKinds.find((x) => x.kind === 'Ingress')!;
  const ingress = parseMessage(unwrapEnvelope(encodeProtobuf({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', ...samples.Ingress! }, k.type)));
  const spec = parseMessage(ingress.find((f) => f.tag === 2)!.bytes!);
  assert.deepEqual(spec.map((f) => f.tag), [1, 2, 3, 3, 4]);
  assert.equal(Buffer.from(spec[4]!.bytes!).toString(), 'nginx');
  const defaultBackend = parseMessage(spec[0]!.bytes!);
  assert.deepEqual(defaultBackend.map((f) => f.tag), [3]);
  const rule = parseMessage(spec[2]!.bytes!);
  assert.deepEqual(rule.map((f) => f.tag), [1, 2]);
  const http = parseMessage(parseMessage(rule[1]!.bytes!).find((f) => f.tag === 1)!.bytes!);
  const firstPath = parseMessage(http[0]!.bytes!);
  assert.deepEqual(firstPath.map((f) => f.tag), [1, 2, 3]);
  assert.equal(Buffer.from(firstPath[2]!.bytes!).toString(), 'Prefix');
  const service = parseMessage(parseMessage(firstPath[1]!.bytes!).find((f) => f.tag === 4)!.bytes!);
  const port = parseMessage(service.find((f) => f.tag === 2)!.bytes!);
  // ServiceBackendPort is not a pointer: Go writes both fields, the empty name too.
  assert.deepEqual(port.map((f) => [f.tag, f.wire]), [[1, 2], [2, 0]]);
  assert.equal(port[1]!.varint, 8080n);
  // A rule without http still writes its embedded (empty) IngressRuleValue.
  assert.deepEqual(parseMessage(spec[3]!.bytes!).map((f) => f.tag), [1, 2]);
});
