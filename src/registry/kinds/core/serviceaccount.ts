// ServiceAccount: ValidateServiceAccount is ObjectMeta only.
import type { ServiceAccount } from '../../../api/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

export const serviceAccountStrategy: ResourceStrategy<ServiceAccount> = {
  hasStatus: false,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  validate: () => [],
  validateUpdate: () => [],
};

const serviceAccountPrinter: TablePrinter = {
  columns: [nameColumn, column('Secrets', 'integer', 'Number of secrets listed for the service account.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), fmt.arr(o.secrets).length, fmt.ageCell(o, now)],
};

export const serviceAccountModule: KindModule = {
  group: '',
  kind: 'ServiceAccount',
  strategy: serviceAccountStrategy,
  printer: serviceAccountPrinter,
  subresources: { token: { type: 'token-request' } },
};
