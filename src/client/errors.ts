// ApiStatusError: what every client call throws for a non-2xx answer (the server's Status), and
// the predicates controllers use on it (client-go's apierrors.IsNotFound & co).
import type { ApiStatusError, KubeObject } from './types.js';

export class ClientStatusError extends Error implements ApiStatusError {
  readonly code: number;
  readonly reason: string;
  readonly status: KubeObject;

  constructor(status: KubeObject, fallbackCode = 500) {
    const code = typeof status.code === 'number' && status.code > 0 ? status.code : fallbackCode;
    const message = typeof status.message === 'string' && status.message !== '' ? status.message : `the server responded with status ${code}`;
    super(message);
    this.name = 'ApiStatusError';
    this.code = code;
    this.reason = typeof status.reason === 'string' && status.reason !== '' ? status.reason : reasonForCode(code);
    this.status = status;
  }

  /** A Status built from parts, as the API server would write it. */
  static of(code: number, reason: string, message: string, details?: KubeObject): ClientStatusError {
    const status: KubeObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason };
    if (details) status.details = details;
    status.code = code;
    return new ClientStatusError(status, code);
  }
}

/** The reason Kubernetes' client infers for a Status without one (apierrors.reasonForError). */
export function reasonForCode(code: number): string {
  switch (code) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 406: return 'NotAcceptable';
    case 409: return 'Conflict';
    case 410: return 'Expired';
    case 413: return 'RequestEntityTooLarge';
    case 415: return 'UnsupportedMediaType';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    case 500: return 'InternalError';
    case 503: return 'ServiceUnavailable';
    case 504: return 'Timeout';
    default: return '';
  }
}

export function isApiStatusError(e: unknown): e is ApiStatusError {
  return typeof e === 'object' && e !== null && typeof (e as ApiStatusError).code === 'number' && typeof (e as ApiStatusError).reason === 'string' && 'status' in e;
}

function hasReason(e: unknown, reason: string): boolean {
  return isApiStatusError(e) && e.reason === reason;
}

export const isNotFound = (e: unknown): boolean => hasReason(e, 'NotFound') || (isApiStatusError(e) && e.code === 404 && e.reason === '');
export const isAlreadyExists = (e: unknown): boolean => hasReason(e, 'AlreadyExists');
export const isConflict = (e: unknown): boolean => hasReason(e, 'Conflict');
export const isInvalid = (e: unknown): boolean => hasReason(e, 'Invalid');
export const isForbidden = (e: unknown): boolean => hasReason(e, 'Forbidden');
/** 410: Expired or Gone (a watch or continue token too old). */
export const isResourceExpired = (e: unknown): boolean => isApiStatusError(e) && (e.code === 410 || e.reason === 'Expired' || e.reason === 'Gone');
export const isTooManyRequests = (e: unknown): boolean => isApiStatusError(e) && (e.code === 429 || e.reason === 'TooManyRequests');

/**
 * Whether the Status names `cause` among its details' causes (apierrors.HasStatusCause). A
 * StatusCause's Go field is `Type`, but its JSON name is `reason`: that is what the wire carries.
 */
export function hasStatusCause(e: unknown, cause: string): boolean {
  if (!isApiStatusError(e)) return false;
  const causes = (e.status.details as { causes?: unknown } | undefined)?.causes;
  return Array.isArray(causes) && causes.some((c) => typeof c === 'object' && c !== null && (c as { reason?: unknown }).reason === cause);
}

/** The create was refused because its namespace is being deleted (NamespaceLifecycle admission). */
export const isNamespaceTerminating = (e: unknown): boolean => hasStatusCause(e, 'NamespaceTerminating');

/** The kind and group as Kubernetes' NotFound/AlreadyExists messages name them (`deployments.apps`). */
export function qualifiedResource(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

export function notFound(group: string, resource: string, name: string): ClientStatusError {
  return ClientStatusError.of(404, 'NotFound', `${qualifiedResource(group, resource)} "${name}" not found`, details(name, group, resource));
}

export function alreadyExists(group: string, resource: string, name: string): ClientStatusError {
  return ClientStatusError.of(409, 'AlreadyExists', `${qualifiedResource(group, resource)} "${name}" already exists`, details(name, group, resource));
}

export function conflict(group: string, resource: string, name: string, why: string): ClientStatusError {
  return ClientStatusError.of(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(group, resource)} "${name}": ${why}`, details(name, group, resource));
}

function details(name: string, group: string, kind: string): KubeObject {
  return group === '' ? { name, kind } : { name, group, kind };
}
