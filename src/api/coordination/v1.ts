// coordination.k8s.io/v1 (k8s.io/api/coordination/v1): Lease. Field numbers are those of
// coordination/v1 generated.proto. No server-side defaults.
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.coordination.v1.';

export const LeaseSpec = struct(G + 'LeaseSpec', {
  holderIdentity: field(t.string, 1, { pointer: true }),
  leaseDurationSeconds: field(t.int32, 2, { pointer: true }),
  acquireTime: field(t.microTime, 3, { pointer: true }),
  renewTime: field(t.microTime, 4, { pointer: true }),
  leaseTransitions: field(t.int32, 5, { pointer: true }),
  /** Coordinated leader election (CoordinatedLeaderElection feature gate). */
  strategy: field(t.string, 6, { pointer: true }),
  /** Coordinated leader election (CoordinatedLeaderElection feature gate). */
  preferredHolder: field(t.string, 7, { pointer: true }),
});

export const Lease = struct(G + 'Lease', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(LeaseSpec, 2),
});

export const LeaseList = struct(G + 'LeaseList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Lease), 2, { omitempty: false, required: true }),
});
