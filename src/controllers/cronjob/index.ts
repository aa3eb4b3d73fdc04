// The cronjob controller's entry for the controller manager.
import type { ControllerConstructor } from '../../client/types.js';
import { newRateLimitingQueue } from '../../client/workqueue.js';
import { CronJobController } from './controller.js';

export { CronJobController } from './controller.js';
export const newCronJobController: ControllerConstructor = (ctx) => new CronJobController(ctx, { queue: newRateLimitingQueue({ name: 'cronjob' }) });
