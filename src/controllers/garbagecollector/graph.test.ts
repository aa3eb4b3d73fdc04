import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../client/types.js';
import { GraphBuilder, identityKey } from './graph.js';

function recorder() {
  const del: string[] = [];
  const orphan: string[] = [];
  const g = new GraphBuilder({ attemptToDelete: (uid) => void del.push(uid), attemptToOrphan: (uid) => void orphan.push(uid) });
  return { g, del, orphan };
}

const o = (name: string, uid: string, extra: Record<string, unknown> = {}, ns = 'default'): KubeObject => ({ metadata: { name, uid, namespace: ns, ...extra } });
const ref = (kind: string, name: string, uid: string, more: Record<string, unknown> = {}) => ({ apiVersion: kind === 'ReplicaSet' ? 'apps/v1' : 'v1', kind, name, uid, ...more });

test('a dependent seen before its owner makes a virtual owner node, queued for verification; the owner observed later replaces it', () => {
  const { g, del } = recorder();
  g.observe('add', 'v1', 'Pod', o('p', 'p-uid', { ownerReferences: [ref('ReplicaSet', 'rs', 'rs-uid')] }));
  const virtual = g.uidToNode.get('rs-uid')!;
  assert.equal(virtual.observed, false);
  assert.deepEqual(del, ['rs-uid']);
  assert.ok(virtual.dependents.has(g.uidToNode.get('p-uid')!));
  g.observe('add', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  const real = g.uidToNode.get('rs-uid')!;
  assert.equal(real.observed, true);
  assert.equal(real.dependents.size, 1);
  assert.deepEqual(del, ['rs-uid'], 'the dependent agrees with the observed coordinates: nothing more to verify');
});

test('an observed owner whose coordinates disagree with a dependent sends the dependent to be verified', () => {
  const { g, del } = recorder();
  g.observe('add', 'v1', 'Pod', o('p', 'p-uid', { ownerReferences: [ref('ReplicaSet', 'wrong-name', 'rs-uid')] }));
  del.length = 0;
  g.observe('add', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  assert.deepEqual(del, ['p-uid']);
});

test('deleting an observed owner queues its dependents and remembers it as absent', () => {
  const { g, del } = recorder();
  g.observe('add', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  g.observe('add', 'v1', 'Pod', o('a', 'a-uid', { ownerReferences: [ref('ReplicaSet', 'rs', 'rs-uid')] }));
  g.observe('add', 'v1', 'Pod', o('b', 'b-uid', { ownerReferences: [ref('ReplicaSet', 'rs', 'rs-uid')] }));
  del.length = 0;
  g.observe('delete', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  assert.equal(g.uidToNode.has('rs-uid'), false);
  assert.deepEqual(del.sort(), ['a-uid', 'b-uid']);
  assert.ok(g.absentOwnerCache.has(identityKey({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', namespace: 'default' })));
});

test('an owner seen again under its uid (a snapshot restore) is no longer remembered as absent', () => {
  const { g } = recorder();
  const key = identityKey({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', namespace: 'default' });
  g.observe('add', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  g.observe('add', 'v1', 'Pod', o('a', 'a-uid', { ownerReferences: [ref('ReplicaSet', 'rs', 'rs-uid')] }));
  g.observe('delete', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  assert.ok(g.absentOwnerCache.has(key));
  g.observe('add', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  assert.equal(g.absentOwnerCache.has(key), false);
  assert.equal(g.uidToNode.get('rs-uid')?.observed, true);
});

test('foreground deletion starting: the owner is marked deletingDependents, its dependents and itself queued; orphan goes to the orphan queue', () => {
  const { g, del, orphan } = recorder();
  g.observe('add', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid'));
  g.observe('add', 'v1', 'Pod', o('a', 'a-uid', { ownerReferences: [ref('ReplicaSet', 'rs', 'rs-uid', { blockOwnerDeletion: true })] }));
  del.length = 0;
  const old = o('rs', 'rs-uid');
  g.observe('update', 'apps/v1', 'ReplicaSet', o('rs', 'rs-uid', { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] }), old);
  assert.equal(g.uidToNode.get('rs-uid')!.deletingDependents, true);
  assert.deepEqual(del, ['a-uid', 'rs-uid']);
  assert.equal(g.uidToNode.get('rs-uid')!.blockingDependents().length, 1);
  // a resync (same object) starts nothing again
  del.length = 0;
  const cur = o('rs', 'rs-uid', { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] });
  g.observe('update', 'apps/v1', 'ReplicaSet', cur, cur);
  assert.deepEqual(del, []);
  // the dependent dropping its blocking reference unblocks the owner
  g.observe('update', 'v1', 'Pod', o('a', 'a-uid', { ownerReferences: [] }), o('a', 'a-uid', { ownerReferences: [ref('ReplicaSet', 'rs', 'rs-uid', { blockOwnerDeletion: true })] }));
  assert.deepEqual(del, ['rs-uid']);
  assert.equal(g.uidToNode.get('rs-uid')!.dependents.size, 0);
  // orphan
  g.observe('add', 'v1', 'ConfigMap', o('c', 'c-uid', { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['orphan'] }));
  assert.deepEqual(orphan, ['c-uid']);
});

test('a verified absence of a virtual owner that dependents name differently keeps it under the other coordinates', () => {
  const { g, del } = recorder();
  g.observe('add', 'v1', 'Pod', o('a', 'a-uid', { ownerReferences: [ref('ConfigMap', 'x', 'x-uid')] }));
  g.observe('add', 'v1', 'Pod', o('b', 'b-uid', { ownerReferences: [ref('Secret', 'x', 'x-uid')] }));
  del.length = 0;
  const first = g.uidToNode.get('x-uid')!.identity;
  g.virtualDelete(first);
  const kept = g.uidToNode.get('x-uid');
  assert.ok(kept, 'kept');
  assert.notEqual(kept.identity.kind, first.kind);
  assert.ok(g.absentOwnerCache.has(identityKey(first)));
  // the dependent that named the absent coordinates is verified; the node is retried under the other
  assert.ok(del.includes(first.kind === 'ConfigMap' ? 'a-uid' : 'b-uid'));
  assert.ok(del.includes('x-uid'));
  // once the dependent of the first coordinates is gone and the others are verified absent too, the node goes
  const firstDep = first.kind === 'ConfigMap' ? o('a', 'a-uid', { ownerReferences: [ref('ConfigMap', 'x', 'x-uid')] }) : o('b', 'b-uid', { ownerReferences: [ref('Secret', 'x', 'x-uid')] });
  g.observe('delete', 'v1', 'Pod', firstDep);
  del.length = 0;
  g.virtualDelete(kept.identity);
  assert.equal(g.uidToNode.has('x-uid'), false);
  assert.deepEqual(del, [first.kind === 'ConfigMap' ? 'b-uid' : 'a-uid']);
});
