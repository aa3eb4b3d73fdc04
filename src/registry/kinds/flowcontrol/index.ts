// The modules of the flowcontrol.apiserver.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { flowSchemaModule } from './flowschema.js';
import { priorityLevelConfigurationModule } from './prioritylevelconfiguration.js';

export const flowcontrolModules: readonly KindModule[] = [flowSchemaModule, priorityLevelConfigurationModule];
