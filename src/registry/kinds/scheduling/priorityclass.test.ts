// PriorityClass: defaults, ValidatePriorityClass(Update) as Kubernetes words it, the printer and
// the protobuf facts (field numbers of scheduling/v1 generated.proto).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import { PriorityClass, PriorityClassList } from '../../../api/scheduling/v1.js';
import { create, lines, update } from '../kinds.testutil.js';
import { moduleOf, printerOf } from '../index.js';
import { declaredFieldNumbers, protobufRoundTrip } from '../protobuf.testutil.js';

const pc = (name: string, more: Record<string, unknown> = {}) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 1000, ...more });
const errorsOf = (obj: Record<string, unknown>) => lines(create(obj).errors);

test('PriorityClass defaults preemptionPolicy to PreemptLowerPriority', () => {
  assert.equal(create(pc('gold')).obj.preemptionPolicy, 'PreemptLowerPriority');
  assert.equal(create(pc('gold', { preemptionPolicy: 'Never' })).obj.preemptionPolicy, 'Never');
});

test('PriorityClass validation: system- names reserved, user values capped, preemption policy', () => {
  assert.deepEqual(errorsOf(pc('gold')), []);
  assert.deepEqual(errorsOf(pc('system-node-critical', { value: 2000001000 })), []);
  assert.deepEqual(errorsOf(pc('system-cluster-critical', { value: 2000000000 })), []);
  assert.deepEqual(errorsOf(pc('system-gold')), [`metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-gold is not a known system priority class`]);
  assert.deepEqual(errorsOf(pc('system-node-critical', { value: 5 })), [
    `metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000`,
  ]);
  assert.deepEqual(errorsOf(pc('system-cluster-critical', { value: 2000000000, globalDefault: true })), [
    `metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false`,
  ]);
  assert.deepEqual(errorsOf(pc('huge', { value: 1000000001 })), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
  assert.deepEqual(errorsOf(pc('gold', { preemptionPolicy: 'Sometimes' })), ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']);
  assert.deepEqual(errorsOf(pc('gold', { preemptionPolicy: '' })), ['preemptionPolicy: Required value']);
});

test('PriorityClass update: value and preemptionPolicy immutable, the rest may change', () => {
  const old = { ...create(pc('gold')).obj, metadata: { name: 'gold', uid: 'u', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' } };
  assert.deepEqual(lines(update({ ...old, description: 'shiny', globalDefault: true }, old).errors), []);
  assert.deepEqual(lines(update({ ...old, value: 5, preemptionPolicy: 'Never' }, old).errors), [
    'value: Forbidden: may not be changed in an update.',
    'preemptionPolicy: Invalid value: "Never": field is immutable',
  ]);
});

test('the system PriorityClasses cannot be deleted (the REST storage refuses before looking)', () => {
  const module = moduleOf(findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!);
  assert.equal(module.refuseDelete?.('system-node-critical'), 'this is a system priority class and cannot be deleted');
  assert.equal(module.refuseDelete?.('system-cluster-critical'), 'this is a system priority class and cannot be deleted');
  assert.equal(module.refuseDelete?.('system-gold'), undefined);
  assert.equal(module.refuseDelete?.('gold'), undefined);
});

test('PriorityClass prints NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', () => {
  const k = findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!;
  const printer = printerOf(k);
  assert.deepEqual(printer.columns.map((c) => [c.name, c.type]), [['Name', 'string'], ['Value', 'integer'], ['Global-Default', 'boolean'], ['Age', 'string'], ['PreemptionPolicy', 'string']]);
  const obj = { ...create(pc('gold', { globalDefault: true })).obj, metadata: { name: 'gold', creationTimestamp: '2026-01-01T00:00:00Z' } };
  assert.deepEqual(printer.cells(obj, Date.parse('2026-01-01T00:05:00Z')), ['gold', 1000, true, '5m', 'PreemptLowerPriority']);
});

test('PriorityClass protobuf: generated.proto field numbers, lossless round trip', () => {
  assert.deepEqual(declaredFieldNumbers(PriorityClassList, 'io.k8s.api.scheduling.v1.'), [
    'PriorityClass description 4', 'PriorityClass globalDefault 3', 'PriorityClass metadata 1', 'PriorityClass preemptionPolicy 5', 'PriorityClass value 2',
    'PriorityClassList items 2', 'PriorityClassList metadata 1',
  ]);
  const k = findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!;
  assert.equal(k.type, PriorityClass);
  const obj = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'gold', uid: 'u1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' }, value: -5, globalDefault: true, description: 'd', preemptionPolicy: 'Never' };
  assert.deepEqual(protobufRoundTrip(k, obj), obj);
});
