// RuntimeClass: defaults, ValidateRuntimeClass(Update) as Kubernetes words it, the printer and the
// protobuf facts (field numbers of node/v1 generated.proto).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import { RuntimeClassList } from '../../../api/node/v1.js';
import { create, lines, update } from '../kinds.testutil.js';
import { printerOf } from '../index.js';
import { declaredFieldNumbers, protobufRoundTrip } from '../protobuf.testutil.js';

const rc = (more: Record<string, unknown> = {}) => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc', ...more });
const errorsOf = (obj: Record<string, unknown>) => lines(create(obj).errors);

test('RuntimeClass defaults round the overhead up to milli precision', () => {
  assert.deepEqual(create(rc({ overhead: { podFixed: { cpu: '0.0001', memory: '1Gi' } } })).obj.overhead, { podFixed: { cpu: '1m', memory: '1Gi' } });
});

test('RuntimeClass validation: handler a DNS label, overhead quantities, scheduling labels and tolerations', () => {
  assert.deepEqual(errorsOf(rc()), []);
  assert.deepEqual(errorsOf(rc({ handler: 'Not_A_Label' })), [
    `handler: Invalid value: "Not_A_Label": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  assert.deepEqual(errorsOf(rc({ handler: '' })), [`handler: Invalid value: "": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`]);
  assert.deepEqual(errorsOf(rc({ overhead: { podFixed: { cpu: '-1' } } })), ['overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0']);
  assert.deepEqual(errorsOf(rc({ scheduling: { nodeSelector: { 'bad key!': 'v' }, tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] } })), [
    `scheduling.nodeSelector: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'scheduling.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
  ]);
});

test('RuntimeClass update: the handler is immutable', () => {
  const old = { ...rc(), metadata: { name: 'gvisor', uid: 'u', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' } };
  assert.deepEqual(lines(update({ ...old, overhead: { podFixed: { cpu: '1' } } }, old).errors), []);
  assert.deepEqual(lines(update({ ...old, handler: 'kata' }, old).errors), ['handler: Invalid value: "kata": field is immutable']);
});

test('RuntimeClass prints NAME HANDLER AGE', () => {
  const printer = printerOf(findResource('node.k8s.io', 'v1', 'runtimeclasses')!);
  assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Handler', 'Age']);
  assert.deepEqual(printer.cells({ ...rc(), metadata: { name: 'gvisor', creationTimestamp: '2026-01-01T00:00:00Z' } }, Date.parse('2026-01-01T02:00:00Z')), ['gvisor', 'runsc', '120m']);
});

test('RuntimeClass protobuf: generated.proto field numbers, lossless round trip', () => {
  assert.deepEqual(declaredFieldNumbers(RuntimeClassList, 'io.k8s.api.node.v1.'), [
    'Overhead podFixed 1', 'RuntimeClass handler 2', 'RuntimeClass metadata 1', 'RuntimeClass overhead 3', 'RuntimeClass scheduling 4',
    'RuntimeClassList items 2', 'RuntimeClassList metadata 1', 'Scheduling nodeSelector 1', 'Scheduling tolerations 2',
  ]);
  const obj = {
    apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor', uid: 'u1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' },
    handler: 'runsc', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Equal', value: 'gvisor', effect: 'NoExecute', tolerationSeconds: 30 }] },
  };
  assert.deepEqual(protobufRoundTrip(findResource('node.k8s.io', 'v1', 'runtimeclasses')!, obj), obj);
});
