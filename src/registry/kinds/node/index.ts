// The modules of the node.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { runtimeClassModule } from './runtimeclass.js';

export const nodeModules: readonly KindModule[] = [runtimeClassModule];
