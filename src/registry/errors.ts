// The API errors of the registry, worded exactly as kube-apiserver words them (clients and tests
// match on these messages). Resources are named `<resource>[.<group>]`, as Kubernetes' qualified
// resource names are.
import { StatusError, type StatusDetails } from '../machinery/status.js';
import { invalidStatus, type FieldError } from '../machinery/validation/field-errors.js';

export interface ResourceName {
  group: string;
  resource: string;
}

export function qualifiedResource(r: ResourceName): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}

const details = (r: ResourceName, name: string) => ({ name, group: r.group, kind: r.resource });

export const apiError = {
  notFound: (r: ResourceName, name: string) =>
    new StatusError(404, 'NotFound', `${qualifiedResource(r)} ${JSON.stringify(name)} not found`, { details: details(r, name) }),
  alreadyExists: (r: ResourceName, name: string) =>
    new StatusError(409, 'AlreadyExists', `${qualifiedResource(r)} ${JSON.stringify(name)} already exists`, { details: details(r, name) }),
  conflict: (r: ResourceName, name: string, why: string) =>
    new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(r)} ${JSON.stringify(name)}: ${why}`, { details: details(r, name) }),
  /** The optimistic-lock failure of an update with a stale resourceVersion. */
  modified: (r: ResourceName, name: string) =>
    apiError.conflict(r, name, 'the object has been modified; please apply your changes to the latest version and try again'),
  forbidden: (r: ResourceName, name: string, why: string, causes?: Array<{ reason: string; message: string; field: string }>) =>
    new StatusError(403, 'Forbidden', `${qualifiedResource(r)} ${JSON.stringify(name)} is forbidden: ${why}`, {
      details: { ...details(r, name), causes },
    }),
  invalid: (kind: string, group: string, name: string, errors: readonly FieldError[]) => {
    const status = invalidStatus(kind, group, name, errors) as { message: string; details: StatusDetails };
    return new StatusError(422, 'Invalid', status.message, { details: status.details });
  },
  badRequest: (message: string) => StatusError.badRequest(message),
  methodNotAllowed: () =>
    new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', { details: {} }),
  /** An unknown path, group, version or resource. */
  unknownResource: () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', { details: {} }),
  expired: (message: string) => new StatusError(410, 'Expired', message),
  timeout: (message: string, retryAfterSeconds?: number) =>
    new StatusError(504, 'Timeout', message, retryAfterSeconds ? { details: { retryAfterSeconds } } : {}),
  /**
   * A read or watch at a revision the watch cache did not reach in time (`message`: "Too large
   * resource version: X, current: Y"), as kube-apiserver's cacher reports it.
   */
  tooLargeResourceVersion: (message: string) =>
    new StatusError(504, 'Timeout', `Timeout: ${message}`, {
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    }),
  internal: (message: string) => StatusError.internal(message),
  serviceUnavailable: (message: string) => new StatusError(503, 'ServiceUnavailable', message),
};
