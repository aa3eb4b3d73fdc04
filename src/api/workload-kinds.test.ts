// The KindVersion entries of apps, extensions, batch and coordination.k8s.io: served versions,
// storage versions, names, discovery facts, subresources, conversion functions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appsKinds } from './apps/kinds.js';
import { batchKinds } from './batch/kinds.js';
import { coordinationKinds } from './coordination/kinds.js';
import { extensionsKinds } from './extensions/kinds.js';
import type { KindVersion } from './schema/kind.js';

const all: KindVersion[] = [...appsKinds, ...extensionsKinds, ...batchKinds, ...coordinationKinds];
const gv = (k: KindVersion) => `${k.group}/${k.version}`;

test('each kind is served in the versions of the design table, stored in the first', () => {
  const served: Record<string, string[]> = {
    Deployment: ['apps/v1', 'apps/v1beta2', 'apps/v1beta1', 'extensions/v1beta1'],
    ReplicaSet: ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'],
    DaemonSet: ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'],
    StatefulSet: ['apps/v1', 'apps/v1beta2', 'apps/v1beta1'],
    ControllerRevision: ['apps/v1', 'apps/v1beta2', 'apps/v1beta1'],
    Job: ['batch/v1'],
    CronJob: ['batch/v1', 'batch/v1beta1', 'batch/v2alpha1'],
    Lease: ['coordination.k8s.io/v1'],
  };
  assert.deepEqual(new Set(all.map((k) => k.kind)), new Set(Object.keys(served)));
  for (const [kind, versions] of Object.entries(served)) {
    const entries = all.filter((k) => k.kind === kind);
    assert.deepEqual(entries.map(gv).sort(), [...versions].sort(), kind);
    assert.deepEqual(entries.filter((k) => k.storage).map(gv), [versions[0]], `${kind} storage`);
  }
});

test('entries: struct names, lists, type meta first, conversions only on spokes', () => {
  const pkg: Record<string, string> = { apps: 'apps', extensions: 'extensions', batch: 'batch', 'coordination.k8s.io': 'coordination' };
  for (const k of all) {
    const at = `${gv(k)} ${k.kind}`;
    assert.equal(k.type.name, `io.k8s.api.${pkg[k.group]}.${k.version}.${k.kind}`, at);
    assert.equal(k.list!.name, `${k.type.name}List`, at);
    assert.deepEqual(Object.keys(k.type.fields).slice(0, 3), ['kind', 'apiVersion', 'metadata'], at);
    assert.deepEqual(Object.keys(k.list!.fields), ['kind', 'apiVersion', 'metadata', 'items'], at);
    const items = k.list!.fields.items!;
    assert.ok(items.type.kind === 'list' && items.type.of === k.type, at);
    assert.equal(k.namespaced, true, at);
    assert.equal(k.resource, `${k.kind.toLowerCase()}s`, at);
    assert.equal(k.singular, k.kind.toLowerCase(), at);
    if (k.storage) assert.ok(!k.toHub && !k.fromHub, at);
    else assert.ok(k.toHub && k.fromHub, at);
  }
});

test('discovery facts and subresources', () => {
  const facts = (k: KindVersion) => ({ shortNames: k.shortNames ?? [], categories: k.categories ?? [], subresources: k.subresources ?? {} });
  const expect: Record<string, ReturnType<typeof facts>> = {
    Deployment: { shortNames: ['deploy'], categories: ['all'], subresources: { status: true, scale: true } },
    ReplicaSet: { shortNames: ['rs'], categories: ['all'], subresources: { status: true, scale: true } },
    DaemonSet: { shortNames: ['ds'], categories: ['all'], subresources: { status: true } },
    StatefulSet: { shortNames: ['sts'], categories: ['all'], subresources: { status: true, scale: true } },
    ControllerRevision: { shortNames: [], categories: [], subresources: {} },
    Job: { shortNames: [], categories: ['all'], subresources: { status: true } },
    CronJob: { shortNames: ['cj'], categories: ['all'], subresources: { status: true } },
    Lease: { shortNames: [], categories: [], subresources: {} },
  };
  for (const k of all) {
    const e = structuredClone(expect[k.kind]!);
    // The rollback subresource: Deployment in apps/v1beta1 and extensions/v1beta1.
    if (k.kind === 'Deployment' && k.version === 'v1beta1') e.subresources = { ...e.subresources, rollback: true };
    // extensions/v1beta1 claims no short names or categories: apps has them, and kubectl would
    // call `deploy` ambiguous and list every object twice in `get all`.
    if (k.group === 'extensions') {
      e.shortNames = [];
      e.categories = [];
    }
    assert.deepEqual(facts(k), e, `${gv(k)} ${k.kind}`);
  }
});

test('defaults: every kind but ControllerRevision and Lease', () => {
  for (const k of all) assert.equal(typeof k.defaults === 'function', !['ControllerRevision', 'Lease'].includes(k.kind), `${gv(k)} ${k.kind}`);
});
