// What the Deployment controller's sync steps share (the controller's listers, clients, recorder
// and queue), so that sync, rolling, recreate, rollback and progress can live in files of their
// own as Kubernetes' do, while the controller alone owns informers and the queue.
import type { EventRecorder, Lister, ResourceClient, WorkQueue } from '../../client/types.js';

export const API_VERSION = 'apps/v1';
export const KIND = 'Deployment';

export interface SyncContext {
  readonly dClient: ResourceClient;
  readonly rsClient: ResourceClient;
  readonly rsLister: Lister;
  readonly podLister: Lister;
  readonly recorder: EventRecorder;
  /** The controller's queue: a stuck deployment is re-queued for its progress deadline. */
  readonly queue: WorkQueue<string>;
  now(): number;
  log(fields: Record<string, unknown>): void;
}
