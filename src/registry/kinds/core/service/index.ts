// Service: its strategy (./strategy.ts), its columns (./printer.ts), its selectable fields, and the
// allocation of cluster IPs and node ports its creates and updates need.
import { fieldAt, fieldLabelErrors, META_FIELD_LABELS } from '../../../../machinery/selectors/index.js';
import type { KindModule } from '../../../kind-module.js';
import { ServiceAllocator } from './allocator.js';
import { servicePrinter } from './printer.js';
import { serviceStrategy } from './strategy.js';

export const serviceModule: KindModule = {
  group: '',
  kind: 'Service',
  strategy: serviceStrategy,
  printer: servicePrinter,
  selectableFields: { 'spec.clusterIP': fieldAt.string('spec', 'clusterIP'), 'spec.type': fieldAt.string('spec', 'type') },
  fieldLabels: () => ({ labels: [...META_FIELD_LABELS, 'spec.clusterIP', 'spec.type'], error: fieldLabelErrors.notSupported }),
  allocator: (cache, storage) => new ServiceAllocator(cache, {}, storage),
};
