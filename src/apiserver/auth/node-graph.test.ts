import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CachedObject } from '../../storage/cacher/types.js';
import { NodeGraph } from './node-graph.js';
import { podReferences } from '../../machinery/pods/references.js';

const encoder = new TextEncoder();

function cached(pod: Record<string, unknown>, nodeName: string): CachedObject {
  const meta = pod.metadata as { name: string; namespace: string };
  return { key: `/registry/pods/${meta.namespace}/${meta.name}`, namespace: meta.namespace, name: meta.name, revision: 1, json: encoder.encode(JSON.stringify(pod)), labels: {}, fields: { 'spec.nodeName': nodeName } };
}

const pod = (name: string, volumes: unknown[], extra: Record<string, unknown> = {}) => ({ metadata: { name, namespace: 'ns' }, spec: { volumes, containers: [{ name: 'c' }], ...extra } });

test('podReferences: every place a pod names a secret, config map, claim or service account', () => {
  const r = podReferences({
    metadata: { name: 'p', namespace: 'ns' },
    spec: {
      serviceAccountName: 'sa',
      imagePullSecrets: [{ name: 'pull' }, { name: '' }],
      volumes: [
        { name: 's', secret: { secretName: 'vol' } },
        { name: 'proj', projected: { sources: [{ secret: { name: 'proj-s' } }, { configMap: { name: 'proj-c' } }, { serviceAccountToken: { path: 't' } }] } },
        { name: 'csi', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-s' } } },
        { name: 'az', azureFile: { secretName: 'az-s', shareName: 'x' } },
        { name: 'cm', configMap: { name: 'vol-c' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
        { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
      ],
      initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'init-s' } }] }],
      containers: [{ name: 'c', env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'env-c', key: 'k' } } }, { name: 'B', value: 'x' }], envFrom: [{ configMapRef: { name: 'from-c' } }] }],
      ephemeralContainers: [{ name: 'e', env: [{ name: 'C', valueFrom: { secretKeyRef: { name: 'eph-s', key: 'k' } } }] }],
    },
  });
  assert.deepEqual([...r.secrets].sort(), ['az-s', 'csi-s', 'eph-s', 'init-s', 'proj-s', 'pull', 'vol']);
  assert.deepEqual([...r.configMaps].sort(), ['env-c', 'from-c', 'proj-c', 'vol-c']);
  assert.deepEqual([...r.persistentVolumeClaims].sort(), ['data', 'p-scratch']);
  assert.equal(r.serviceAccount, 'sa');
});

test('NodeGraph: edges per node, counted per pod, added when bound and removed on delete', () => {
  const g = new NodeGraph();
  const a = pod('a', [{ name: 'v', secret: { secretName: 'shared' } }]);
  const b = pod('b', [{ name: 'v', secret: { secretName: 'shared' } }, { name: 'w', configMap: { name: 'only-b' } }]);
  g.applyCached('ADDED', cached(a, ''));
  assert.equal(g.related('n1', 'secrets', 'ns', 'shared'), false, 'not bound yet');
  g.applyCached('MODIFIED', cached(a, 'n1'));
  g.applyCached('ADDED', cached(b, 'n1'));
  assert.equal(g.related('n1', 'secrets', 'ns', 'shared'), true);
  assert.equal(g.related('n2', 'secrets', 'ns', 'shared'), false);
  assert.equal(g.related('n1', 'secrets', 'other', 'shared'), false, 'namespaced');
  g.applyCached('DELETED', cached(a, 'n1'));
  assert.equal(g.related('n1', 'secrets', 'ns', 'shared'), true, 'b still references it');
  g.applyCached('DELETED', cached(b, 'n1'));
  assert.equal(g.related('n1', 'secrets', 'ns', 'shared'), false);
  assert.equal(g.related('n1', 'configmaps', 'ns', 'only-b'), false);
  assert.equal(g.nodeOf('ns', 'b'), '');
});

test('NodeGraph: a status update of a bound pod does not parse it again', () => {
  const g = new NodeGraph();
  const a = pod('a', [{ name: 'v', secret: { secretName: 's' } }]);
  g.applyCached('ADDED', cached(a, 'n1'));
  const garbage: CachedObject = { ...cached(a, 'n1'), json: encoder.encode('not json') };
  g.applyCached('MODIFIED', garbage);
  assert.equal(g.related('n1', 'secrets', 'ns', 's'), true);
});
