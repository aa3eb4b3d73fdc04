// The job controller's entry for the controller manager.
import type { ControllerConstructor } from '../../client/types.js';
import { newRateLimitingQueue } from '../../client/workqueue.js';
import { JobController } from './controller.js';

export { JobController } from './controller.js';
export const newJobController: ControllerConstructor = (ctx) =>
  new JobController(ctx, { queue: newRateLimitingQueue({ name: 'job' }), orphanQueue: newRateLimitingQueue({ name: 'job_orphan_pod' }) });
