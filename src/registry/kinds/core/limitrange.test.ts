// core/v1 LimitRange: SetDefaults_LimitRangeItem, ValidateLimitRange with Kubernetes' paths and
// messages, and the `kubectl get limits` columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, kindOf, lines, strategyFor } from '../kinds.testutil.js';

const lr = (...limits: KubeObject[]): KubeObject => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits } });
const errorsOf = (...limits: KubeObject[]) => lines(create(lr(...limits)).errors);
/** %#v of a resource.Quantity as Kubernetes' messages print it. */
const q = (value: number, scale: number, s: string) => `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${s}", Format:"DecimalSI"}`;

test('Container items default the default limit to max and the default request to the default limit, else min', () => {
  const { obj, errors } = create(lr({ type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' } }, { type: 'Pod', max: { cpu: '4' } }));
  assert.deepEqual(lines(errors), []);
  const [container, pod] = (obj.spec as { limits: KubeObject[] }).limits;
  assert.deepEqual(container!.default, { cpu: '2' });
  assert.deepEqual(container!.defaultRequest, { cpu: '2', memory: '1Mi' });
  assert.equal(pod!.default, undefined);
});

test('valid ranges', () => {
  assert.deepEqual(errorsOf({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '500m' }, maxLimitRequestRatio: { cpu: '4' } }), []);
  assert.deepEqual(errorsOf({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }), []);
  assert.deepEqual(errorsOf({ type: 'example.com/thing', max: { 'example.com/foo': '1' } }), []);
});

test('invalid ranges: Kubernetes field paths and messages', () => {
  assert.deepEqual(errorsOf({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }), [
    // The LimitRange's defaults (default = max, defaultRequest = default) are validated too.
    `spec.limits[0].min[cpu]: Invalid value: ${q(2, 0, '2')}: min value 2 is greater than max value 1`,
    `spec.limits[0].defaultRequest[cpu]: Invalid value: ${q(1, 0, '1')}: min value 2 is greater than default request value 1`,
    `spec.limits[0].default[cpu]: Invalid value: ${q(2, 0, '2')}: min value 2 is greater than default value 1`,
  ]);
  assert.deepEqual(errorsOf({ type: 'Pod', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }), [
    "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
    "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'",
  ]);
  assert.deepEqual(errorsOf({ type: 'Container', max: { cpu: '1' } }, { type: 'Container', max: { cpu: '1' } }), ['spec.limits[1].type: Duplicate value: "Container"']);
  assert.deepEqual(errorsOf({ type: 'Widget' }), ['spec.limits[0].type: Invalid value: "Widget": must be a standard limit type or fully qualified']);
  assert.deepEqual(errorsOf({ type: 'PersistentVolumeClaim', max: { cpu: '1' } }), ['spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided']);
  assert.deepEqual(errorsOf({ type: 'Container', max: { storage: '1' } }), ['spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers', 'spec.limits[0].default[storage]: Invalid value: "storage": must be a standard resource for containers', 'spec.limits[0].defaultRequest[storage]: Invalid value: "storage": must be a standard resource for containers']);
  assert.deepEqual(errorsOf({ type: 'Pod', maxLimitRequestRatio: { cpu: '500m' } }), [`spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: ${q(500, -3, '500m')}: ratio 500m is less than 1`]);
  assert.deepEqual(errorsOf({ type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }), [
    `spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: ${q(3, 0, '3')}: ratio 3 is greater than max/min = 2.000000`,
  ]);
  assert.deepEqual(errorsOf({ type: 'Container', default: { 'example.com/gpu': '2' }, defaultRequest: { 'example.com/gpu': '1' } }), [
    `spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: ${q(1, 0, '1')}: default value 2 must equal to defaultRequest value 1 in example.com/gpu`,
  ]);
});

test('kubectl get limits: NAME and CREATED AT', () => {
  const printer = printerOf(kindOf(lr()));
  assert.deepEqual(printer.columns.map((c) => [c.name, c.type]), [['Name', 'string'], ['Created At', 'date']]);
  assert.deepEqual(printer.cells({ ...lr(), metadata: { name: 'l', creationTimestamp: '2026-01-01T00:00:00Z' } }, 0), ['l', '2026-01-01T00:00:00Z']);
});

test('a LimitRange sent without a name is named with a UUID; a PUT to a missing one creates it', () => {
  const { obj, errors } = create({ apiVersion: 'v1', kind: 'LimitRange', metadata: { generateName: 'x-' }, spec: { limits: [] } });
  assert.deepEqual(lines(errors), []);
  assert.match((obj.metadata as { name: string }).name, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(strategyFor('', 'limitranges').allowCreateOnUpdate, true);
});
