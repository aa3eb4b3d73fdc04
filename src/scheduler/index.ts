// The default scheduler as a library: `startScheduler({clientset, informers?, schedulerName?})`.
export { startScheduler, DEFAULT_SCHEDULER_NAME, type SchedulerOptions, type SchedulerHandle, type SchedulerStats } from './scheduler.js';
export { SchedulerCache } from './cache.js';
export { SchedulingQueue } from './queue.js';
export { schedulePod, fitErrorMessage, filter, preFilter, score, numFeasibleNodesToFind, type FilterStatus, type ScheduleResult } from './framework.js';
export { newPodInfo, podRequests, type PodInfo, type NodeInfo } from './model.js';
