// Every served kind in every served version: the one table the API server, discovery, OpenAPI,
// the client and the controllers read. A new kind is added to its group's table, never here.
import { apiregistrationKinds } from './apiregistration/kinds.js';
import { admissionregistrationKinds } from './admissionregistration/kinds.js';
import { appsKinds } from './apps/kinds.js';
import { authenticationKinds } from './authentication/kinds.js';
import { authorizationKinds } from './authorization/kinds.js';
import { autoscalingKinds } from './autoscaling/kinds.js';
import { batchKinds } from './batch/kinds.js';
import { certificatesKinds } from './certificates/kinds.js';
import { coordinationKinds } from './coordination/kinds.js';
import { coreV1Kinds } from './core/v1/kinds.js';
import { discoveryKinds } from './discovery/kinds.js';
import { eventsKinds } from './events/kinds.js';
import { extensionsKinds } from './extensions/kinds.js';
import { flowcontrolKinds } from './flowcontrol/kinds.js';
import { metricsKinds } from './metrics/kinds.js';
import { networkingKinds } from './networking/kinds.js';
import { policyKinds } from './policy/kinds.js';
import { nodeKinds } from './node/kinds.js';
import { rbacKinds } from './rbac/kinds.js';
import { schedulingKinds } from './scheduling/kinds.js';
import { storageKinds } from './storage/kinds.js';
import type { KindVersion } from './schema/kind.js';
import { apiextensionsKinds } from './apiextensions/kinds.js';

export const allKinds: readonly KindVersion[] = [
  ...coreV1Kinds,
  ...appsKinds,
  ...extensionsKinds,
  ...batchKinds,
  ...coordinationKinds,
  ...rbacKinds,
  ...authorizationKinds,
  ...authenticationKinds,
  ...autoscalingKinds,
  ...policyKinds,
  ...flowcontrolKinds,
  ...apiregistrationKinds,
  ...metricsKinds,
  ...networkingKinds,
  ...discoveryKinds,
  ...eventsKinds,
  ...schedulingKinds,
  ...nodeKinds,
  ...certificatesKinds,
  ...admissionregistrationKinds,
  ...storageKinds,
  ...apiextensionsKinds,
];

const byResource = new Map<string, KindVersion>(allKinds.map((k) => [`${k.group}/${k.version}/${k.resource}`, k]));
const byKind = new Map<string, KindVersion>(allKinds.map((k) => [`${k.group}/${k.version}/${k.kind}`, k]));

/** The kind served at /api(s)/<group>/<version>/<resource>, if any. */
export function findResource(group: string, version: string, resource: string): KindVersion | undefined {
  return byResource.get(`${group}/${version}/${resource}`);
}

/** The kind named by an object's apiVersion and kind, if served. */
export function findKind(apiVersion: string, kind: string): KindVersion | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return byKind.get(`${group}/${version}/${kind}`);
}

/**
 * The storage version of a kind served in `k`'s version. Resources served under several groups
 * (extensions/v1beta1 deployments) are stored in one place (apps/v1 deployments).
 */
export function storageVersionOf(k: KindVersion): KindVersion {
  // A computed kind (componentstatuses, metrics) is never stored: its one version is its own hub.
  if (k.storage || k.computed) return k;
  if (k.custom?.hub) return k.custom.hub;
  const hub = allKinds.find((s) => s.storage && s.kind === k.kind && s.resource === k.resource);
  if (!hub) throw new Error(`no storage version for ${k.group}/${k.version} ${k.kind}`);
  return hub;
}

/** `apiVersion` as written in objects: `v1` for core, `<group>/<version>` otherwise. */
export function apiVersionOf(k: Pick<KindVersion, 'group' | 'version'>): string {
  return k.group === '' ? k.version : `${k.group}/${k.version}`;
}

/** The kind of a list of `k`'s objects (`PodList`; a custom resource's CRD may name its own). */
export function listKindOf(k: Pick<KindVersion, 'kind' | 'custom'>): string {
  return k.custom?.listKind ?? `${k.kind}List`;
}
