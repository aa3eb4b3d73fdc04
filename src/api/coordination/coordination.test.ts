// Lease against the v1.26.1 vectors: JSON keys, protobuf field numbers, no defaults.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undeclared } from '../vectors.testutil.js';
import { goNormalize, protoProblems, readVector, readVectorBytes, unwrapEnvelope } from '../round-trip.testutil.js';
import { coordinationKinds } from './kinds.js';
import { Lease } from './v1.js';

test('coordination.k8s.io/v1 Lease: every key of the vectors is declared, every protobuf field number too', () => {
  for (const f of ['request.json', 'created.json', 'pb.json', 'minimal.request.json', 'minimal.created.json'])
    assert.deepEqual(undeclared(Lease, readVector(`Lease.${f}`)), [], f);
  assert.deepEqual(protoProblems(Lease, unwrapEnvelope(readVectorBytes('Lease.pb')), (s) => s.name.startsWith('io.k8s.api.coordination.')), []);
});

test('Lease has no defaults: the created spec is the request spec', () => {
  for (const v of ['', '.minimal']) {
    const request = readVector(`Lease${v}.request.json`);
    const created = readVector(`Lease${v}.created.json`);
    assert.deepEqual(goNormalize(Lease, request.spec ?? {}), goNormalize(Lease, created.spec));
    const [k] = coordinationKinds;
    assert.equal(k!.defaults, undefined);
  }
  assert.deepEqual(Object.keys(Lease.fields.spec.type.fields), [
    'holderIdentity', 'leaseDurationSeconds', 'acquireTime', 'renewTime', 'leaseTransitions', 'strategy', 'preferredHolder',
  ]);
  assert.equal(Lease.fields.spec.type.fields.renewTime.type.name, 'microTime');
});
