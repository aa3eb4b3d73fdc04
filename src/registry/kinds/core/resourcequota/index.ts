// ResourceQuota: pkg/registry/core/resourcequota/strategy.go (status reset on create, kept on
// spec updates; spec kept on status updates), its validation (./validation.ts) and the columns of
// `kubectl get quota` (printResourceQuota: each hard resource as `<name>: <used>/<hard>`, the
// `limits.*` ones in LIMIT, the others in REQUEST).
import { parseQuantity } from '../../../../api/meta/quantity.js';
import type { ResourceQuota } from '../../../../api/types.js';
import { cloneJson } from '../../../../machinery/clone.js';
import type { KindModule } from '../../../kind-module.js';
import * as fmt from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import { quantityString } from '../../../podspec/resource-names.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { validateResourceQuota, validateResourceQuotaStatusUpdate, validateResourceQuotaUpdate } from './validation.js';

export const resourceQuotaStrategy: ResourceStrategy<ResourceQuota> = {
  hasStatus: true,
  tracksGeneration: false,
  prepareForCreate(q) {
    q.status = {};
  },
  prepareForUpdate(q, old) {
    q.status = cloneJson(old.status ?? {});
  },
  validate: (q) => validateResourceQuota(q),
  validateUpdate: (q, old) => validateResourceQuotaUpdate(q, old),
  prepareForStatusUpdate(q, old) {
    q.spec = cloneJson(old.spec ?? {});
  },
  validateStatusUpdate: (q) => validateResourceQuotaStatusUpdate(q),
  warnings: (q, old) => (old === undefined ? requestAboveLimitWarnings(q) : []),
};

/**
 * WarningsOnCreate: a hard request above the hard limit of the same resource (cpu and memory
 * also by their bare names) can never be used in full.
 */
export function requestAboveLimitWarnings(q: ResourceQuota): string[] {
  const hard = q.spec?.hard ?? {};
  const out: string[] = [];
  for (const r of ['cpu', 'memory', 'storage', 'ephemeral-storage']) {
    let requestName = `requests.${r}`;
    if (!(requestName in hard) && (r === 'cpu' || r === 'memory') && r in hard) requestName = r;
    const request = parseQuantity(String(hard[requestName] ?? ''));
    const limit = parseQuantity(String(hard[`limits.${r}`] ?? ''));
    if (request && limit && request.cmp(limit) > 0) out.push(`ResourceQuota ${requestName} (${request}) should be less than limits.${r} (${limit})`);
  }
  return out;
}

/** The REQUEST and LIMIT cells of a quota: resources sorted by name, `used/hard` from status. */
export function quotaCells(status: unknown): { request: string; limit: string } {
  const hard = fmt.obj(fmt.obj(status).hard);
  const used = fmt.obj(fmt.obj(status).used);
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    const cell = `${name}: ${quantityString(used[name] ?? '0')}/${quantityString(hard[name])}`;
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

const resourceQuotaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells(o, now) {
    const { request, limit } = quotaCells(o.status);
    return [fmt.nameCell(o), fmt.ageCell(o, now), request, limit];
  },
};

export const resourceQuotaModule: KindModule = { group: '', kind: 'ResourceQuota', strategy: resourceQuotaStrategy, printer: resourceQuotaPrinter };
