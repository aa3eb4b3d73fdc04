// The modules of the scheduling.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { priorityClassModule } from './priorityclass.js';

export const schedulingModules: readonly KindModule[] = [priorityClassModule];
