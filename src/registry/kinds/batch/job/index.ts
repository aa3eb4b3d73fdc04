// batch Job: its strategy (./strategy.ts), columns, and selectable status.successful (the
// count of succeeded pods).
import { goQuote } from '../../../../machinery/patch/gofmt.js';
import { fieldAt, fieldLabelErrors, META_FIELD_LABELS, type FieldLabelConversion } from '../../../../machinery/selectors/index.js';
import type { KindModule } from '../../../kind-module.js';
import { jobPrinter } from './printer.js';
import { jobStrategy } from './strategy.js';

const v1: FieldLabelConversion = { labels: [...META_FIELD_LABELS, 'status.successful'], error: (l) => `field label ${goQuote(l)} not supported for batchv1.Job` };
/** batch/v1beta1 and batch/v2alpha1 register a conversion for Job as for CronJob. */
const beta: FieldLabelConversion = { labels: [...META_FIELD_LABELS, 'status.successful'], error: fieldLabelErrors.quotedForKind('Job') };

export const jobModule: KindModule = {
  group: 'batch',
  kind: 'Job',
  strategy: jobStrategy,
  printer: jobPrinter,
  selectableFields: { 'status.successful': fieldAt.int('status', 'succeeded') },
  fieldLabels: ({ group, version }) => (group !== 'batch' ? undefined : version === 'v1' ? v1 : version === 'v1beta1' || version === 'v2alpha1' ? beta : undefined),
};
