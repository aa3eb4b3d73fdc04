// The names a CRD is accepted under, as Kubernetes' naming controller decides them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CRDNames, CustomResourceDefinition } from '../../registry/custom/index.js';
import { decideNames } from './naming.js';

function crd(name: string, names: CRDNames, accepted?: CRDNames): CustomResourceDefinition {
  return {
    metadata: { name },
    spec: { group: 'example.com', names, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true }] },
    status: accepted ? { acceptedNames: accepted } : {},
  };
}

const foos: CRDNames = { plural: 'foos', singular: 'foo', kind: 'Foo', listKind: 'FooList', shortNames: ['f'] };

test('fresh names are accepted', () => {
  const a = crd('foos.example.com', foos);
  const d = decideNames(a, [a]);
  assert.deepEqual(d.namesAccepted, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
  assert.deepEqual(d.names, foos);
});

test('a name another CRD of the group accepted is refused, keeping what was accepted before', () => {
  const owner = crd('foos.example.com', foos, foos);
  const plural = crd('foos2.example.com', { plural: 'foos', singular: 'foo2', kind: 'Foo2', listKind: 'Foo2List' });
  const d = decideNames(plural, [owner, plural]);
  assert.deepEqual(d.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"foos" is already in use' });
  assert.equal(d.names.plural, '');
  assert.equal(d.names.kind, 'Foo2');
  const kind = crd('bars.example.com', { plural: 'bars', singular: 'bar', kind: 'Foo', listKind: 'BarList', shortNames: ['f', 'b'] });
  const k = decideNames(kind, [owner, kind]);
  assert.equal(k.namesAccepted.reason, 'KindConflict');
  assert.equal(k.names.shortNames, undefined, 'short names in use are not accepted');
  const short = crd('bazs.example.com', { plural: 'bazs', singular: 'baz', kind: 'Baz', listKind: 'BazList', shortNames: ['f'] });
  assert.deepEqual(decideNames(short, [owner, short]).namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'ShortNamesConflict', message: '"f" is already in use' });
});

test('a CRD keeps the names it accepted itself', () => {
  const a = crd('foos.example.com', foos, foos);
  assert.equal(decideNames(a, [a]).namesAccepted.status, 'True');
});
