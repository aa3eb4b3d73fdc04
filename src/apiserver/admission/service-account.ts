// ServiceAccount admission (Kubernetes' plugin/pkg/admission/serviceaccount), for pods on create:
// the service account defaults to `default` and must exist (403 "error looking up service
// account"); unless the pod or its service account opts out (automountServiceAccountToken: false),
// every container and init container mounts a projected `kube-api-access-xxxxx` volume (a bound
// token of 3607 s, the kube-root-ca.crt ConfigMap, the namespace) at
// /var/run/secrets/kubernetes.io/serviceaccount; a pod without imagePullSecrets gets its service
// account's; a service account annotated kubernetes.io/enforce-mountable-secrets=true limits its
// pods to the secrets it lists. Mirror pods (static pods a node reports) may reference neither service accounts,
// secrets nor token projections.
import { annotationsOf, nameOf } from '../../api/meta/object.js';
import { podSecretNames } from '../auth/pod-references.js';
import type { KubeObject } from '../../api/schema/kind.js';
import { WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS } from '../../machinery/jwt/tokens.js';
import { generateName, str } from '../../registry/meta.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const SERVICE_ACCOUNT_VOLUME_PREFIX = 'kube-api-access-';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';

export interface ServiceAccountLookup {
  /** The service account, or undefined when it does not exist. */
  serviceAccount(namespace: string, name: string): Promise<KubeObject | undefined>;
}

export interface ServiceAccountAdmissionOptions {
  /** The `default` service account is created by a controller: look again this many times before refusing (Kubernetes: 10). */
  defaultRetries?: number;
  /** Pause between those looks (Kubernetes: 100-200 ms). */
  retryDelayMs?: () => number;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? (v as Obj[]) : [];
}

/** The projected volume source Kubernetes' TokenVolumeSource() builds. */
export function tokenVolumeSource(): Obj {
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
export function podReferencesSecrets(spec: Obj): boolean {
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
    const pod = a.object!;
    const spec = obj(pod.spec);
    pod.spec = spec;
    if (isMirrorPod(pod)) return;
    // The deprecated alias is read as the name when only it is set, and always written back (v1 conversion).
    if (str(spec.serviceAccountName) === '') spec.serviceAccountName = str(spec.serviceAccount) || DEFAULT_SERVICE_ACCOUNT;
    spec.serviceAccount = spec.serviceAccountName;
    const sa = await this.serviceAccount(a, str(spec.serviceAccountName));
    if (shouldAutomount(sa, spec)) mountServiceAccountToken(spec);
    if (list(spec.imagePullSecrets).length === 0) {
      const secrets = list(sa.imagePullSecrets).map((s) => ({ name: str(s.name) }));
      if (secrets.length > 0) spec.imagePullSecrets = secrets;
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!this.applies(a)) return;
    const pod = a.object!;
    const spec = obj(pod.spec);
    if (isMirrorPod(pod)) {
      if (str(spec.serviceAccountName) !== '') throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
      if (podReferencesSecrets(spec)) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
      for (const v of list(spec.volumes)) {
        if (list(obj(v.projected).sources).some((s) => s.serviceAccountToken !== undefined)) {
          throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
        }
      }
      return;
    }
    const sa = await this.serviceAccount(a, str(spec.serviceAccountName));
    if (enforcesMountableSecrets(sa)) {
      const why = unlistedSecretReference(sa, spec);
      if (why) throw admissionForbidden(a, why);
    }
  }

  /** The pod's service account, or 403; the default one is looked for again a few times (its controller may be about to create it). */
  private async serviceAccount(a: AdmissionAttributes, name: string): Promise<Obj> {
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
function enforcesMountableSecrets(sa: Obj): boolean {
  const v = annotationsOf(sa)[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION];
  return typeof v === 'string' && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

/** Kubernetes' limitSecretReferences: the first secret the pod names that its service account does not list, as a message. */
function unlistedSecretReference(sa: Obj, spec: Obj): string | undefined {
  const saName = nameOf(sa);
  const mountable = new Set(list(sa.secrets).map((r) => str(r.name)));
  const refused = (what: string, secret: string) => `${what} referencing secret.secretName="${secret}" is not allowed because service account ${saName} does not reference that secret`;
  for (const v of list(spec.volumes)) {
    const secret = obj(v.secret);
    if (v.secret !== undefined && !mountable.has(str(secret.secretName))) {
      return `volume with secret.secretName="${str(secret.secretName)}" is not allowed because service account ${saName} does not reference that secret`;
    }
  }
  for (const [key, label] of [['initContainers', 'init container'], ['containers', 'container'], ['ephemeralContainers', 'ephemeral container']] as const) {
    for (const c of list(spec[key])) {
      for (const e of list(c.envFrom)) {
        const ref = obj(e.secretRef);
        if (e.secretRef !== undefined && !mountable.has(str(ref.name))) return refused(`${label} ${str(c.name)} with envFrom`, str(ref.name));
      }
      for (const e of list(c.env)) {
        const ref = obj(obj(e.valueFrom).secretKeyRef);
        if (obj(e.valueFrom).secretKeyRef !== undefined && !mountable.has(str(ref.name))) return refused(`${label} ${str(c.name)} with envVar ${str(e.name)}`, str(ref.name));
      }
    }
  }
  const pullable = new Set(list(sa.imagePullSecrets).map((r) => str(r.name)));
  const pulls = list(spec.imagePullSecrets);
  for (let i = 0; i < pulls.length; i++) {
    const name = str(pulls[i]!.name);
    if (!pullable.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return undefined;
}

export function isMirrorPod(pod: KubeObject): boolean {
  const annotations = annotationsOf(pod);
  return MIRROR_POD_ANNOTATION in annotations;
}

/** The pod's choice wins, then the service account's, else true. */
function shouldAutomount(sa: Obj, spec: Obj): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
}

/** Kubernetes' mountServiceAccountToken: one volume, mounted read-only in every container that has nothing at the path yet. */
function mountServiceAccountToken(spec: Obj): void {
  const volumes = list(spec.volumes);
  const existing = volumes.find((v) => str(v.name).startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX));
  const volumeName = existing ? str(existing.name) : generateName(SERVICE_ACCOUNT_VOLUME_PREFIX);
  let needsVolume = false;
  for (const key of ['initContainers', 'containers']) {
    for (const c of list(spec[key])) {
      const mounts = list(c.volumeMounts);
      if (mounts.some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needsVolume = true;
    }
  }
  if (!existing && needsVolume) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}
