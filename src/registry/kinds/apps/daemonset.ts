// apps DaemonSet: its strategy (./workload-strategies.ts) and columns.
import type { KindModule } from '../../kind-module.js';
import { daemonSetPrinter } from '../workload-printers.js';
import { daemonSetStrategy } from './workload-strategies.js';

export const daemonSetModule: KindModule = { group: 'apps', kind: 'DaemonSet', strategy: daemonSetStrategy, printer: daemonSetPrinter };
