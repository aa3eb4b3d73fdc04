// The modules of the batch kinds.
import type { KindModule } from '../../kind-module.js';
import { cronJobModule } from './cronjob.js';
import { jobModule } from './job.js';

export const batchModules: readonly KindModule[] = [jobModule, cronJobModule];
