// The modules of the apps kinds (served in apps/v1, v1beta2, v1beta1 and extensions/v1beta1).
import type { KindModule } from '../../kind-module.js';
import { controllerRevisionModule } from './controllerrevision.js';
import { daemonSetModule } from './daemonset.js';
import { deploymentModule } from './deployment.js';
import { replicaSetModule } from './replicaset.js';
import { statefulSetModule } from './statefulset.js';

export const appsModules: readonly KindModule[] = [deploymentModule, replicaSetModule, daemonSetModule, statefulSetModule, controllerRevisionModule];
