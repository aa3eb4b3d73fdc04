// The values a policy's CEL sees besides the objects (k8s.io/apiserver plugin/cel
// CreateAdmissionRequest, CreateNamespaceObject): `request`, an admission.k8s.io/v1
// AdmissionRequest without object and oldObject (those are variables of their own), its kind and
// resource those the policy matched the request as; `namespaceObject`, the request's namespace
// reduced to its metadata's identifying fields, spec and status.
import { nameOf } from '../../../api/meta/object.js';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import type { AdmissionAttributes } from '../types.js';

const gvk = (k: KindVersion) => ({ group: k.group, version: k.version, kind: k.kind });
const gvr = (k: KindVersion) => ({ group: k.group, version: k.version, resource: k.resource });

/** The request's name: the URL's, or on create the object's (as Kubernetes' create handler sets it). */
export const requestName = (a: AdmissionAttributes): string => (a.name !== '' ? a.name : a.object ? nameOf(a.object) : '');

const OPTIONS_KIND: Record<string, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

export function admissionRequest(a: AdmissionAttributes, matchedAs: KindVersion): Record<string, unknown> {
  const user: Record<string, unknown> = { username: a.user.name };
  if (a.user.uid) user.uid = a.user.uid;
  if (a.user.groups && a.user.groups.length > 0) user.groups = [...a.user.groups];
  if (a.user.extra && Object.keys(a.user.extra).length > 0) user.extra = a.user.extra;
  const options: Record<string, unknown> = { kind: OPTIONS_KIND[a.operation], apiVersion: 'meta.k8s.io/v1' };
  if (a.dryRun) options.dryRun = ['All'];
  return {
    uid: '',
    kind: gvk(matchedAs),
    resource: gvr(matchedAs),
    ...(a.subresource !== '' ? { subResource: a.subresource } : {}),
    requestKind: gvk(a.requestKind ?? a.kind),
    requestResource: gvr(a.requestKind ?? a.kind),
    ...(a.subresource !== '' ? { requestSubResource: a.subresource } : {}),
    ...(requestName(a) !== '' ? { name: requestName(a) } : {}),
    ...(a.namespace !== '' ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: user,
    dryRun: a.dryRun,
    options,
  };
}

const NAMESPACE_META_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'];

export function namespaceObject(ns: KubeObject | undefined): Record<string, unknown> | null {
  if (!ns) return null;
  const meta = (ns.metadata ?? {}) as Record<string, unknown>;
  const metadata: Record<string, unknown> = {};
  for (const f of NAMESPACE_META_FIELDS) if (meta[f] !== undefined) metadata[f] = meta[f];
  return { metadata, spec: ns.spec ?? {}, status: ns.status ?? {} };
}
