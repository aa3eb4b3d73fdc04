// Defaulting of the apps kinds: apps/v1's against the v1.26.1 vectors (a request defaulted here
// equals the spec the server returned), and the per-version differences.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertPodSpecAliases } from '../core/v1/defaults.js';
import { PodTemplateSpec } from '../core/v1/pod.js';
import { extensionsV1beta1Defaults } from '../extensions/defaults.js';
import type { StructType } from '../schema/dsl.js';
import type { KubeObject } from '../schema/kind.js';
import { KUBERNETES_1_26, KUBERNETES_1_34 } from '../features.js';
import { canonicalQuantities, goNormalize, readVector } from '../round-trip.testutil.js';
import { appsV1beta1Defaults, appsV1beta2Defaults, appsV1Defaults, type Defaulter } from './defaults.js';
import * as v1 from './v1.js';

type Obj = Record<string, any>;

const cases: Array<[string, Defaulter | undefined, StructType]> = [
  ['Deployment', appsV1Defaults.deployment, v1.Deployment],
  ['ReplicaSet', appsV1Defaults.replicaSet, v1.ReplicaSet],
  ['DaemonSet', appsV1Defaults.daemonSet, v1.DaemonSet],
  ['StatefulSet', appsV1Defaults.statefulSet, v1.StatefulSet],
  ['ControllerRevision', undefined, v1.ControllerRevision],
];

/** What v1.26.1's strategies drop on create (disabled feature gates), which is not defaulting. */
export function droppedBy126(kind: string, obj: Obj): void {
  // MinDomainsInPodTopologySpread and MatchLabelKeysInPodTopologySpread were off.
  for (const c of obj.spec?.template?.spec?.topologySpreadConstraints ?? []) {
    delete c.minDomains;
    delete c.matchLabelKeys;
  }
  // StatefulSetAutoDeletePVC, StatefulSetStartOrdinal and MaxUnavailableStatefulSet were off.
  if (kind !== 'StatefulSet') return;
  delete obj.spec.persistentVolumeClaimRetentionPolicy;
  delete obj.spec.ordinals;
  delete obj.spec.updateStrategy?.rollingUpdate?.maxUnavailable;
}

/** The parts of a created object that defaulting decides: spec without its pod template, and labels. */
function defaulted(type: StructType, obj: Obj): unknown {
  const n = goNormalize(type, obj) as Obj;
  const spec = { ...(n.spec ?? {}) };
  delete spec.template;
  return { labels: n.metadata?.labels, spec, data: n.data, revision: n.revision };
}

/**
 * The pod template as the server writes it after defaulting: the round trip through Kubernetes'
 * internal form also sets the serviceAccount alias and canonicalizes quantities (registry and
 * codec steps, emulated here with core/v1's helpers).
 */
function template(obj: Obj, written = false): unknown {
  const tpl = obj.spec?.template ?? {};
  if (written) convertPodSpecAliases(tpl.spec ?? {});
  return goNormalize(PodTemplateSpec, written ? canonicalQuantities(PodTemplateSpec, tpl) : tpl);
}

for (const [kind, defaults, type] of cases) {
  for (const variant of ['', '.minimal']) {
    test(`apps/v1 ${kind}${variant}: the request defaulted here equals the created object`, () => {
      const request = readVector(`${kind}${variant}.request.json`) as Obj;
      const created = readVector(`${kind}${variant}.created.json`) as Obj;
      defaults?.(request, KUBERNETES_1_26);
      droppedBy126(kind, request);
      assert.deepEqual(defaulted(type, request), defaulted(type, created));
    });
    if (kind !== 'ControllerRevision') {
      test(`apps/v1 ${kind}${variant}: the pod template is defaulted like the created one (core/v1 defaults)`, () => {
        const request = readVector(`${kind}${variant}.request.json`) as Obj;
        const created = readVector(`${kind}${variant}.created.json`) as Obj;
        defaults?.(request, KUBERNETES_1_26);
        droppedBy126(kind, request);
        assert.deepEqual(template(request, true), template(created));
      });
    }
  }
}

