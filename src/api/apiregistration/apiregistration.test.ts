// apiregistration.k8s.io/v1 APIService: the service port default and the protobuf field numbers
// (6 is retired; the priorities are 7 and 8), with a lossless round trip.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeMessage, encodeMessage } from '../../machinery/codec/protobuf.js';
import { canonicalize } from '../../machinery/codec/normalize.js';
import type { KubeObject } from '../schema/kind.js';
import { protoFields } from '../vectors.testutil.js';
import { defaultAPIService } from './kinds.js';
import { APIService } from './v1.js';

test('a service reference defaults to port 443; a local APIService keeps service null', () => {
  const remote: KubeObject = { spec: { service: { namespace: 'ns', name: 'svc' } } };
  defaultAPIService(remote);
  assert.deepEqual((remote.spec as KubeObject).service, { namespace: 'ns', name: 'svc', port: 443 });
  const local: KubeObject = { spec: { service: null, group: 'g', version: 'v1' } };
  defaultAPIService(local);
  assert.equal((local.spec as KubeObject).service, null);
  // service has no omitempty: a local APIService says `"service": null`, as Kubernetes writes it.
  const json = canonicalize<KubeObject & { spec: KubeObject }>({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.g' }, spec: { group: 'g', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1 } }, APIService);
  assert.equal(json.spec.service, null);
});

test('protobuf: APIService field numbers and a lossless round trip', () => {
  const svc = {
    metadata: { name: 'v1beta1.metrics.k8s.io', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: { service: { namespace: 'kube-system', name: 'metrics-server', port: 443 }, group: 'metrics.k8s.io', version: 'v1beta1', insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 100 },
    status: { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'ServiceNotServed', message: 'm' }] },
  };
  const bytes = encodeMessage(svc, APIService);
  const spec = protoFields(protoFields(bytes).get(2)![0]!.data as Uint8Array);
  assert.deepEqual([...spec.keys()].sort((a, b) => a - b), [1, 2, 3, 4, 7, 8]);
  assert.equal(spec.get(7)![0]!.data, 100n);
  assert.deepEqual(decodeMessage(bytes, APIService), svc);
});
