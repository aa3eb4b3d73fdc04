// ServiceAccount admission (Kubernetes' plugin/pkg/admission/serviceaccount), for pods on create:
// the service account defaults to `default` and must exist (403 "error looking up service
// account"); unless the pod or its service account opts out (automountServiceAccountToken: false),
// every container and init container mounts a projected `kube-api-access-xxxxx` volume (a bound
// token of 3607 s, the kube-root-ca.crt ConfigMap, the namespace) at
// /var/run/secrets/kubernetes.io/serviceaccount; a pod without imagePullSecrets gets its service
// account's; a service account annotated kubernetes.io/enforce-mountable-secrets=true limits its
// pods to the secrets it lists. Mirror pods (static pods a node reports) may reference neither service accounts,
// secrets nor token projections.
import { annotationOf, nameOf } from '../../api/meta/object.js';
import type { Pod, PodSpec, ProjectedVolumeSource, ServiceAccount } from '../../api/types.js';
import { WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS } from '../../machinery/jwt/tokens.js';
import { generateName } from '../../registry/meta.js';
import { podSecretNames } from '../../machinery/pods/references.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const SERVICE_ACCOUNT_VOLUME_PREFIX = 'kube-api-access-';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';

export interface ServiceAccountLookup {
  /** The service account, or undefined when it does not exist. */
  serviceAccount(namespace: string, name: string): Promise<ServiceAccount | undefined>;
}

export interface ServiceAccountAdmissionOptions {
  /** The `default` service account is created by a controller: look again this many times before refusing (Kubernetes: 10). */
  defaultRetries?: number;
  /** Pause between those looks (Kubernetes: 100-200 ms). */
  retryDelayMs?: () => number;
}

// Read in place of an absent list, so that reading one allocates nothing (admission runs on every pod create).
const NONE: readonly never[] = [];

/** The projected volume source Kubernetes' TokenVolumeSource() builds. */
export function tokenVolumeSource(): ProjectedVolumeSource {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 420,
  };
}

/** Whether the pod spec names any secret (volumes, env, envFrom, imagePullSecrets, volume plugins' secret refs). */
export function podReferencesSecrets(spec: PodSpec): boolean {
  return podSecretNames(spec).length > 0;
}

export class ServiceAccountAdmission implements AdmissionPlugin {
  readonly name = 'ServiceAccount';
  private readonly retries: number;
  private readonly delay: () => number;

  constructor(private readonly lookup: ServiceAccountLookup, opts: ServiceAccountAdmissionOptions = {}) {
    this.retries = opts.defaultRetries ?? 10;
    this.delay = opts.retryDelayMs ?? (() => 100 + Math.floor(Math.random() * 100));
  }