test('the comparison fails when a default is missing', () => {
  const request = readVector('Deployment.minimal.request.json') as Obj;
  const created = readVector('Deployment.minimal.created.json') as Obj;
  appsV1Defaults.deployment(request);
  delete request.spec.progressDeadlineSeconds;
  assert.notDeepEqual(defaulted(v1.Deployment, request), defaulted(v1.Deployment, created));
});

/** A minimal object of `kind` in `apiVersion` whose template has labels and no selector. */
function bare(apiVersion: string, kind: string): Obj {
  return {
    apiVersion,
    kind,
    metadata: { name: 'x' },
    spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

function run(d: Defaulter, apiVersion: string, kind: string, features = KUBERNETES_1_34): Obj {
  const obj = bare(apiVersion, kind);
  d(obj as KubeObject, features);
  return obj;
}

test('Deployment defaults differ per version', () => {
  const a = run(appsV1Defaults.deployment, 'apps/v1', 'Deployment').spec;
  const b2 = run(appsV1beta2Defaults.deployment, 'apps/v1beta2', 'Deployment').spec;
  const b1 = run(appsV1beta1Defaults.deployment, 'apps/v1beta1', 'Deployment').spec;
  const e = run(extensionsV1beta1Defaults.deployment, 'extensions/v1beta1', 'Deployment').spec;
  const pick = (s: Obj) => [s.replicas, s.strategy, s.revisionHistoryLimit, s.progressDeadlineSeconds, s.selector];
  const rolling = (u: unknown, s: unknown) => ({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: u, maxSurge: s } });
  assert.deepEqual(pick(a), [1, rolling('25%', '25%'), 10, 600, undefined]);
  assert.deepEqual(pick(b2), [1, rolling('25%', '25%'), 10, 600, undefined]);
  assert.deepEqual(pick(b1), [1, rolling('25%', '25%'), 2, 600, { matchLabels: { app: 'x' } }]);
  assert.deepEqual(pick(e), [1, rolling(1, 1), 2147483647, 2147483647, { matchLabels: { app: 'x' } }]);
  // Labels from the template only in the beta versions that default the selector.
  assert.equal(run(appsV1Defaults.deployment, 'apps/v1', 'Deployment').metadata.labels, undefined);
  assert.deepEqual(run(appsV1beta1Defaults.deployment, 'apps/v1beta1', 'Deployment').metadata.labels, { app: 'x' });
  // Recreate: no rollingUpdate, except that extensions/v1beta1 fills one that is set.
  for (const d of [appsV1Defaults.deployment, extensionsV1beta1Defaults.deployment]) {
    const obj = bare('x', 'Deployment');
    obj.spec.strategy = { type: 'Recreate' };
    d(obj as KubeObject);
    assert.deepEqual(obj.spec.strategy, { type: 'Recreate' });
  }
  const obj = bare('extensions/v1beta1', 'Deployment');
  obj.spec.strategy = { type: 'Recreate', rollingUpdate: {} };
  extensionsV1beta1Defaults.deployment(obj as KubeObject);
  assert.deepEqual(obj.spec.strategy, { type: 'Recreate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } });
  // Set values are kept, and an existing selector or labels are not replaced.
  const kept = bare('apps/v1beta1', 'Deployment');
  Object.assign(kept.spec, { replicas: 0, revisionHistoryLimit: 0, selector: { matchLabels: { own: 'y' } } });
  kept.metadata.labels = { mine: 'z' };
  appsV1beta1Defaults.deployment(kept as KubeObject);
  assert.deepEqual([kept.spec.replicas, kept.spec.revisionHistoryLimit, kept.spec.selector, kept.metadata.labels], [0, 0, { matchLabels: { own: 'y' } }, { mine: 'z' }]);
});

test('DaemonSet defaults differ per version', () => {
  const a = run(appsV1Defaults.daemonSet, 'apps/v1', 'DaemonSet').spec;
  const e = run(extensionsV1beta1Defaults.daemonSet, 'extensions/v1beta1', 'DaemonSet').spec;
  assert.deepEqual([a.updateStrategy, a.revisionHistoryLimit, a.selector], [
    { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    10,
    undefined,
  ]);
  assert.deepEqual([e.updateStrategy, e.revisionHistoryLimit, e.selector], [{ type: 'OnDelete' }, 10, { matchLabels: { app: 'x' } }]);
  const rolling = bare('extensions/v1beta1', 'DaemonSet');
  rolling.spec.updateStrategy = { type: 'RollingUpdate' };
  extensionsV1beta1Defaults.daemonSet(rolling as KubeObject);
  assert.deepEqual(rolling.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
});

test('StatefulSet defaults differ per version and follow the feature gates', () => {
  const a = run(appsV1Defaults.statefulSet, 'apps/v1', 'StatefulSet').spec;
  const b1 = run(appsV1beta1Defaults.statefulSet, 'apps/v1beta1', 'StatefulSet').spec;
  assert.deepEqual([a.replicas, a.podManagementPolicy, a.updateStrategy, a.revisionHistoryLimit, a.selector], [
    1, 'OrderedReady', { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, 10, undefined,
  ]);
  assert.deepEqual(a.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  assert.deepEqual([b1.replicas, b1.podManagementPolicy, b1.updateStrategy, b1.revisionHistoryLimit, b1.selector], [
    1, 'OrderedReady', { type: 'OnDelete' }, 10, { matchLabels: { app: 'x' } },
  ]);
  const old = run(appsV1Defaults.statefulSet, 'apps/v1', 'StatefulSet', KUBERNETES_1_26).spec;
  assert.equal(old.persistentVolumeClaimRetentionPolicy, undefined);
  const surge = run(appsV1Defaults.statefulSet, 'apps/v1', 'StatefulSet', { ...KUBERNETES_1_34, maxUnavailableStatefulSet: true }).spec;
  assert.deepEqual(surge.updateStrategy.rollingUpdate, { partition: 0, maxUnavailable: 1 });
  // A set policy keeps its values; a half-set one is completed.
  const half = bare('apps/v1', 'StatefulSet');
  half.spec.persistentVolumeClaimRetentionPolicy = { whenScaled: 'Delete' };
  appsV1Defaults.statefulSet(half as KubeObject);
  assert.deepEqual(half.spec.persistentVolumeClaimRetentionPolicy, { whenScaled: 'Delete', whenDeleted: 'Retain' });
});

test('StatefulSet volume claim templates get the claim defaults and their kind and apiVersion', () => {
  const obj = bare('apps/v1', 'StatefulSet');
  obj.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } }];
  appsV1Defaults.statefulSet(obj as KubeObject);
  const claim = obj.spec.volumeClaimTemplates[0];
  assert.deepEqual([claim.kind, claim.apiVersion, claim.spec.volumeMode, claim.status], ['PersistentVolumeClaim', 'v1', 'Filesystem', { phase: 'Pending' }]);
});

test('ReplicaSet defaults differ per version', () => {
  const a = run(appsV1Defaults.replicaSet, 'apps/v1', 'ReplicaSet');
  const e = run(extensionsV1beta1Defaults.replicaSet, 'extensions/v1beta1', 'ReplicaSet');
  assert.deepEqual([a.spec.replicas, a.spec.selector, a.metadata.labels], [1, undefined, undefined]);
  assert.deepEqual([e.spec.replicas, e.spec.selector, e.metadata.labels], [1, { matchLabels: { app: 'x' } }, { app: 'x' }]);
});

test('defaulting is idempotent', () => {
  for (const [d, kind] of [
    [appsV1Defaults.deployment, 'Deployment'],
    [appsV1beta1Defaults.statefulSet, 'StatefulSet'],
    [extensionsV1beta1Defaults.daemonSet, 'DaemonSet'],
  ] as const) {
    const once = run(d, 'x', kind);
    const twice = structuredClone(once);
    d(twice as KubeObject);
    assert.deepEqual(twice, once, kind);
  }
});
