// The modules of the coordination.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { leaseModule } from './lease.js';

export const coordinationModules: readonly KindModule[] = [leaseModule];
