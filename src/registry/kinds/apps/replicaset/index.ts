// apps ReplicaSet: its strategy (./strategy.ts), columns, selectable status.replicas
// (no version has a field label conversion for it, as in Kubernetes), and scale.
import { fieldAt } from '../../../../machinery/selectors/index.js';
import type { KindModule } from '../../../kind-module.js';
import { replicasScale } from '../../../replicas-scale.js';
import { replicaSetPrinter } from './printer.js';
import { replicaSetStrategy } from './strategy.js';

export const replicaSetModule: KindModule = {
  group: 'apps',
  kind: 'ReplicaSet',
  strategy: replicaSetStrategy,
  printer: replicaSetPrinter,
  selectableFields: { 'status.replicas': fieldAt.int('status', 'replicas') },
  subresources: { scale: replicasScale() },
};
