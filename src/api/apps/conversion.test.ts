// Conversion of the apps kinds (apps/v1 hub; apps/v1beta2, apps/v1beta1, extensions/v1beta1
// spokes): all-pairs round trips of the vectors, inputs never mutated, and the fields apps/v1
// keeps in annotations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extensionsV1beta1Conversion } from '../extensions/conversion.js';
import { extensionsKinds } from '../extensions/kinds.js';
import type { KubeObject } from '../schema/kind.js';
import { applyDefaults, deepFreeze, readVector, roundTripFailures, versionsOf } from '../round-trip.testutil.js';
import { appsV1beta1Conversion, appsV1beta2Conversion, DEPRECATED_ROLLBACK_TO, DEPRECATED_TEMPLATE_GENERATION } from './conversion.js';
import { appsKinds } from './kinds.js';

type Obj = Record<string, any>;

const all = [...appsKinds, ...extensionsKinds];
const kinds = ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'ControllerRevision'] as const;

/** The stored (apps/v1, defaulted) forms of a kind's vectors. */
function hubObjects(kind: string): Array<[string, KubeObject]> {
  const hub = versionsOf(all, null, kind)[0]!;
  const objects: Array<[string, KubeObject]> = ['created.json', 'pb.json', 'minimal.created.json'].map((f) => {
    const obj = readVector(`${kind}.${f}`);
    applyDefaults(hub, obj);
    return [`${kind}.${f}`, obj];
  });
  if (kind === 'Deployment') {
    // One being rolled back (the beta versions' spec.rollbackTo).
    const obj = structuredClone(objects[0]![1]) as Obj;
    obj.metadata.annotations[DEPRECATED_ROLLBACK_TO] = '3';
    objects.push(['Deployment.created.json + rollback annotation', obj]);
  }
  return objects;
}

for (const kind of kinds) {
  test(`${kind}: read in any version, converted through any other, reads the same`, () => {
    const versions = versionsOf(all, null, kind);
    assert.ok(versions.length >= 3, `${kind} is served in ${versions.length} versions`);
    for (const [label, obj] of hubObjects(kind)) assert.deepEqual(roundTripFailures(versions, obj, label), []);
  });
}

test('the round trip detects a lossy conversion', () => {
  const versions = versionsOf(all, null, 'Deployment');
  const lossy = versions.map((k) =>
    k.version === 'v1beta2' ? { ...k, toHub: (o: KubeObject) => ({ ...k.toHub!(o), spec: { ...(o.spec as Obj), paused: undefined } }) } : k,
  );
  const [, obj] = hubObjects('Deployment')[0]!;
  (obj.spec as Obj).paused = true;
  assert.notDeepEqual(roundTripFailures(lossy, obj, 'lossy'), []);
});

test('conversions do not mutate their input', () => {
  for (const kind of kinds) {
    for (const k of versionsOf(all, null, kind)) {
      if (!k.toHub || !k.fromHub) continue;
      for (const [, obj] of hubObjects(kind)) {
        const frozen = deepFreeze(structuredClone(obj));
        const spoke = k.fromHub(frozen);
        assert.deepEqual(frozen, obj);
        k.toHub(deepFreeze(spoke));
      }
    }
  }
});

function deployment(apiVersion: string, spec: Obj = {}, annotations?: Record<string, string>): Obj {
  return { apiVersion, kind: 'Deployment', metadata: { name: 'd', ...(annotations ? { annotations } : {}) }, spec };
}

