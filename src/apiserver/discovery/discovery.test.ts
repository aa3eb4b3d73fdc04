import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ListMeta, ObjectMeta } from '../../api/meta/v1.js';
import { field, listOf, struct, typeMetaFields } from '../../api/schema/dsl.js';
import type { KindVersion } from '../../api/schema/kind.js';
import { compareKubeVersions, Discovery, storageVersionHash } from './discovery.js';

const Obj = struct('test.discovery.Obj', { ...typeMetaFields, metadata: field(ObjectMeta, 1) });
const ObjList = struct('test.discovery.ObjList', { ...typeMetaFields, metadata: field(ListMeta, 1), items: field(listOf(Obj), 2) });
const base = { type: Obj, list: ObjList };
const kinds: KindVersion[] = [
  { ...base, group: '', version: 'v1', kind: 'Pod', resource: 'pods', singular: 'pod', shortNames: ['po'], categories: ['all'], namespaced: true, storage: true, subresources: { status: true, binding: true } },
  { ...base, group: '', version: 'v1', kind: 'Namespace', resource: 'namespaces', singular: 'namespace', shortNames: ['ns'], namespaced: false, storage: true, subresources: { status: true, finalize: true } },
  { ...base, group: 'apps', version: 'v1beta1', kind: 'Deployment', resource: 'deployments', singular: 'deployment', namespaced: true, storage: false, subresources: { rollback: true, scale: true } },
  { ...base, group: 'apps', version: 'v1', kind: 'Deployment', resource: 'deployments', singular: 'deployment', shortNames: ['deploy'], namespaced: true, storage: true, subresources: { status: true, scale: true } },
  { ...base, group: 'apps', version: 'v1beta2', kind: 'Deployment', resource: 'deployments', singular: 'deployment', namespaced: true, storage: false },
  { ...base, group: 'batch', version: 'v2alpha1', kind: 'CronJob', resource: 'cronjobs', singular: 'cronjob', namespaced: true, storage: false },
  { ...base, group: 'batch', version: 'v1beta1', kind: 'CronJob', resource: 'cronjobs', singular: 'cronjob', namespaced: true, storage: false },
  { ...base, group: 'batch', version: 'v1', kind: 'CronJob', resource: 'cronjobs', singular: 'cronjob', namespaced: true, storage: true },
];

test('version priority: GA, then beta, then alpha; higher numbers first', () => {
  assert.deepEqual(['v1beta1', 'v2alpha1', 'v1', 'v1beta2', 'v2'].sort(compareKubeVersions), ['v2', 'v1', 'v1beta2', 'v1beta1', 'v2alpha1']);
});

test('storageVersionHash matches kube-apiserver', () => {
  assert.equal(storageVersionHash('apps', 'v1', 'Deployment'), '8aSe+NMegvE=');
  assert.equal(storageVersionHash('', 'v1', 'Pod'), 'xPOwRZ+Yhw8=');
});

test('legacy discovery documents', () => {
  const d = new Discovery(kinds);
  const groups = JSON.parse(d.apiGroupList.toString());
  assert.equal(groups.kind, 'APIGroupList');
  assert.deepEqual(groups.groups.map((g: { name: string }) => g.name), ['apps', 'batch']);
  assert.deepEqual(groups.groups[0].versions.map((v: { version: string }) => v.version), ['v1', 'v1beta2', 'v1beta1']);
  assert.deepEqual(groups.groups[1].preferredVersion, { groupVersion: 'batch/v1', version: 'v1' });
  assert.deepEqual(JSON.parse(d.apiGroup('apps')!.toString()).preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
  assert.equal(d.apiGroup('nope'), undefined);
  assert.deepEqual(JSON.parse(d.apiVersions('127.0.0.1:6443').toString()), {
    kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }],
  });
  const core = JSON.parse(d.resourceList('', 'v1')!.toString());
  assert.equal(core.groupVersion, 'v1');
  assert.deepEqual(core.resources.map((r: { name: string }) => r.name), ['namespaces', 'namespaces/finalize', 'namespaces/status', 'pods', 'pods/binding', 'pods/status']);
  const pods = core.resources.find((r: { name: string }) => r.name === 'pods');
  assert.deepEqual(pods, {
    name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['po'], categories: ['all'], storageVersionHash: 'xPOwRZ+Yhw8=',
  });
  assert.ok(!core.resources.find((r: { name: string }) => r.name === 'namespaces').verbs.includes('deletecollection'));
  assert.deepEqual(core.resources.find((r: { name: string }) => r.name === 'pods/binding'), {
    name: 'pods/binding', singularName: '', namespaced: true, group: '', version: 'v1', kind: 'Binding', verbs: ['create'],
  });
  // An old version's resources hash to the storage version.
  const beta = JSON.parse(d.resourceList('apps', 'v1beta1')!.toString());
  assert.equal(beta.resources[0].storageVersionHash, '8aSe+NMegvE=');
  assert.deepEqual(beta.resources.map((r: { name: string }) => r.name), ['deployments', 'deployments/rollback', 'deployments/scale']);
  assert.equal(d.resourceList('apps', 'v9'), undefined);
});

test('aggregated discovery (apidiscovery.k8s.io/v2)', () => {
  const d = new Discovery(kinds);
  const core = JSON.parse(d.aggregatedCore.toString());
  assert.equal(core.kind, 'APIGroupDiscoveryList');
  assert.equal(core.apiVersion, 'apidiscovery.k8s.io/v2');
  assert.equal(core.items.length, 1);
  const pods = core.items[0].versions[0].resources.find((r: { resource: string }) => r.resource === 'pods');
  assert.deepEqual(pods.responseKind, { group: '', version: 'v1', kind: 'Pod' });
  assert.equal(pods.scope, 'Namespaced');
  assert.deepEqual(pods.subresources.map((s: { subresource: string }) => s.subresource), ['binding', 'status']);
  const groups = JSON.parse(d.aggregatedGroups.toString());
  assert.deepEqual(groups.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['apps', 'batch']);
  assert.deepEqual(groups.items[1].versions.map((v: { version: string }) => v.version), ['v1', 'v1beta1', 'v2alpha1']);
  const scale = groups.items[0].versions[0].resources[0].subresources.find((s: { subresource: string }) => s.subresource === 'scale');
  assert.deepEqual(scale, { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] });
  assert.equal(groups.items[0].versions[0].freshness, 'Current');
});
