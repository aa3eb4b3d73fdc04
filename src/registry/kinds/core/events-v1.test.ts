// events.k8s.io/v1 Event: the same stored objects as core/v1 Events, converted as Kubernetes
// converts them; the strict validation of writes through events.k8s.io/v1 (ValidateEventCreate /
// ValidateEventUpdate with that request version); its field labels; its protobuf facts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import type { KubeObject } from '../../../api/schema/kind.js';
import { EventList } from '../../../api/events/v1.js';
import { convertFieldLabel } from '../../../machinery/selectors/index.js';
import { fieldLabelsOf } from '../index.js';
import { ctxFor, lines, OBJECTS, readJSON } from '../kinds.testutil.js';
import { declaredFieldNumbers, protobufRoundTrip } from '../protobuf.testutil.js';
import { eventStrategy } from './event.js';

const eventsV1 = findResource('events.k8s.io', 'v1', 'events')!;
const coreV1 = findResource('', 'v1', 'events')!;
const STRICT = 'events.k8s.io/v1';

/** A rich core/v1 Event (every field set). */
const rich = (): KubeObject => ({ ...readJSON(`${OBJECTS}/Event.created.json`) });

test('core/v1 Event → events.k8s.io/v1 → core/v1 is the identity, field by field as Kubernetes names them', () => {
  const core = rich();
  const v1 = eventsV1.fromHub!(core);
  assert.equal(v1.apiVersion, 'events.k8s.io/v1');
  assert.deepEqual(v1.regarding, core.involvedObject);
  assert.equal(v1.note, core.message);
  assert.equal(v1.reportingController, core.reportingComponent);
  assert.equal(v1.reportingInstance, core.reportingInstance);
  assert.deepEqual(v1.deprecatedSource, core.source);
  assert.equal(v1.deprecatedFirstTimestamp, core.firstTimestamp);
  assert.equal(v1.deprecatedLastTimestamp, core.lastTimestamp);
  assert.equal(v1.deprecatedCount, core.count);
  for (const same of ['eventTime', 'series', 'action', 'reason', 'related', 'type', 'metadata']) assert.deepEqual(v1[same], core[same], same);
  for (const gone of ['involvedObject', 'message', 'reportingComponent', 'source', 'firstTimestamp', 'lastTimestamp', 'count']) assert.ok(!(gone in v1), gone);
  assert.deepEqual(eventsV1.toHub!(v1), core);
  assert.deepEqual(core, rich(), 'conversion leaves its input alone');
});

test('events.k8s.io/v1 Event → core/v1 → events.k8s.io/v1 is the identity', () => {
  const v1: KubeObject = {
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns' },
    eventTime: '2026-01-01T00:00:00.000001Z', series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' },
    reportingController: 'example.com/c', reportingInstance: 'c-1', action: 'Act', reason: 'Why',
    regarding: { kind: 'Pod', namespace: 'ns', name: 'p' }, related: { kind: 'Node', name: 'n' }, note: 'hello', type: 'Normal',
    deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null,
  };
  const core = eventsV1.toHub!(v1);
  assert.equal(core.apiVersion, 'v1');
  assert.deepEqual([core.message, core.reportingComponent, (core.involvedObject as KubeObject).name], ['hello', 'example.com/c', 'p']);
  assert.deepEqual(eventsV1.fromHub!(core), v1);
});

const strictErrors = (core: KubeObject) => lines(eventStrategy.validate(core, ctxFor(coreV1, STRICT)));
const v1Event = (more: KubeObject = {}): KubeObject =>
  eventsV1.toHub!({
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e.1', namespace: 'ns' },
    eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'example.com/c', reportingInstance: 'c-1', action: 'Act', reason: 'Why',
    regarding: { kind: 'Pod', namespace: 'ns', name: 'p' }, note: 'hello', type: 'Normal', ...more,
  });

