// apps DaemonSet: its strategy (./strategy.ts) and columns.
import type { KindModule } from '../../../kind-module.js';
import { daemonSetPrinter } from './printer.js';
import { daemonSetStrategy } from './strategy.js';

export const daemonSetModule: KindModule = { group: 'apps', kind: 'DaemonSet', strategy: daemonSetStrategy, printer: daemonSetPrinter };
