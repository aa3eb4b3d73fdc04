// The modules of the discovery.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { endpointSliceModule } from './endpointslice.js';

export const discoveryModules: readonly KindModule[] = [endpointSliceModule];
