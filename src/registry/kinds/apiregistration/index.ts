// The modules of the apiregistration.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { apiServiceModule } from './apiservice.js';

export const apiregistrationModules: readonly KindModule[] = [apiServiceModule];
