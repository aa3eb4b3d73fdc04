// events.k8s.io/v1 Event ↔ core/v1 Event (its storage version): the same object under other
// names (pkg/apis/events/v1 conversion.go). Every other field (eventTime, series, action, reason,
// related, type, reportingInstance) has the same name and shape in both.
import { conversion } from '../conversion/hub-and-spoke.js';
import type { Obj } from '../go-json.js';

/** events.k8s.io/v1 name → core/v1 name. */
export const EVENT_FIELD_RENAMES: Readonly<Record<string, string>> = {
  regarding: 'involvedObject',
  note: 'message',
  reportingController: 'reportingComponent',
  deprecatedSource: 'source',
  deprecatedFirstTimestamp: 'firstTimestamp',
  deprecatedLastTimestamp: 'lastTimestamp',
  deprecatedCount: 'count',
};

function rename(obj: Obj, from: string, to: string): void {
  if (!(from in obj)) return;
  obj[to] = obj[from];
  delete obj[from];
}

export const eventsV1Conversion = conversion('v1', 'events.k8s.io/v1', {
  toHub(obj) {
    for (const [spoke, hub] of Object.entries(EVENT_FIELD_RENAMES)) rename(obj, spoke, hub);
  },
  fromHub(obj) {
    for (const [spoke, hub] of Object.entries(EVENT_FIELD_RENAMES)) rename(obj, hub, spoke);
  },
});
