// The ttl-after-finished controller's descriptor (see ../README.md).
import { newRateLimitingQueue } from '../../client/workqueue.js';
import type { ControllerDescriptor } from '../common/descriptor.js';
import { EVENTS_RULE, rule } from '../common/rbac.js';
import { TTLAfterFinishedController } from './controller.js';

export const ttlAfterFinishedDescriptor: ControllerDescriptor = {
  name: 'ttl-after-finished',
  aliases: ['ttl-after-finished-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentTtlAfterFinishedSyncs',
  serviceAccount: 'ttl-after-finished-controller',
  rules: [rule(['batch'], 'jobs', 'delete get list watch'), EVENTS_RULE],
  ctor: (ctx) => new TTLAfterFinishedController(ctx, { queue: newRateLimitingQueue({ name: 'ttl_jobs_to_delete' }) }),
};
