// The modules of the batch kinds.
import type { KindModule } from '../../kind-module.js';
import { cronJobModule } from './cronjob/index.js';
import { jobModule } from './job/index.js';

export const batchModules: readonly KindModule[] = [jobModule, cronJobModule];
