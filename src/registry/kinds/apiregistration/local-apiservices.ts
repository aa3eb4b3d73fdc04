// The APIServices kube-apiserver's autoregister controller keeps for the group versions the
// server itself serves: one per group/version, named `<version>.<group>` (`v1.` for the core
// group), with no service (local) and the group and version priorities of kube-apiserver's table
// (DefaultGenericAPIServicePriorities plus kube-apiserver's own groups). Derived from the served
// kinds, so a group added to api/kinds.ts is registered without a change here — provided the table
// has its priorities, as Kubernetes registers no APIService for a group version it lacks.
import type { KindVersion } from '../../../api/schema/kind.js';
import type { APIService } from '../../../api/types.js';

/** The label autoregister puts on what it manages; `onstart` = synced at start, removed when no longer served. */
export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

type Priority = readonly [group: number, version: number];

/** Kubernetes 1.33's group and version priorities, by `group/version` (`/v1` for core). */
export const API_VERSION_PRIORITIES: Readonly<Record<string, Priority>> = {
  '/v1': [18000, 1],
  'apps/v1': [17800, 15],
  'events.k8s.io/v1': [17750, 15],
  'events.k8s.io/v1beta1': [17750, 5],
  'authentication.k8s.io/v1': [17700, 15],
  'authentication.k8s.io/v1beta1': [17700, 9],
  'authentication.k8s.io/v1alpha1': [17700, 1],
  'authorization.k8s.io/v1': [17600, 15],
  'autoscaling/v1': [17500, 15],
  'autoscaling/v2': [17500, 30],
  'autoscaling/v2beta1': [17500, 9],
  'autoscaling/v2beta2': [17500, 1],
  'batch/v1': [17400, 15],
  'batch/v1beta1': [17400, 9],
  'batch/v2alpha1': [17400, 9],
  'certificates.k8s.io/v1': [17300, 15],
  'certificates.k8s.io/v1beta1': [17300, 9],
  'certificates.k8s.io/v1alpha1': [17300, 1],
  'networking.k8s.io/v1': [17200, 15],
  'networking.k8s.io/v1beta1': [17200, 9],
  'networking.k8s.io/v1alpha1': [17200, 1],
  'policy/v1': [17100, 15],
  'policy/v1beta1': [17100, 9],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'storage.k8s.io/v1': [16800, 15],
  'storage.k8s.io/v1beta1': [16800, 9],
  'storage.k8s.io/v1alpha1': [16800, 1],
  'apiextensions.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1beta1': [16700, 12],
  'admissionregistration.k8s.io/v1alpha1': [16700, 9],
  'scheduling.k8s.io/v1': [16600, 15],
  'coordination.k8s.io/v1': [16500, 15],
  'coordination.k8s.io/v1beta1': [16500, 13],
  'coordination.k8s.io/v1alpha2': [16500, 12],
  'node.k8s.io/v1': [16300, 15],
  'node.k8s.io/v1alpha1': [16300, 1],
  'node.k8s.io/v1beta1': [16300, 9],
  'discovery.k8s.io/v1': [16200, 15],
  'discovery.k8s.io/v1beta1': [16200, 12],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
  'flowcontrol.apiserver.k8s.io/v1beta3': [16100, 18],
  'flowcontrol.apiserver.k8s.io/v1beta2': [16100, 15],
  'flowcontrol.apiserver.k8s.io/v1beta1': [16100, 12],
  'flowcontrol.apiserver.k8s.io/v1alpha1': [16100, 9],
  'internal.apiserver.k8s.io/v1alpha1': [16000, 9],
  'resource.k8s.io/v1beta2': [15900, 15],
  'resource.k8s.io/v1beta1': [15900, 9],
  'resource.k8s.io/v1alpha3': [15900, 1],
  'storagemigration.k8s.io/v1alpha1': [15800, 9],
  // Not kube-apiserver's: metrics-server registers its group with these (its APIService
  // manifest); kubelite serves the group itself.
  'metrics.k8s.io/v1beta1': [100, 100],
  // apiregistration.k8s.io is kube-aggregator's own group (its delegate registers it).
  'apiregistration.k8s.io/v1': [18000, 15],
};

/** The served group versions, in the order the kinds table first names them. */
export function servedGroupVersions(kinds: readonly KindVersion[]): Array<{ group: string; version: string }> {
  const seen = new Set<string>();
  const out: Array<{ group: string; version: string }> = [];
  for (const k of kinds) {
    const key = `${k.group}/${k.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ group: k.group, version: k.version });
  }
  return out;
}

/** The local APIServices for `kinds` (group versions without priorities are left out, as Kubernetes does). */
export function localAPIServices(kinds: readonly KindVersion[]): APIService[] {
  const out: APIService[] = [];
  for (const { group, version } of servedGroupVersions(kinds)) {
    const priority = API_VERSION_PRIORITIES[`${group}/${version}`];
    if (!priority) continue;
    out.push({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: `${version}.${group}`, labels: { [AUTOMANAGED_LABEL]: 'onstart' } },
      spec: { service: null, group, version, groupPriorityMinimum: priority[0], versionPriority: priority[1] },
    });
  }
  return out;
}
