// apps StatefulSet: its strategy (./strategy.ts), columns, scale, and the beta
// versions' field label conversion (status.successful, which the registry does not compute).
import { META_FIELD_LABELS, type FieldLabelConversion } from '../../../../machinery/selectors/index.js';
import type { KindModule } from '../../../kind-module.js';
import { replicasScale } from '../../../replicas-scale.js';
import { statefulSetPrinter } from './printer.js';
import { statefulSetStrategy } from './strategy.js';

const betaFieldLabels = (version: string): FieldLabelConversion => ({
  labels: [...META_FIELD_LABELS, 'status.successful'],
  error: (l) => `field label not supported for apps${version}.StatefulSet: ${l}`,
});
const betaVersions: Readonly<Record<string, FieldLabelConversion>> = { v1beta1: betaFieldLabels('v1beta1'), v1beta2: betaFieldLabels('v1beta2') };

export const statefulSetModule: KindModule = {
  group: 'apps',
  kind: 'StatefulSet',
  strategy: statefulSetStrategy,
  printer: statefulSetPrinter,
  fieldLabels: ({ group, version }) => (group === 'apps' ? betaVersions[version] : undefined),
  subresources: { scale: replicasScale() },
};
