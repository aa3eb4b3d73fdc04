// batch CronJob: its strategy (./strategy.ts), columns, and the beta versions' field label
// conversion (status.successful, which the registry does not compute).
import { fieldLabelErrors, META_FIELD_LABELS, type FieldLabelConversion } from '../../../../machinery/selectors/index.js';
import type { KindModule } from '../../../kind-module.js';
import { cronJobPrinter } from './printer.js';
import { cronJobStrategy } from './strategy.js';

const beta: FieldLabelConversion = { labels: [...META_FIELD_LABELS, 'status.successful'], error: fieldLabelErrors.quotedForKind('CronJob') };

export const cronJobModule: KindModule = {
  group: 'batch',
  kind: 'CronJob',
  strategy: cronJobStrategy,
  printer: cronJobPrinter,
  fieldLabels: ({ group, version }) => (group === 'batch' && (version === 'v1beta1' || version === 'v2alpha1') ? beta : undefined),
};
