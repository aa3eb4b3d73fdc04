// The Table of a custom resource: Name, then the version's additionalPrinterColumns (or Age when
// it has none), each cell the first value its JSONPath finds, typed as Kubernetes' CRD table
// convertor types it.
import { nameCell, since } from '../printers/format.js';
import { nameColumn, type ColumnDefinition, type TablePrinter } from '../printers/types.js';
import type { CRDColumn } from './crd.js';
import { findFirst } from './jsonpath.js';

const CREATION_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** A version without columns of its own shows its age (Kubernetes' serveDefaultColumnsIfEmpty). */
const DEFAULT_COLUMNS: readonly CRDColumn[] = [{ name: 'Age', type: 'date', description: CREATION_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' }];

export function customResourcePrinter(columns: readonly CRDColumn[] | undefined): TablePrinter {
  const shown = columns && columns.length > 0 ? columns : DEFAULT_COLUMNS;
  const definitions: ColumnDefinition[] = [
    nameColumn,
    ...shown.map((c) => ({ name: c.name, type: c.type as ColumnDefinition['type'], format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
  ];
  return {
    columns: definitions,
    cells: (o, now) => [nameCell(o), ...shown.map((c) => cell(c.type, findFirst(o, c.jsonPath), now))],
  };
}

/** Kubernetes' cellForJSONValue (strings print any value as JSONPath prints it). */
function cell(type: string, value: unknown, now: number): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'date':
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : since(value, now);
    default:
      return null;
  }
}
