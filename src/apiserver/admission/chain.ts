// The admission chain: the enabled plugins in Kubernetes' order (kube-apiserver's
// AllOrderedPlugins), mutating phase then validating phase, and the hook the generic store calls
// for one write (registry/store.ts AdmissionHook).
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import type { AdmissionHook } from '../../registry/store.js';
import type { UserInfo } from '../auth/types.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from './types.js';

/** The plugins kubelite implements, in the order Kubernetes runs them. */
export const ORDERED_ADMISSION_PLUGINS = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
] as const;
export type AdmissionPluginName = (typeof ORDERED_ADMISSION_PLUGINS)[number];
/**
 * Those on without --enable-admission-plugins: every plugin kubelite implements is in Kubernetes'
 * default-on set (NodeRestriction too: it only concerns node users, as kubeadm enables it).
 */
export const DEFAULT_ADMISSION_PLUGINS: readonly AdmissionPluginName[] = ORDERED_ADMISSION_PLUGINS;

/** The enabled set from kube-apiserver's --enable-admission-plugins / --disable-admission-plugins; throws on an unknown name. */
export function enabledAdmissionPlugins(enable: readonly string[] = [], disable: readonly string[] = []): AdmissionPluginName[] {
  for (const name of [...enable, ...disable]) {
    if (!(ORDERED_ADMISSION_PLUGINS as readonly string[]).includes(name)) {
      throw new Error(`admission plugin ${JSON.stringify(name)} is not supported (supported: ${ORDERED_ADMISSION_PLUGINS.join(', ')})`);
    }
  }
  const on = new Set<string>([...DEFAULT_ADMISSION_PLUGINS, ...enable]);
  for (const name of disable) on.delete(name);
  return ORDERED_ADMISSION_PLUGINS.filter((name) => on.has(name));
}

/** What the HTTP handler knows of a write before the store reads the current object. */
export interface AdmissionRequest {
  kind: KindVersion;
  /** The served version the request came in, when known. */
  requestKind?: KindVersion;
  subresource: string;
  namespace: string;
  name: string;
  user: UserInfo;
  dryRun: boolean;
  /** The request's warnings, which plugins may add to. */
  warnings?: string[];
}

export class AdmissionChain {
  private readonly mutating: AdmissionPlugin[];
  private readonly validating: AdmissionPlugin[];

  constructor(readonly plugins: readonly AdmissionPlugin[]) {
    this.mutating = plugins.filter((p) => p.admit !== undefined);
    this.validating = plugins.filter((p) => p.validate !== undefined);
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    for (const p of this.mutating) await p.admit!(a);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.validating) await p.validate!(a);
  }

  /** Kubernetes' admission attributes of one write of the request. */
  attributes(req: AdmissionRequest, operation: Operation, obj: KubeObject | undefined, old: KubeObject | undefined): AdmissionAttributes {
    return {
      operation,
      kind: req.kind,
      requestKind: req.requestKind,
      group: req.kind.group,
      resource: req.kind.resource,
      subresource: req.subresource,
      namespace: req.kind.namespaced ? req.namespace : '',
      name: req.name,
      object: obj,
      oldObject: old,
      user: req.user,
      dryRun: req.dryRun,
      warnings: req.warnings,
    };
  }

  /** The store's hook for one request; the operation follows from what the store passes (no old object: CREATE; no new one: DELETE). */
  hook(req: AdmissionRequest): AdmissionHook | undefined {
    if (this.plugins.length === 0) return undefined;
    const attributes = (obj: KubeObject | undefined, old: KubeObject | undefined) => this.attributes(req, obj === undefined ? 'DELETE' : old === undefined ? 'CREATE' : 'UPDATE', obj, old);
    return {
      mutate: (obj, old) => this.admit(attributes(obj, old)),
      validate: (obj, old) => this.validate(attributes(obj, old)),
    };
  }
}
