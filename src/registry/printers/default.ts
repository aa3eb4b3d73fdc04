// Kubernetes' default table, for kinds without columns of their own: the name and the creation time.
import { metadataOf } from '../../api/meta/object.js';
import { nameCell } from './format.js';
import { column, nameColumn, type TablePrinter } from './types.js';

export const defaultPrinter: TablePrinter = {
  columns: [nameColumn, column('Created At', 'date', 'When the object was created.')],
  cells: (o) => [nameCell(o), metadataOf(o).creationTimestamp ?? null],
};
