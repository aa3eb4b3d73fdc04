// The modules of the core/v1 kinds (the registry's half of api/core/v1/kinds.ts).
import type { KindModule } from '../../kind-module.js';
import { componentStatusModule } from './componentstatus.js';
import { configMapModule } from './configmap.js';
import { endpointsModule } from './endpoints.js';
import { eventModule } from './event.js';
import { namespaceModule } from './namespace.js';
import { nodeModule } from './node.js';
import { persistentVolumeModule } from './persistent-volumes/persistentvolume.js';
import { persistentVolumeClaimModule } from './persistent-volumes/persistentvolumeclaim.js';
import { podModule } from './pod/index.js';
import { podTemplateModule } from './podtemplate.js';
import { limitRangeModule } from './limitrange.js';
import { resourceQuotaModule } from './resourcequota/index.js';
import { replicationControllerModule } from './replicationcontroller.js';
import { secretModule } from './secret.js';
import { serviceModule } from './service/index.js';
import { serviceAccountModule } from './serviceaccount.js';

export const coreModules: readonly KindModule[] = [
  podModule,
  namespaceModule,
  nodeModule,
  eventModule,
  configMapModule,
  endpointsModule,
  serviceModule,
  serviceAccountModule,
  secretModule,
  replicationControllerModule,
  podTemplateModule,
  resourceQuotaModule,
  limitRangeModule,
  componentStatusModule,
  persistentVolumeModule,
  persistentVolumeClaimModule,
];
