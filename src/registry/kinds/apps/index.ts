// The modules of the apps kinds (served in apps/v1, v1beta2, v1beta1 and extensions/v1beta1).
import type { KindModule } from '../../kind-module.js';
import { controllerRevisionModule } from './controllerrevision.js';
import { daemonSetModule } from './daemonset/index.js';
import { deploymentModule } from './deployment/index.js';
import { replicaSetModule } from './replicaset/index.js';
import { statefulSetModule } from './statefulset/index.js';

export const appsModules: readonly KindModule[] = [deploymentModule, replicaSetModule, daemonSetModule, statefulSetModule, controllerRevisionModule];
