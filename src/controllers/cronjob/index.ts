// The cronjob controller's descriptor (see ../README.md).
import { newRateLimitingQueue } from '../../client/workqueue.js';
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { CronJobController } from './controller.js';

export const cronJobDescriptor: ControllerDescriptor = {
  name: 'cronjob',
  aliases: ['cronjob-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentCronJobSyncs',
  serviceAccount: 'cronjob-controller',
  rules: [
    rule(['batch'], 'cronjobs', 'get list update watch'),
    rule(['batch'], 'jobs', 'create delete get list patch update watch'),
    rule(['batch'], 'cronjobs/status', 'update'),
    rule(['batch'], 'cronjobs/finalizers', 'update'),
    rule(CORE, 'pods', 'delete list watch'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new CronJobController(ctx, { queue: newRateLimitingQueue({ name: 'cronjob' }) }),
};
