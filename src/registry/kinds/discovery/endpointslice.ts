// discovery.k8s.io EndpointSlice: validation (./endpointslice-validation.ts), addressType immutable,
// generation 1 on create and +1 when anything but metadata (or the labels) changes, as
// pkg/registry/discovery/endpointslice's strategy counts it, and kubectl's columns. Hints for
// nodes (PreferSameTrafficDistribution, alpha and off in 1.33) are dropped, unless the object
// already had some.
import type { EndpointSlice } from '../../../api/types.js';
import { labelsOf } from '../../../api/meta/object.js';
import { semanticEqual, validateImmutableField } from '../../../machinery/validation/common.js';
import { metaOf } from '../../meta.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { validateEndpointSlice } from './endpointslice-validation.js';

function withoutMetadata(slice: EndpointSlice): Record<string, unknown> {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = slice;
  return rest;
}

const hasNodeHints = (slice: EndpointSlice): boolean => (slice.endpoints ?? []).some((e) => (e.hints?.forNodes ?? []).length > 0);

function dropNodeHints(slice: EndpointSlice): void {
  for (const e of slice.endpoints ?? []) if (e.hints) delete e.hints.forNodes;
}

export const endpointSliceStrategy: ResourceStrategy<EndpointSlice> = {
  hasStatus: false,
  tracksGeneration: false,
  prepareForCreate(slice) {
    metaOf(slice).generation = 1;
    dropNodeHints(slice);
  },
  prepareForUpdate(slice, old) {
    if (!hasNodeHints(old)) dropNodeHints(slice);
    if (!semanticEqual(withoutMetadata(slice), withoutMetadata(old)) || !semanticEqual(labelsOf(slice), labelsOf(old))) {
      const m = metaOf(slice);
      m.generation = (typeof old.metadata?.generation === 'number' ? old.metadata.generation : 0) + 1;
    }
  },
  validate: (slice) => validateEndpointSlice(slice),
  validateUpdate: (slice, old) => [...validateEndpointSlice(slice), ...validateImmutableField(slice.addressType, old.addressType, 'addressType')],
};

/** listWithMoreString: at most three items, then "+ N more...", "<unset>" for none. */
function listWithMore(items: string[]): string {
  const max = 3;
  const shown = items.slice(0, max).join(',');
  if (items.length > max) return `${shown} + ${items.length - max} more...`;
  return shown === '' ? '<unset>' : shown;
}

const endpointSlicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('AddressType', 'string', 'The type of the addresses of this slice.'),
    column('Ports', 'string', 'The ports the endpoints of this slice serve.'),
    column('Endpoints', 'string', 'The addresses of the endpoints of this slice.'),
    ageColumn,
  ],
  cells(o, now) {
    const ports = fmt.arr(o.ports).map((p) => (typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*'));
    const addresses = fmt.arr(o.endpoints).flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(String) : []));
    return [fmt.nameCell(o), fmt.str(o.addressType), listWithMore(ports), listWithMore(addresses), fmt.ageCell(o, now)];
  },
};

export const endpointSliceModule: KindModule = { group: 'discovery.k8s.io', kind: 'EndpointSlice', strategy: endpointSliceStrategy, printer: endpointSlicePrinter };
