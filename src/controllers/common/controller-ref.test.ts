import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Store } from '../../client/cache.js';
import type { KubeObject } from '../../client/types.js';
import { claimCandidates } from './controller-ref.js';

const pod = (name: string, namespace: string, refs: Array<{ uid: string; controller?: boolean }> = []): KubeObject => ({
  metadata: { name, namespace, ownerReferences: refs.map((r) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: r.uid, ...r })) },
});

test('claimCandidates: the owner’s objects and the namespace’s orphans, not what other controllers own', () => {
  const store = new Store();
  for (const p of [
    pod('mine', 'ns', [{ uid: 'rs1', controller: true }]),
    pod('orphan', 'ns'),
    pod('orphan-with-ref', 'ns', [{ uid: 'rs1' }]),
    pod('other', 'ns', [{ uid: 'rs2', controller: true }]),
    pod('mine-elsewhere', 'other-ns', [{ uid: 'rs1', controller: true }]),
    pod('orphan-elsewhere', 'other-ns'),
  ])
    store.set(p);
  const names = (ns: string, uid: string) => claimCandidates(store, ns, uid).map((p) => (p.metadata as { name: string }).name).sort();
  assert.deepEqual(names('ns', 'rs1'), ['mine', 'orphan', 'orphan-with-ref']);
  assert.deepEqual(names('ns', 'rs2'), ['orphan', 'orphan-with-ref', 'other']);
  // Adopted: no longer an orphan.
  store.set(pod('orphan', 'ns', [{ uid: 'rs2', controller: true }]));
  assert.deepEqual(names('ns', 'rs1'), ['mine', 'orphan-with-ref']);
});
