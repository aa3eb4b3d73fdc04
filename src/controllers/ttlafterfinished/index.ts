// The ttl-after-finished controller's entry for the controller manager.
import type { ControllerConstructor } from '../../client/types.js';
import { newRateLimitingQueue } from '../../client/workqueue.js';
import { TTLAfterFinishedController } from './controller.js';

export { TTLAfterFinishedController } from './controller.js';
export const newTTLAfterFinishedController: ControllerConstructor = (ctx) =>
  new TTLAfterFinishedController(ctx, { queue: newRateLimitingQueue({ name: 'ttl_jobs_to_delete' }) });
