// What a pod references by name — the objects a kubelet running it must read: secrets and config
// maps (volumes, projected sources, env and envFrom of every container, imagePullSecrets, the
// secret refs of volume plugins), persistent volume claims (its claims, and those its generic
// ephemeral volumes get: <pod>-<volume>) and its service account. Kubernetes' podutil
// VisitPodSecretNames / VisitPodConfigmapNames and the node authorizer's graph populator walk the
// same fields. The Node authorizer and the admission plugins read pods through these.
type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.filter((x) => typeof x === 'object' && x !== null) as Obj[]) : [];
}

function name(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Volume plugins whose `secretRef` (or `secretName`, `nodePublishSecretRef`) names a secret. */
const SECRET_REF_VOLUMES = ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos', 'csi'];

export interface PodReferences {
  secrets: Set<string>;
  configMaps: Set<string>;
  persistentVolumeClaims: Set<string>;
  /** '' when the spec names none (admission defaults it to `default` before storage). */
  serviceAccount: string;
}

function containers(spec: Obj): Obj[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

/** What every container's envFrom (`fromRef`) and env valueFrom (`keyRef`) name, appended to `out`. */
function containerEnvNames(spec: Obj, fromRef: 'secretRef' | 'configMapRef', keyRef: 'secretKeyRef' | 'configMapKeyRef', out: string[]): void {
  for (const c of containers(spec)) {
    for (const e of list(c.envFrom)) if (e[fromRef] !== undefined) out.push(name(obj(e[fromRef]).name));
    for (const e of list(c.env)) {
      const ref = obj(e.valueFrom)[keyRef];
      if (ref !== undefined) out.push(name(obj(ref).name));
    }
  }
}

/** Every secret the pod spec names, in Kubernetes' visiting order (names may repeat; '' skipped by callers). */
export function podSecretNames(spec: Obj): string[] {
  const out: string[] = [];
  for (const s of list(spec.imagePullSecrets)) out.push(name(s.name));
  containerEnvNames(spec, 'secretRef', 'secretKeyRef', out);
  for (const v of list(spec.volumes)) {
    if (v.secret !== undefined) out.push(name(obj(v.secret).secretName));
    for (const s of list(obj(v.projected).sources)) if (s.secret !== undefined) out.push(name(obj(s.secret).name));
    for (const key of SECRET_REF_VOLUMES) {
      if (v[key] === undefined) continue;
      const source = obj(v[key]);
      if (source.secretName !== undefined) out.push(name(source.secretName));
      if (source.secretRef !== undefined) out.push(name(obj(source.secretRef).name));
      if (source.nodePublishSecretRef !== undefined) out.push(name(obj(source.nodePublishSecretRef).name));
    }
  }
  return out;
}

/** Every config map the pod spec names. */
export function podConfigMapNames(spec: Obj): string[] {
  const out: string[] = [];
  containerEnvNames(spec, 'configMapRef', 'configMapKeyRef', out);
  for (const v of list(spec.volumes)) {
    if (v.configMap !== undefined) out.push(name(obj(v.configMap).name));
    for (const s of list(obj(v.projected).sources)) if (s.configMap !== undefined) out.push(name(obj(s.configMap).name));
  }
  return out;
}

export function podReferences(pod: Obj): PodReferences {
  const spec = obj(pod.spec);
  const podName = name(obj(pod.metadata).name);
  const nonEmpty = (names: string[]) => new Set(names.filter((n) => n !== ''));
  const claims: string[] = [];
  for (const v of list(spec.volumes)) {
    if (v.persistentVolumeClaim !== undefined) claims.push(name(obj(v.persistentVolumeClaim).claimName));
    // A generic ephemeral volume's claim is named <pod>-<volume> (Kubernetes' ephemeral.VolumeClaimName).
    if (v.ephemeral !== undefined) claims.push(`${podName}-${name(v.name)}`);
  }
  return {
    secrets: nonEmpty(podSecretNames(spec)),
    configMaps: nonEmpty(podConfigMapNames(spec)),
    persistentVolumeClaims: nonEmpty(claims),
    serviceAccount: name(spec.serviceAccountName),
  };
}
