// apiregistration.k8s.io APIService (kube-aggregator's apiservice strategy and ValidateAPIService).
// kubelite serves every group itself and proxies to no aggregated server: an APIService naming a
// Service is accepted but its Available condition says it is not served.
import type { APIService } from '../../../api/types.js';
import { isObj, obj, str, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName, isValidPortNum } from '../../../machinery/validation/names.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy, StrategyContext } from '../../strategy.js';

export function validateAPIService(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(svc.spec);
  const group = str(spec.group);
  const version = str(spec.version);
  const name = str(obj(svc.metadata).name);
  // The store checks the name as a path segment; it must also be exactly <version>.<group>.
  const required = `${version}.${group}`;
  if (isValidPathSegmentName(name).length === 0 && name !== required) errs.push(fieldError.invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`));
  if (group === '' && version !== 'v1') errs.push(fieldError.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const m of isDNS1123Subdomain(group)) errs.push(fieldError.invalid('spec.group', group, m));
  for (const m of isDNS1035Label(version)) errs.push(fieldError.invalid('spec.version', version, m));
  const groupPriority = typeof spec.groupPriorityMinimum === 'number' ? spec.groupPriorityMinimum : 0;
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(fieldError.invalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
  const versionPriority = typeof spec.versionPriority === 'number' ? spec.versionPriority : 0;
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(fieldError.invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
  const caBundle = str(spec.caBundle);
  const caBytes = caBundle === '' ? 0 : Buffer.from(caBundle, 'base64').length;
  if (!isObj(spec.service)) {
    if (caBytes !== 0) errs.push(fieldError.invalid('spec.caBundle', `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify === true) errs.push(fieldError.invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  const service = spec.service;
  if (str(service.namespace) === '') errs.push(fieldError.required('spec.service.namespace'));
  if (str(service.name) === '') errs.push(fieldError.required('spec.service.name'));
  const port = typeof service.port === 'number' ? service.port : 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(fieldError.invalid('spec.service.port', port, `port is not valid: ${portErrs.join(', ')}`));
  if (spec.insecureSkipTLSVerify === true && caBytes > 0) errs.push(fieldError.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errs;
}

export function validateAPIServiceStatus(svc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  fmt.arr(obj(svc.status).conditions).forEach((c, i) => {
    const status = str(c.status);
    if (status !== 'True' && status !== 'False' && status !== 'Unknown') errs.push(fieldError.notSupported(`status.conditions[${i}].status`, status, ['False', 'True', 'Unknown']));
    if (str(c.type) === '') errs.push(fieldError.required(`status.conditions[${i}].type`, 'type is required'));
  });
  return errs;
}

/**
 * The Available condition kubelite's APIServices carry, in place of kube-aggregator's availability
 * controller: a local one is served here (reason Local); one naming a Service is not, as kubelite
 * does not proxy to aggregated API servers.
 */
export function availability(svc: APIService, now: number): { type: string; status: string; lastTransitionTime: string; reason: string; message: string } {
  const lastTransitionTime = new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  if (!isObj(svc.spec?.service)) return { type: 'Available', status: 'True', lastTransitionTime, reason: 'Local', message: 'Local APIServices are always available' };
  return {
    type: 'Available',
    status: 'False',
    lastTransitionTime,
    reason: 'ServiceNotServed',
    message: 'kubelite does not proxy to aggregated API servers: only locally served group versions are available',
  };
}

function setAvailability(svc: APIService, ctx: StrategyContext): void {
  const wanted = availability(svc, ctx.now);
  const current = (svc.status?.conditions ?? []).find((c) => c?.type === 'Available');
  if (current && current.status === wanted.status && current.reason === wanted.reason) return;
  svc.status = { conditions: [...(svc.status?.conditions ?? []).filter((c) => c?.type !== 'Available'), wanted] };
}

export const apiServiceStrategy: ResourceStrategy<APIService> = {
  hasStatus: true,
  tracksGeneration: false,
  nameValidator: (name) => isValidPathSegmentName(name),
  prepareForCreate: setAvailability,
  prepareForUpdate: (svc, _old, ctx) => setAvailability(svc, ctx),
  validate: (svc) => validateAPIService(svc),
  validateUpdate: (svc) => validateAPIService(svc),
  validateStatusUpdate: (svc) => validateAPIServiceStatus(svc),
};

/** kubectl's columns (printAPIService): SERVICE is `Local` or namespace/name; AVAILABLE the condition (with its reason unless True). */
export const apiServicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const service = fmt.isObject(spec.service) ? `${fmt.str(spec.service.namespace)}/${fmt.str(spec.service.name)}` : 'Local';
    const cond = fmt.arr(fmt.obj(o.status).conditions).find((c) => c.type === 'Available');
    let available = 'Unknown';
    if (cond) available = cond.status === 'True' || fmt.str(cond.reason) === '' ? fmt.str(cond.status) : `${fmt.str(cond.status)} (${fmt.str(cond.reason)})`;
    return [fmt.nameCell(o), service, available, fmt.ageCell(o, now)];
  },
};

export const apiServiceModule: KindModule = { group: 'apiregistration.k8s.io', kind: 'APIService', strategy: apiServiceStrategy, printer: apiServicePrinter };
