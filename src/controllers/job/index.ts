// The job controller's descriptor (see ../README.md).
import { newRateLimitingQueue } from '../../client/workqueue.js';
import type { ControllerDescriptor } from '../common/descriptor.js';
import { EVENTS_RULE, PODS_WRITE_RULE, rule } from '../common/rbac.js';
import { JobController } from './controller.js';

export const jobDescriptor: ControllerDescriptor = {
  name: 'job',
  aliases: ['job-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentJobSyncs',
  serviceAccount: 'job-controller',
  rules: [
    rule(['batch'], 'jobs', 'get list patch update watch'),
    rule(['batch'], 'jobs/status', 'update'),
    rule(['batch'], 'jobs/finalizers', 'update'),
    PODS_WRITE_RULE,
    EVENTS_RULE,
  ],
  ctor: (ctx) => new JobController(ctx, { queue: newRateLimitingQueue({ name: 'job' }), orphanQueue: newRateLimitingQueue({ name: 'job_orphan_pod' }) }),
};
