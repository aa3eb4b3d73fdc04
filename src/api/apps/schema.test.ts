// The apps declarations (and extensions/v1beta1's, derived from them) against what a v1.26.1
// kube-apiserver wrote: every JSON key is declared, every protobuf field number is declared with a
// matching wire type, non-pointer fields are on the wire; and the version differences.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ext from '../extensions/v1beta1.js';
import { extensionsKinds } from '../extensions/kinds.js';
import type { StructType } from '../schema/dsl.js';
import {
  inVersion,
  protoProblems,
  readVector,
  readVectorBytes,
  unwrapEnvelope,
  versionsOf,
} from '../round-trip.testutil.js';
import { reachableStructs, undeclared } from '../vectors.testutil.js';
import { appsKinds } from './kinds.js';
import * as v1 from './v1.js';
import * as v1beta1 from './v1beta1.js';
import * as v1beta2 from './v1beta2.js';

const all = [...appsKinds, ...extensionsKinds];
const kinds = ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'ControllerRevision'] as const;
const files = ['request.json', 'created.json', 'pb.json', 'minimal.request.json', 'minimal.created.json'];
const mine = (s: StructType) => /^io\.k8s\.api\.(apps|extensions)\./.test(s.name);

test('apps/v1: every key of the vectors is a declared field', () => {
  for (const kind of kinds) {
    const type = versionsOf(appsKinds, 'apps', kind)[0]!.type;
    for (const f of files) assert.deepEqual(undeclared(type, readVector(`${kind}.${f}`)), [], `${kind}.${f}`);
  }
});

test('the walker fails on an undeclared key', () => {
  const obj = readVector('Deployment.request.json');
  (obj.spec as Record<string, unknown>).rollbackTo = { revision: 1 };
  assert.deepEqual(undeclared(v1.Deployment, obj), ['$.spec.rollbackTo: not a field of io.k8s.api.apps.v1.DeploymentSpec']);
  assert.deepEqual(undeclared(v1beta1.Deployment, { ...obj, apiVersion: 'apps/v1beta1' }), []);
});

test('every served version declares every key of the vectors read in it', () => {
  for (const kind of kinds) {
    for (const k of versionsOf(all, null, kind)) {
      for (const f of ['created.json', 'pb.json', 'minimal.created.json']) {
        const obj = inVersion(k, readVector(`${kind}.${f}`));
        assert.deepEqual(undeclared(k.type, obj), [], `${kind}.${f} in ${k.group}/${k.version}`);
      }
    }
  }
});

test('apps/v1 protobuf: field numbers, wire types and pointer facts match the recorded bytes', () => {
  for (const kind of kinds) {
    const type = versionsOf(appsKinds, 'apps', kind)[0]!.type;
    const message = unwrapEnvelope(readVectorBytes(`${kind}.pb`));
    assert.deepEqual(protoProblems(type, message, mine), [], kind);
  }
});

test('the protobuf walker fails on a wrong field number', () => {
  const message = unwrapEnvelope(readVectorBytes('Deployment.pb'));
  // A Deployment message read as a ControllerRevision: field 2 (spec) is not raw data, 3 not varint.
  assert.notDeepEqual(protoProblems(v1.ControllerRevision, message, mine), []);
});

test('each version has its own struct names and reaches no other version of apps or extensions', () => {
  const roots: Array<[string, StructType[]]> = [
    ['io.k8s.api.apps.v1.', [v1.Deployment, v1.DeploymentList, v1.ReplicaSetList, v1.DaemonSetList, v1.StatefulSetList, v1.ControllerRevisionList]],
    ['io.k8s.api.apps.v1beta2.', [v1beta2.DeploymentList, v1beta2.ReplicaSetList, v1beta2.DaemonSetList, v1beta2.StatefulSetList, v1beta2.ControllerRevisionList, v1beta2.Scale]],
    ['io.k8s.api.apps.v1beta1.', [v1beta1.DeploymentList, v1beta1.StatefulSetList, v1beta1.ControllerRevisionList, v1beta1.Scale, v1beta1.DeploymentRollback]],
    ['io.k8s.api.extensions.v1beta1.', [ext.DeploymentList, ext.ReplicaSetList, ext.DaemonSetList, ext.Scale, ext.DeploymentRollback]],
  ];
  for (const [prefix, structs] of roots) {
    const names = [...reachableStructs(...structs).keys()].filter((n) => /^io\.k8s\.api\.(apps|extensions)\./.test(n));
    assert.deepEqual(names.filter((n) => !n.startsWith(prefix)), [], prefix);
  }
  assert.equal(v1beta2.Deployment.fields.spec.type.name, 'io.k8s.api.apps.v1beta2.DeploymentSpec');
  assert.equal(v1beta2.StatefulSet.fields.spec.type.fields.template.type.name, 'io.k8s.api.core.v1.PodTemplateSpec');
});

/** A struct's fields as comparable facts (nested struct names without their package). */
function facts(s: StructType): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(s.fields)) {
    const { type, ...rest } = f;
    const elem = type.kind === 'list' || type.kind === 'map' ? type.of : type;
    const name = elem.kind === 'struct' ? elem.name.replace(/^.*\./, '') : elem.kind === 'scalar' ? elem.name : elem.kind;
    out[k] = { ...rest, kind: type.kind, elem: name };
  }
  return out;
}