test('Deployment rollbackTo (apps/v1beta1, extensions/v1beta1) is the rollback annotation in apps/v1', () => {
  for (const c of [appsV1beta1Conversion.deployment, extensionsV1beta1Conversion.deployment]) {
    const hub = c.toHub(deployment('x', { paused: true, rollbackTo: { revision: 3 } }, { keep: 'me' })) as Obj;
    assert.equal(hub.apiVersion, 'apps/v1');
    assert.deepEqual(hub.spec, { paused: true });
    assert.deepEqual(hub.metadata.annotations, { keep: 'me', [DEPRECATED_ROLLBACK_TO]: '3' });
    const back = c.fromHub(hub) as Obj;
    assert.deepEqual(back.spec, { paused: true, rollbackTo: { revision: 3 } });
    assert.deepEqual(back.metadata.annotations, { keep: 'me' });
    // Revision 0 (the last revision) is kept too: `rollbackTo: {}`.
    const zero = c.toHub(deployment('x', { rollbackTo: {} })) as Obj;
    assert.deepEqual(zero.metadata.annotations, { [DEPRECATED_ROLLBACK_TO]: '0' });
    assert.deepEqual((c.fromHub(zero) as Obj).spec, { rollbackTo: {} });
    // No rollbackTo: a stale annotation is dropped.
    const none = c.toHub(deployment('x', {}, { [DEPRECATED_ROLLBACK_TO]: '5' })) as Obj;
    assert.equal(none.metadata.annotations, undefined);
    assert.throws(() => c.fromHub(deployment('apps/v1', {}, { [DEPRECATED_ROLLBACK_TO]: 'five' })), /failed to parse/);
  }
  // apps/v1beta2 has no rollbackTo: the annotation stays as it is.
  const b2 = appsV1beta2Conversion.deployment.fromHub(deployment('apps/v1', {}, { [DEPRECATED_ROLLBACK_TO]: '2' })) as Obj;
  assert.deepEqual([b2.apiVersion, b2.spec, b2.metadata.annotations], ['apps/v1beta2', {}, { [DEPRECATED_ROLLBACK_TO]: '2' }]);
});

test('DaemonSet templateGeneration (extensions/v1beta1) is the template generation annotation in apps/v1', () => {
  const c = extensionsV1beta1Conversion.daemonSet;
  const ds = (apiVersion: string, spec: Obj, annotations?: Record<string, string>): Obj => ({
    apiVersion, kind: 'DaemonSet', metadata: { name: 'ds', ...(annotations ? { annotations } : {}) }, spec,
  });
  const hub = c.toHub(ds('extensions/v1beta1', { templateGeneration: 4, minReadySeconds: 1 })) as Obj;
  assert.deepEqual([hub.apiVersion, hub.spec, hub.metadata.annotations], ['apps/v1', { minReadySeconds: 1 }, { [DEPRECATED_TEMPLATE_GENERATION]: '4' }]);
  const back = c.fromHub(ds('apps/v1', {}, { [DEPRECATED_TEMPLATE_GENERATION]: '7', other: 'x' })) as Obj;
  assert.deepEqual([back.apiVersion, back.spec, back.metadata.annotations], ['extensions/v1beta1', { templateGeneration: 7 }, { other: 'x' }]);
  // Kubernetes' internal form always carries a generation: unset is written as 0.
  assert.deepEqual((c.toHub(ds('extensions/v1beta1', {})) as Obj).metadata.annotations, { [DEPRECATED_TEMPLATE_GENERATION]: '0' });
  // apps/v1beta2 keeps the annotation.
  const b2 = appsV1beta2Conversion.daemonSet.fromHub(ds('apps/v1', {}, { [DEPRECATED_TEMPLATE_GENERATION]: '2' })) as Obj;
  assert.deepEqual(b2.metadata.annotations, { [DEPRECATED_TEMPLATE_GENERATION]: '2' });
});

test('apps/v1beta1 StatefulSet status.observedGeneration is always written', () => {
  const c = appsV1beta1Conversion.statefulSet;
  const read = c.fromHub({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: {} }) as Obj;
  assert.deepEqual([read.apiVersion, read.status], ['apps/v1beta1', { observedGeneration: 0 }]);
  const kept = c.fromHub({ apiVersion: 'apps/v1', kind: 'StatefulSet', status: { observedGeneration: 4, replicas: 1 } }) as Obj;
  assert.deepEqual(kept.status, { observedGeneration: 4, replicas: 1 });
  const hub = c.toHub({ apiVersion: 'apps/v1beta1', kind: 'StatefulSet', status: { observedGeneration: null, replicas: 2 } }) as Obj;
  assert.deepEqual([hub.apiVersion, hub.status], ['apps/v1', { replicas: 2 }]);
});

test('writing through a beta version applies that version\'s defaults (selector and labels from the template)', () => {
  const [, stored] = hubObjects('Deployment').find(([l]) => l === 'Deployment.minimal.created.json')!;
  assert.equal((stored.metadata as Obj).labels, undefined);
  const b1 = versionsOf(all, 'apps', 'Deployment').find((k) => k.version === 'v1beta1')!;
  const written = b1.fromHub!(stored) as Obj;
  applyDefaults(b1, written);
  assert.deepEqual((b1.toHub!(written) as Obj).metadata.labels, { app: 'deployment-minimal' });
});
