// extensions/v1beta1's workload kinds (stored as apps/v1).
import { daemonSetNames, deploymentNames, replicaSetNames } from '../apps/kinds.js';
import type { KindVersion } from '../schema/kind.js';
import { extensionsV1beta1Conversion as c } from './conversion.js';
import { extensionsV1beta1Defaults as d } from './defaults.js';
import * as v1beta1 from './v1beta1.js';

// No short names or categories here: apps already claims `deploy`, `rs`, `ds` and `all`, and
// kubectl would otherwise warn that `deploy` is ambiguous and list each object twice in `get all`.
const GV = { group: 'extensions', version: 'v1beta1', storage: false, shortNames: [], categories: [] } as const;

export const extensionsKinds: readonly KindVersion[] = [
  { ...deploymentNames, ...GV, type: v1beta1.Deployment, list: v1beta1.DeploymentList, defaults: d.deployment, toHub: c.deployment.toHub, fromHub: c.deployment.fromHub, scaleKind: v1beta1.Scale, subresources: { status: true, scale: true, rollback: true } },
  { ...replicaSetNames, ...GV, type: v1beta1.ReplicaSet, list: v1beta1.ReplicaSetList, defaults: d.replicaSet, toHub: c.replicaSet.toHub, fromHub: c.replicaSet.fromHub, scaleKind: v1beta1.Scale, subresources: { status: true, scale: true } },
  { ...daemonSetNames, ...GV, type: v1beta1.DaemonSet, list: v1beta1.DaemonSetList, defaults: d.daemonSet, toHub: c.daemonSet.toHub, fromHub: c.daemonSet.fromHub, subresources: { status: true } },
];
