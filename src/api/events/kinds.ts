// events.k8s.io/v1 Event: another served version of core/v1 events (one storage, core/v1's).
import type { KindVersion } from '../schema/kind.js';
import { eventsV1Conversion as c } from './conversion.js';
import * as v1 from './v1.js';

export const eventsKinds: readonly KindVersion[] = [
  { group: 'events.k8s.io', version: 'v1', kind: 'Event', resource: 'events', singular: 'event', shortNames: ['ev'], namespaced: true, type: v1.Event, list: v1.EventList, storage: false, toHub: c.toHub, fromHub: c.fromHub },
];
