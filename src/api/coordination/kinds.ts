// coordination.k8s.io/v1 Lease (no defaults, no subresources).
import type { KindVersion } from '../schema/kind.js';
import * as v1 from './v1.js';

export const coordinationKinds: readonly KindVersion[] = [
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', resource: 'leases', singular: 'lease', namespaced: true, type: v1.Lease, list: v1.LeaseList, storage: true },
];
