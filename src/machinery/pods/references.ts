// What a pod references by name — the objects a kubelet running it must read: secrets and config
// maps (volumes, projected sources, env and envFrom of every container, imagePullSecrets, the
// secret refs of volume plugins), persistent volume claims (its claims, and those its generic
// ephemeral volumes get: <pod>-<volume>) and its service account. Kubernetes' podutil
// VisitPodSecretNames / VisitPodConfigmapNames and the node authorizer's graph populator walk the
// same fields. The Node authorizer, admission plugins and controllers read pods through these.
//
// Pods come decoded (normalized to the schema), so fields have their schema types; a reference
// that is present counts even when it is null (ScaleIO writes a nil secretRef as `null`), as in
// Kubernetes, where the name read from it is then "".
import { nameOf } from '../../api/meta/object.js';
import type { Container, EphemeralContainer, LocalObjectReference, Pod, PodSpec, VolumeSource } from '../../api/types.js';

/** What the volume plugins that name a secret call the reference (each plugin has one of them). */
interface SecretNamingSource {
  secretName?: string | null;
  secretRef?: LocalObjectReference | null;
  nodePublishSecretRef?: LocalObjectReference | null;
}

/** Volume plugins whose `secretRef` (or `secretName`, `nodePublishSecretRef`) names a secret. */
const SECRET_REF_VOLUMES = ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos', 'csi'] as const satisfies ReadonlyArray<keyof VolumeSource>;

const NONE: readonly never[] = [];

export interface PodReferences {
  secrets: Set<string>;
  configMaps: Set<string>;
  persistentVolumeClaims: Set<string>;
  /** '' when the spec names none (admission defaults it to `default` before storage). */
  serviceAccount: string;
}

const nameOrEmpty = (v: string | null | undefined): string => v ?? '';

function containers(spec: PodSpec): Array<Container | EphemeralContainer> {
  return [...(spec.initContainers ?? NONE), ...(spec.containers ?? NONE), ...(spec.ephemeralContainers ?? NONE)];
}

/** What every container's envFrom (`fromRef`) and env valueFrom (`keyRef`) name, appended to `out`. */
function containerEnvNames(spec: PodSpec, fromRef: 'secretRef' | 'configMapRef', keyRef: 'secretKeyRef' | 'configMapKeyRef', out: string[]): void {
  for (const c of containers(spec)) {
    for (const e of c.envFrom ?? NONE) if (e[fromRef] !== undefined) out.push(nameOrEmpty(e[fromRef]?.name));
    for (const e of c.env ?? NONE) {
      const ref = e.valueFrom?.[keyRef];
      if (ref !== undefined) out.push(nameOrEmpty(ref?.name));
    }
  }
}

/** Every secret the pod spec names, in Kubernetes' visiting order (names may repeat; '' skipped by callers). */
export function podSecretNames(spec: PodSpec): string[] {
  const out: string[] = [];
  for (const s of spec.imagePullSecrets ?? NONE) out.push(nameOrEmpty(s.name));
  containerEnvNames(spec, 'secretRef', 'secretKeyRef', out);
  for (const v of spec.volumes ?? NONE) {
    if (v.secret !== undefined) out.push(nameOrEmpty(v.secret?.secretName));
    for (const s of v.projected?.sources ?? NONE) if (s.secret !== undefined) out.push(nameOrEmpty(s.secret?.name));
    for (const key of SECRET_REF_VOLUMES) {
      const source: SecretNamingSource | null | undefined = v[key];
      if (source === undefined || source === null) continue;
      if (source.secretName !== undefined) out.push(nameOrEmpty(source.secretName));
      if (source.secretRef !== undefined) out.push(nameOrEmpty(source.secretRef?.name));
      if (source.nodePublishSecretRef !== undefined) out.push(nameOrEmpty(source.nodePublishSecretRef?.name));
    }
  }
  return out;
}

/** Every config map the pod spec names. */
export function podConfigMapNames(spec: PodSpec): string[] {
  const out: string[] = [];
  containerEnvNames(spec, 'configMapRef', 'configMapKeyRef', out);
  for (const v of spec.volumes ?? NONE) {
    if (v.configMap !== undefined) out.push(nameOrEmpty(v.configMap?.name));
    for (const s of v.projected?.sources ?? NONE) if (s.configMap !== undefined) out.push(nameOrEmpty(s.configMap?.name));
  }
  return out;
}

export function podReferences(pod: Pod): PodReferences {
  const spec = pod.spec ?? {};
  const podName = nameOf(pod);
  const nonEmpty = (names: string[]) => new Set(names.filter((n) => n !== ''));
  const claims: string[] = [];
  for (const v of spec.volumes ?? NONE) {
    if (v.persistentVolumeClaim !== undefined) claims.push(nameOrEmpty(v.persistentVolumeClaim?.claimName));
    // A generic ephemeral volume's claim is named <pod>-<volume> (Kubernetes' ephemeral.VolumeClaimName).
    if (v.ephemeral !== undefined) claims.push(`${podName}-${nameOrEmpty(v.name)}`);
  }
  return {
    secrets: nonEmpty(podSecretNames(spec)),
    configMaps: nonEmpty(podConfigMapNames(spec)),
    persistentVolumeClaims: nonEmpty(claims),
    serviceAccount: nameOrEmpty(spec.serviceAccountName),
  };
}
