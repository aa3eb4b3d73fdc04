// Splits a request path into the attributes Kubernetes routes and authorizes by (its
// RequestInfoFactory rules): API prefix, group, version, namespace, resource, name, subresource
// and the verb (get/list/watch/create/update/patch/delete/deletecollection).
import { parseFieldSelector } from '../../machinery/selectors/fields.js';
import { isValidPathSegmentName } from '../../machinery/validation/names.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'connect' | 'proxy';

export interface ResourceRequestInfo {
  isResourceRequest: true;
  /** 'api' (core group) or 'apis'. */
  apiPrefix: 'api' | 'apis';
  group: string;
  version: string;
  namespace: string;
  resource: string;
  name: string;
  subresource: string;
  /** Any path segments after the subresource (pod proxy paths). */
  rest: string[];
  verb: Verb;
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  path: string;
  /** Lower-case HTTP method, as RBAC's non-resource verbs (get, post, ...). */
  verb: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

/** Subresources of a namespace that look like a namespaced resource path but are not. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * Whether the request's namespace scopes the resource (a /namespaces/<ns>/<resource>... path).
 * Not so for the paths of a Namespace object itself (/namespaces/<name>, /namespaces/<name>/status,
 * /namespaces/<name>/finalize): Kubernetes' parser, as this one, reads the name there as the
 * namespace too — the one place the generic request parsing knows a resource by name.
 */
export function namespaceScoped(info: ResourceRequestInfo): boolean {
  return info.namespace !== '' && info.resource !== 'namespaces';
}

/** Go's strconv.ParseBool, which Kubernetes uses for `watch`. */
export function parseBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

export function parseRequestInfo(method: string, pathname: string, query: URLSearchParams): RequestInfo {
  const nonResource: NonResourceRequestInfo = { isResourceRequest: false, path: pathname, verb: method.toLowerCase() };
  const parts = pathname.split('/').filter((p, i, all) => p !== '' || (i > 0 && i < all.length - 1));
  if (parts.some((p) => p === '')) return nonResource; // empty segments (a//b) are never resources
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource;
  let rest = parts.slice(1);
  let group = '';
  if (prefix === 'apis') {
    if (rest.length < 2) return nonResource; // /apis, /apis/<group>: discovery
    group = rest[0]!;
    rest = rest.slice(1);
  } else if (rest.length < 1) {
    return nonResource; // /api: discovery
  }
  const version = rest[0]!;
  rest = rest.slice(1);
  if (rest.length === 0) return nonResource; // /api/v1, /apis/<g>/<v>: discovery

  let verb: Verb = 'get';
  switch (method.toUpperCase()) {
    case 'POST':
      verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      verb = 'get';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = 'delete';
      break;
    default:
      verb = 'connect';
  }
  // The deprecated /watch/ and /proxy/ path forms (Kubernetes' special verbs).
  if (rest[0] === 'watch' || rest[0] === 'proxy') {
    verb = rest[0];
    rest = rest.slice(1);
    if (rest.length === 0) return nonResource;
  }

  let namespace = '';
  if (rest[0] === 'namespaces') {
    if (rest.length > 1) {
      namespace = rest[1]!;
      // /namespaces/<ns>/<resource>... is a namespaced resource; /namespaces/<ns>/status is not.
      if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
    }
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  // The proxy verb takes no subresource: everything after the name is the proxied path.
  const subresource = verb === 'proxy' ? '' : (rest[2] ?? '');
  const tail = rest.slice(verb === 'proxy' ? 2 : 3);

  if (name === '') {
    if (verb === 'get') verb = parseBool(query.get('watch') ?? '') ? 'watch' : 'list';
    else if (verb === 'delete') verb = 'deletecollection';
  } else if (verb === 'get' && parseBool(query.get('watch') ?? '')) {
    // GET /namespaces/ns/pods/name?watch=1 watches one object (kubectl get pod x -w uses a field selector instead).
    verb = 'watch';
  }
  // A WebSocket exec, attach or port-forward comes as GET; Kubernetes (AuthorizePodWebsocketUpgradeCreatePermission,
  // on since 1.31) authorizes it as create, as the SPDY POST is.
  if (verb === 'get' && group === '' && resource === 'pods' && STREAMING_SUBRESOURCES.has(subresource)) verb = 'create';
  return { isResourceRequest: true, apiPrefix: prefix, group, version, namespace, resource, name, subresource, rest: tail, verb };
}

const STREAMING_SUBRESOURCES = new Set(['exec', 'attach', 'portforward']);

/**
 * The name a list or watch is authorized for: as Kubernetes' request info, the value of a
 * `metadata.name=<name>` field selector (a kubelet lists and watches each secret and config map it
 * needs that way, which RBAC's resourceNames and the Node authorizer then judge as that one
 * object); '' otherwise, and for a selector that does not parse or a name that cannot be a path
 * segment.
 */
export function selectedName(info: ResourceRequestInfo, query: URLSearchParams): string {
  if (info.name !== '' || (info.verb !== 'list' && info.verb !== 'watch')) return info.name;
  const selector = query.get('fieldSelector');
  if (selector === null || selector === '') return '';
  let name: string | undefined;
  try {
    name = parseFieldSelector(selector).requiresExactMatch('metadata.name');
  } catch {
    return '';
  }
  return name !== undefined && isValidPathSegmentName(name).length === 0 ? name : '';
}

/** A list or watch's field selector, for the authorization attributes (absent otherwise). */
export function fieldSelectorOf(info: ResourceRequestInfo, query: URLSearchParams): { fieldSelector?: string } {
  if (info.verb !== 'list' && info.verb !== 'watch') return {};
  const selector = query.get('fieldSelector');
  return selector === null || selector === '' ? {} : { fieldSelector: selector };
}
