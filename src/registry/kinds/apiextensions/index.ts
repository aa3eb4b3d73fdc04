// The modules of the apiextensions.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { customResourceDefinitionModule } from './crd.js';

export const apiextensionsModules: readonly KindModule[] = [customResourceDefinitionModule];
