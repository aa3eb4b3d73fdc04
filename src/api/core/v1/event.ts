// core/v1 Event (the legacy event API; events.k8s.io/v1 is a different type). Field numbers are
// those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../../schema/dsl.js';
import { ObjectReference } from './references.js';

export const EventSource = struct('io.k8s.api.core.v1.EventSource', {
  component: field(t.string, 1),
  host: field(t.string, 2),
});

/** Present when the event stands for a series of occurrences. (Tag 3 was the removed `state`.) */
export const EventSeries = struct('io.k8s.api.core.v1.EventSeries', {
  count: field(t.int32, 1),
  lastObservedTime: field(t.microTime, 2),
});

export const Event = struct('io.k8s.api.core.v1.Event', {
  ...typeMetaFields,
  // `json:"metadata"` without omitempty (no difference on the wire: a struct is always written).
  metadata: field(ObjectMeta, 1, { omitempty: false, required: true }),
  involvedObject: field(ObjectReference, 2, { omitempty: false, required: true }),
  reason: field(t.string, 3),
  message: field(t.string, 4),
  source: field(EventSource, 5),
  firstTimestamp: field(t.time, 6),
  lastTimestamp: field(t.time, 7),
  count: field(t.int32, 8),
  type: field(t.string, 9),
  eventTime: field(t.microTime, 10),
  series: field(EventSeries, 11, { pointer: true }),
  action: field(t.string, 12),
  related: field(ObjectReference, 13, { pointer: true }),
  // Go field ReportingController; no omitempty, so "" is written.
  reportingComponent: field(t.string, 14, { omitempty: false }),
  reportingInstance: field(t.string, 15, { omitempty: false }),
});

export const EventList = struct('io.k8s.api.core.v1.EventList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Event), 2, { omitempty: false, required: true }),
});