test('apps/v1beta2 declares the same fields as apps/v1, struct by struct', () => {
  const ours = reachableStructs(v1.DeploymentList, v1.ReplicaSetList, v1.DaemonSetList, v1.StatefulSetList, v1.ControllerRevisionList);
  const theirs = reachableStructs(v1beta2.DeploymentList, v1beta2.ReplicaSetList, v1beta2.DaemonSetList, v1beta2.StatefulSetList, v1beta2.ControllerRevisionList);
  for (const [name, s] of ours) {
    if (!name.startsWith('io.k8s.api.apps.v1.')) continue;
    const other = theirs.get(name.replace('.v1.', '.v1beta2.'));
    assert.ok(other, name);
    assert.deepEqual(facts(other), facts(s), name);
  }
});

test('the beta versions: optional selectors, rollbackTo, templateGeneration, observedGeneration pointer', () => {
  // apps/v1: `json:"selector"`, required.
  for (const spec of [v1.DeploymentSpec, v1.ReplicaSetSpec, v1.DaemonSetSpec, v1.StatefulSetSpec]) {
    const sel = spec.fields.selector;
    assert.deepEqual([sel.pointer, sel.omitempty, sel.required], [true, false, true], spec.name);
  }
  // apps/v1beta1 and extensions/v1beta1: `json:"selector,omitempty"`, optional.
  for (const spec of [v1beta1.DeploymentSpec, v1beta1.StatefulSetSpec, ext.DeploymentSpec, ext.ReplicaSetSpec, ext.DaemonSetSpec]) {
    const sel = spec.fields.selector;
    assert.deepEqual([sel.pointer, sel.omitempty, sel.required ?? false], [true, true, false], spec.name);
  }
  for (const spec of [v1beta1.DeploymentSpec, ext.DeploymentSpec]) {
    assert.deepEqual(Object.keys(spec.fields), [
      'replicas', 'selector', 'template', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'rollbackTo', 'progressDeadlineSeconds',
    ]);
    assert.equal(spec.fields.rollbackTo.tag, 8);
    assert.equal(spec.fields.rollbackTo.pointer, true);
    assert.equal(spec.fields.strategy.patchStrategy, 'retainKeys');
  }
  assert.equal(v1beta1.DeploymentSpec.fields.rollbackTo.type.name, 'io.k8s.api.apps.v1beta1.RollbackConfig');
  assert.equal(ext.DeploymentSpec.fields.rollbackTo.type.name, 'io.k8s.api.extensions.v1beta1.RollbackConfig');
  assert.deepEqual(Object.keys(ext.DaemonSetSpec.fields), [
    'selector', 'template', 'updateStrategy', 'minReadySeconds', 'templateGeneration', 'revisionHistoryLimit',
  ]);
  assert.deepEqual([ext.DaemonSetSpec.fields.templateGeneration.tag, ext.DaemonSetSpec.fields.templateGeneration.type], [5, { kind: 'scalar', name: 'int64' }]);
  assert.equal('templateGeneration' in v1beta2.DaemonSet.fields.spec.type.fields, false);
  assert.equal('rollbackTo' in v1beta2.Deployment.fields.spec.type.fields, false);
  assert.equal(v1beta1.StatefulSetStatus.fields.observedGeneration.pointer, true);
  assert.equal(v1.StatefulSetStatus.fields.observedGeneration.pointer, false);
  assert.equal(v1beta2.StatefulSet.fields.status.type.fields.observedGeneration.pointer, false);
  for (const r of [v1beta1.DeploymentRollback, ext.DeploymentRollback]) {
    assert.deepEqual(Object.keys(r.fields), ['kind', 'apiVersion', 'name', 'updatedAnnotations', 'rollbackTo']);
    assert.deepEqual([r.fields.name.tag, r.fields.updatedAnnotations.tag, r.fields.rollbackTo.tag], [1, 2, 3]);
  }
  for (const s of [v1beta1.Scale, v1beta2.Scale, ext.Scale]) {
    const status = s.fields.status.type;
    assert.deepEqual(Object.keys(status.fields), ['replicas', 'selector', 'targetSelector']);
    assert.equal(status.fields.replicas.omitempty, false);
  }
});

test('list and patch metadata is consistent', () => {
  const structs = reachableStructs(...all.flatMap((k) => [k.type, k.list!]), v1beta1.Scale, v1beta2.Scale, ext.Scale, v1beta1.DeploymentRollback, ext.DeploymentRollback);
  for (const s of structs.values()) {
    if (!mine(s)) continue;
    for (const [k, f] of Object.entries(s.fields)) {
      const elem = f.type.kind === 'list' ? f.type.of : undefined;
      if (f.listType === 'map') {
        assert.equal(elem?.kind, 'struct', `${s.name}.${k}`);
        for (const key of f.listMapKeys ?? []) assert.ok(elem?.kind === 'struct' && key in elem.fields, `${s.name}.${k}`);
      }
      if (f.patchMergeKey) assert.ok(elem?.kind === 'struct' && f.patchMergeKey in elem.fields, `${s.name}.${k}`);
      if (f.required) assert.equal(f.omitempty, false, `${s.name}.${k}: required fields have no omitempty`);
    }
  }
});