test('writes through events.k8s.io/v1 get the strict validation, with core/v1 field paths', () => {
  assert.deepEqual(strictErrors(v1Event()), []);
  assert.deepEqual(strictErrors(v1Event({ eventTime: null, type: 'Info', deprecatedFirstTimestamp: '2026-01-01T00:00:00Z', deprecatedLastTimestamp: '2026-01-01T00:00:00Z', deprecatedCount: 3, deprecatedSource: { component: 'x' }, series: { count: 1 } })), [
    'series.count: Invalid value: "": should be at least 2',
    'series.lastObservedTime: Required value',
    'eventTime: Required value',
    'type: Invalid value: "": has invalid value: Info',
    'firstTimestamp: Invalid value: "": needs to be unset',
    'lastTimestamp: Invalid value: "": needs to be unset',
    'count: Invalid value: "": needs to be unset',
    'source: Invalid value: "": needs to be unset',
  ]);
  assert.deepEqual(strictErrors(v1Event({ reportingController: '', action: '', metadata: { name: 'Not_Valid', namespace: 'ns' } })), [
    'reportingController: Required value',
    'reportingController: Invalid value: "": name part must be non-empty',
    `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'action: Required value',
    `metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
  // The same object through core/v1 passes: no further validation for backwards compatibility.
  const legacy = v1Event({ type: 'Info', deprecatedCount: 3 });
  assert.deepEqual(lines(eventStrategy.validate(legacy, ctxFor(coreV1, 'v1'))), []);
});

test('updates through events.k8s.io/v1 may change only the series (and metadata)', () => {
  const old = v1Event();
  assert.deepEqual(lines(eventStrategy.validateUpdate(v1Event({ series: { count: 2, lastObservedTime: '2026-01-01T00:05:00.000000Z' } }), old, ctxFor(coreV1, STRICT))), []);
  assert.deepEqual(lines(eventStrategy.validateUpdate(v1Event({ note: 'changed', action: 'Other', type: 'Warning', reason: 'Other' }), old, ctxFor(coreV1, STRICT))), [
    'reason: Invalid value: "Other": field is immutable',
    'message: Invalid value: "changed": field is immutable',
    'reason: Invalid value: "Other": field is immutable',
    'type: Invalid value: "Warning": field is immutable',
    'action: Invalid value: "Other": field is immutable',
  ]);
  assert.deepEqual(
    lines(eventStrategy.validateUpdate(v1Event({ regarding: { kind: 'Pod', namespace: 'ns', name: 'q' }, eventTime: '2026-01-01T00:00:01.000500Z', related: { kind: 'Node', name: 'n' } }), old, ctxFor(coreV1, STRICT))),
    [
      'involvedObject: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"ns", Name:"q", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
      'eventTime: Invalid value: 2026-01-01 00:00:01.0005 +0000 UTC: field is immutable',
      'related: Invalid value: core.ObjectReference{Kind:"Node", Namespace:"", Name:"n", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
    ],
  );
  assert.deepEqual(lines(eventStrategy.validateUpdate(v1Event({ note: 'changed' }), old, ctxFor(coreV1, 'v1'))), [], 'core/v1 updates are free');
});

test('field selectors: events.k8s.io/v1 names map onto core/v1 selectable fields', () => {
  const labels = fieldLabelsOf(eventsV1);
  assert.deepEqual(convertFieldLabel(labels, 'regarding.name', 'p'), ['involvedObject.name', 'p']);
  assert.deepEqual(convertFieldLabel(labels, 'reportingController', 'c'), ['reportingComponent', 'c']);
  assert.deepEqual(convertFieldLabel(labels, 'type', 'Warning'), ['type', 'Warning']);
  assert.throws(() => convertFieldLabel(labels, 'involvedObject.name', 'p'), /^.*field label not supported: involvedObject.name$/);
  assert.deepEqual(convertFieldLabel(fieldLabelsOf(coreV1), 'involvedObject.name', 'p'), ['involvedObject.name', 'p']);
  assert.throws(() => convertFieldLabel(fieldLabelsOf(coreV1), 'regarding.name', 'p'), /field label not supported: regarding.name/);
});

test('events.k8s.io/v1 Event protobuf: generated.proto field numbers, lossless round trip', () => {
  assert.deepEqual(declaredFieldNumbers(EventList, 'io.k8s.api.events.v1.'), [
    'Event action 6', 'Event deprecatedCount 15', 'Event deprecatedFirstTimestamp 13', 'Event deprecatedLastTimestamp 14', 'Event deprecatedSource 12',
    'Event eventTime 2', 'Event metadata 1', 'Event note 10', 'Event reason 7', 'Event regarding 8', 'Event related 9',
    'Event reportingController 4', 'Event reportingInstance 5', 'Event series 3', 'Event type 11',
    'EventList items 2', 'EventList metadata 1', 'EventSeries count 1', 'EventSeries lastObservedTime 2',
  ]);
  const v1 = eventsV1.fromHub!(rich());
  assert.deepEqual(protobufRoundTrip(eventsV1, v1), v1);
});
