import type { StructType } from './dsl.js';

/** A JSON object as it travels through kubelite (the decoded, canonical form of any kind). */
export type KubeObject = Record<string, unknown>;

/**
 * One kind in one served group/version: what the API server, discovery, OpenAPI and the codecs
 * need to know about it. Each group's module exports its entries; `src/api/kinds.ts` collects them.
 */
export interface KindVersion {
  group: string; // '' for core
  version: string;
  kind: string;
  /** The plural resource name in URLs (`deployments`). */
  resource: string;
  singular: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  namespaced: boolean;
  /** The object's schema and its list's schema (`DeploymentList`; absent for create-only kinds). */
  type: StructType;
  list?: StructType;
  /**
   * A virtual resource that is only POSTed and answered, never stored (the access reviews,
   * SelfSubjectReview): `storage` is false, discovery lists the verb create only.
   */
  createOnly?: boolean;
  /**
   * A create-only resource whose POST is the `subresource` action of the `resource` object its
   * request names in metadata.name (core/v1 `bindings`: pods/<name>/binding).
   */
  actsOn?: { resource: string; subresource: string };
  /**
   * A read-only virtual resource (get and list), its objects computed on each read, never stored
   * (core/v1 `componentstatuses`: the health of the control plane's components; metrics.k8s.io's
   * NodeMetrics and PodMetrics: usage from the simulated nodes' model). `storage` is false.
   */
  computed?: boolean;
  /** True for the one version objects of this kind are stored in (the hub of conversion). */
  storage: boolean;
  /**
   * Served in JSON and YAML only: protobuf is refused (406 for responses, 415 for bodies) and
   * clients fall back to JSON (CRDs, whose schemas kubelite keeps as JSON; custom resources).
   */
  jsonOnly?: boolean;
  /**
   * Served from a CustomResourceDefinition (named `crd`): JSON and YAML only, as Kubernetes serves
   * custom resources (protobuf is refused, strategic merge patch too). `hub` is the version its
   * objects are stored in (absent on that version).
   */
  custom?: {
    readonly crd: string;
    readonly hub?: KindVersion;
    /** The kind of its lists (spec.names.listKind). */
    readonly listKind: string;
    /** The Warning every request to this version gets (a deprecated version). */
    readonly deprecationWarning?: string;
    /** Removes, in place, what the version's schema does not specify; returns those paths (`.spec.foo`). */
    prune(obj: KubeObject): string[];
    /**
     * Conversion by webhook: converts `objects` to `apiVersion` ahead of toHub/fromHub, which then
     * only read the results (absent: conversion needs no call).
     */
    prepare?(objects: readonly KubeObject[], apiVersion: string): Promise<void>;
  };
  /** Sets this version's server-side defaults in place (Kubernetes' SetObjectDefaults_<Kind>). */
  defaults?: (obj: KubeObject) => void;
  /** This version → storage version (absent on the storage version). Must not mutate its input. */
  toHub?: (obj: KubeObject) => KubeObject;
  /** Storage version → this version (absent on the storage version). Must not mutate its input. */
  fromHub?: (obj: KubeObject) => KubeObject;
  /**
   * The Scale its `scale` subresource answers when this group/version declares one of its own
   * (apps/v1beta1, apps/v1beta2, extensions/v1beta1, as Kubernetes' ScaleREST.GroupVersionKind);
   * absent: autoscaling/v1 Scale.
   */
  scaleKind?: StructType;
  /** Subresources served for this kind in this version, by their URL segment (`pods/<name>/binding`). */
  subresources?: {
    status?: boolean;
    scale?: boolean;
    rollback?: boolean;
    /** pods: POST a core/v1 Binding (the scheduler). */
    binding?: boolean;
    /** pods: POST a policy/v1 Eviction (kubectl drain). */
    eviction?: boolean;
    /** pods: get/update/patch of spec.ephemeralContainers (kubectl debug). */
    ephemeralcontainers?: boolean;
    /** pods (v1.33+): get/update/patch of container resources (in-place resize). */
    resize?: boolean;
    /** namespaces: PUT of spec.finalizers (the namespace controller). */
    finalize?: boolean;
    /** Streaming/proxy subresources that need a node agent; declared only where served. */
    log?: boolean;
    exec?: boolean;
    attach?: boolean;
    portforward?: boolean;
    proxy?: boolean;
    /** serviceaccounts: POST an authentication.k8s.io/v1 TokenRequest. */
    token?: boolean;
    /** certificatesigningrequests: get/update/patch of status.conditions (Approved, Denied). */
    approval?: boolean;
  };
}

/** What a subresource answers in discovery: its verbs and the kind it takes and returns. */
export interface SubresourceDiscovery {
  readonly verbs: readonly string[];
  /** The request/response kind; absent: the parent's kind (group/version absent: the parent's). */
  readonly kind?: string;
  readonly group?: string;
  readonly version?: string;
}

/**
 * Every subresource a KindVersion may declare, as kube-apiserver's discovery describes it (the
 * verbs its REST storage implements, the kind of its request object).
 */
export const SUBRESOURCE_DISCOVERY: Readonly<Record<keyof NonNullable<KindVersion['subresources']>, SubresourceDiscovery>> = {
  status: { verbs: ['get', 'patch', 'update'] },
  scale: { verbs: ['get', 'patch', 'update'], kind: 'Scale', group: 'autoscaling', version: 'v1' },
  rollback: { verbs: ['create'], kind: 'DeploymentRollback' },
  binding: { verbs: ['create'], kind: 'Binding', group: '', version: 'v1' },
  eviction: { verbs: ['create'], kind: 'Eviction', group: 'policy', version: 'v1' },
  finalize: { verbs: ['update'] },
  ephemeralcontainers: { verbs: ['get', 'patch', 'update'] },
  resize: { verbs: ['get', 'patch', 'update'] },
  log: { verbs: ['get'] },
  proxy: { verbs: ['create', 'delete', 'get', 'patch', 'update'], kind: 'PodProxyOptions', group: '', version: 'v1' },
  portforward: { verbs: ['create', 'get'], kind: 'PodPortForwardOptions', group: '', version: 'v1' },
  exec: { verbs: ['create', 'get'], kind: 'PodExecOptions', group: '', version: 'v1' },
  attach: { verbs: ['create', 'get'], kind: 'PodAttachOptions', group: '', version: 'v1' },
  token: { verbs: ['create'], kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1' },
  approval: { verbs: ['get', 'patch', 'update'] },
};

/** What a subresource of `k` answers in discovery: a version with its own Scale names it for `scale`. */
export function subresourceDiscoveryOf(k: KindVersion, name: keyof typeof SUBRESOURCE_DISCOVERY): SubresourceDiscovery {
  const d = SUBRESOURCE_DISCOVERY[name];
  if (name === 'scale' && k.scaleKind) return { ...d, group: k.group, version: k.version };
  // pods/proxy takes PodProxyOptions, nodes/proxy NodeProxyOptions, services/proxy ServiceProxyOptions
  if (name === 'proxy') return { ...d, kind: `${k.kind}ProxyOptions` };
  return d;
}
