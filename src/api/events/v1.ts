// events.k8s.io/v1 (k8s.io/api/events/v1): Event, another served version of core/v1 Event (stored
// as core/v1; see ./conversion.ts). Field numbers are those of events/v1 generated.proto.
import { EventSource } from '../core/v1/event.js';
import { ObjectReference } from '../core/v1/references.js';
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.events.v1.';

export const EventSeries = struct(G + 'EventSeries', {
  count: field(t.int32, 1, { omitempty: false, required: true }),
  lastObservedTime: field(t.microTime, 2, { omitempty: false, required: true }),
});

export const Event = struct(G + 'Event', {
  ...typeMetaFields,
  // `json:"metadata"` and `json:"eventTime"` have no omitempty.
  metadata: field(ObjectMeta, 1, { omitempty: false }),
  eventTime: field(t.microTime, 2, { omitempty: false, required: true }),
  series: field(EventSeries, 3, { pointer: true }),
  reportingController: field(t.string, 4),
  reportingInstance: field(t.string, 5),
  action: field(t.string, 6),
  reason: field(t.string, 7),
  regarding: field(ObjectReference, 8),
  related: field(ObjectReference, 9, { pointer: true }),
  note: field(t.string, 10),
  type: field(t.string, 11),
  deprecatedSource: field(EventSource, 12),
  deprecatedFirstTimestamp: field(t.time, 13),
  deprecatedLastTimestamp: field(t.time, 14),
  deprecatedCount: field(t.int32, 15),
});

export const EventList = struct(G + 'EventList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Event), 2, { omitempty: false, required: true }),
});