  private applies(a: AdmissionAttributes): boolean {
    return a.group === '' && a.resource === 'pods' && a.subresource === '' && a.operation === 'CREATE' && a.object !== undefined;
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (!this.applies(a)) return;
    const pod: Pod = a.object!;
    const spec = (pod.spec ??= {});
    if (isMirrorPod(pod)) return;
    // The deprecated alias is read as the name when only it is set, and always written back (v1 conversion).
    if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT;
    spec.serviceAccount = spec.serviceAccountName;
    const sa = await this.serviceAccount(a, spec.serviceAccountName);
    if (shouldAutomount(sa, spec)) mountServiceAccountToken(spec);
    if (!spec.imagePullSecrets?.length && sa.imagePullSecrets?.length) spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ name: s.name ?? '' }));
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!this.applies(a)) return;
    const pod: Pod = a.object!;
    const spec = pod.spec ?? {};
    if (isMirrorPod(pod)) {
      if (spec.serviceAccountName) throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
      if (podReferencesSecrets(spec)) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
      for (const v of spec.volumes ?? NONE) {
        if ((v.projected?.sources ?? NONE).some((s) => s.serviceAccountToken !== undefined)) {
          throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
        }
      }
      return;
    }
    const sa = await this.serviceAccount(a, spec.serviceAccountName ?? '');
    if (enforcesMountableSecrets(sa)) {
      const why = unlistedSecretReference(sa, spec);
      if (why) throw admissionForbidden(a, why);
    }
  }

  /** The pod's service account, or 403; the default one is looked for again a few times (its controller may be about to create it). */
  private async serviceAccount(a: AdmissionAttributes, name: string): Promise<ServiceAccount> {
    const attempts = name === DEFAULT_SERVICE_ACCOUNT ? this.retries : 1;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, this.delay()));
      const sa = await this.lookup.serviceAccount(a.namespace, name);
      if (sa) return sa;
    }
    throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount ${JSON.stringify(name)} not found`);
  }
}

export const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = 'kubernetes.io/enforce-mountable-secrets';

/** A service account annotated kubernetes.io/enforce-mountable-secrets=true (Go's ParseBool) limits its pods to its own secrets. */
function enforcesMountableSecrets(sa: ServiceAccount): boolean {
  const v = annotationOf(sa, ENFORCE_MOUNTABLE_SECRETS_ANNOTATION);
  return v !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

/** Kubernetes' limitSecretReferences: the first secret the pod names that its service account does not list, as a message. */
function unlistedSecretReference(sa: ServiceAccount, spec: PodSpec): string | undefined {
  const saName = nameOf(sa);
  const mountable = new Set((sa.secrets ?? NONE).map((r) => r.name ?? ''));
  const refused = (what: string, secret: string) => `${what} referencing secret.secretName="${secret}" is not allowed because service account ${saName} does not reference that secret`;
  for (const v of spec.volumes ?? NONE) {
    if (v.secret === undefined) continue;
    const secretName = v.secret?.secretName ?? '';
    if (!mountable.has(secretName)) return `volume with secret.secretName="${secretName}" is not allowed because service account ${saName} does not reference that secret`;
  }
  for (const [key, label] of [['initContainers', 'init container'], ['containers', 'container'], ['ephemeralContainers', 'ephemeral container']] as const) {
    for (const c of spec[key] ?? NONE) {
      for (const e of c.envFrom ?? NONE) {
        if (e.secretRef === undefined) continue;
        const secret = e.secretRef?.name ?? '';
        if (!mountable.has(secret)) return refused(`${label} ${c.name ?? ''} with envFrom`, secret);
      }
      for (const e of c.env ?? NONE) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref === undefined) continue;
        const secret = ref?.name ?? '';
        if (!mountable.has(secret)) return refused(`${label} ${c.name ?? ''} with envVar ${e.name ?? ''}`, secret);
      }
    }
  }
  const pullable = new Set((sa.imagePullSecrets ?? NONE).map((r) => r.name ?? ''));
  const pulls = spec.imagePullSecrets ?? NONE;
  for (let i = 0; i < pulls.length; i++) {
    const name = pulls[i]!.name ?? '';
    if (!pullable.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return undefined;
}

export function isMirrorPod(pod: Pod): boolean {
  return annotationOf(pod, MIRROR_POD_ANNOTATION) !== undefined;
}

/** The pod's choice wins, then the service account's, else true. */
function shouldAutomount(sa: ServiceAccount, spec: PodSpec): boolean {
  return spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
}

/** Kubernetes' mountServiceAccountToken: one volume, mounted read-only in every container that has nothing at the path yet. */
function mountServiceAccountToken(spec: PodSpec): void {
  const volumes = spec.volumes ?? NONE;
  const existing = volumes.find((v) => v.name?.startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX));
  const volumeName = existing ? (existing.name ?? '') : generateName(SERVICE_ACCOUNT_VOLUME_PREFIX);
  let needsVolume = false;
  for (const key of ['initContainers', 'containers'] as const) {
    for (const c of spec[key] ?? NONE) {
      const mounts = c.volumeMounts ?? NONE;
      if (mounts.some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needsVolume = true;
    }
  }
  if (!existing && needsVolume) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}
