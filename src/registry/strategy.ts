// What is specific to one resource when the API server creates, updates, deletes or changes the
// status of its objects (Kubernetes' RESTCreateStrategy / RESTUpdateStrategy / status
// strategies). The generic store does everything common to all kinds — system metadata (uid,
// creationTimestamp, resourceVersion, generation for kinds with a spec), ObjectMeta validation,
// optimistic locking, dry run, admission of namespaces — and calls the strategy for the rest.
// Every function works on objects in the storage version (the hub), in their JSON form.
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import type { FieldError } from '../machinery/validation/field-errors.js';
import type { NameValidator } from '../machinery/validation/names.js';

export interface StrategyContext {
  /** The storage version of the kind. */
  kind: KindVersion;
  /** The request's time (ms since the epoch), for timestamps the strategy sets. */
  now: number;
  /** A fresh RFC 4122 v4 uid (for derived objects such as a Job's controller-uid label). */
  newUid: () => string;
  /**
   * The group/version the request came in (`apps/v1`, `extensions/v1beta1`), when known. Some rules
   * depend on it: a Deployment's, ReplicaSet's or DaemonSet's selector is immutable only through
   * apps/v1 (and when this is absent).
   */
  requestGroupVersion?: string;
  /**
   * Who makes the request (Kubernetes' request user), when the write comes from a client; a
   * CertificateSigningRequest records it as its requestor.
   */
  user?: RequestUser;
}

/** The request's user as a strategy sees it (Kubernetes' user.Info). */
export interface RequestUser {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The rules of kind `T` (its storage version's type, e.g. api/types' Job): every function receives
 * objects decoded as `T`, except validation in unit tests, which may pass any JSON — so
 * validation reads fields it cannot trust with runtime checks. The store and the API server see
 * every strategy as ResourceStrategy<KubeObject> (a kind's object is a KubeObject).
 */
export interface ResourceStrategy<T extends object = KubeObject> {
  /**
   * Whether the main resource ignores `status` (reset on create, kept from the old object on
   * update) and a status subresource exists. True for every kind with a status.
   */
  hasStatus: boolean;
  /**
   * Whether spec changes bump metadata.generation. Kubernetes does it for kinds with a spec and a
   * status (Deployment, Pod (since 1.33), Job, ...); false for ConfigMap, Secret, Event, ...
   */
  tracksGeneration: boolean;
  /**
   * On create, after defaults, before validation: derived fields (a Job's generated selector and
   * labels, a Pod's phase Pending and qosClass, a Namespace's `kubernetes` finalizer and phase,
   * a Node's not-ready taint, a Secret's stringData merged into data, ...). `status` has already
   * been reset to the kind's empty status when `hasStatus`.
   */
  prepareForCreate?(obj: T, ctx: StrategyContext): void;
  /**
   * On update of the main resource, after `status` was copied from `old` when `hasStatus`: fields
   * the user may not change through this path are restored from `old`, derived fields recomputed.
   */
  prepareForUpdate?(obj: T, old: T, ctx: StrategyContext): void;
  /** Kubernetes' validation of a new object of this kind (ObjectMeta excluded: the store does it). */
  validate(obj: T, ctx: StrategyContext): FieldError[];
  /** Kubernetes' update validation (immutable fields and transitions), ObjectMeta excluded. */
  validateUpdate(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /** On update through the `status` subresource: restore everything but status (and what else Kubernetes lets it change) from `old`. */
  prepareForStatusUpdate?(obj: T, old: T, ctx: StrategyContext): void;
  validateStatusUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /** Non-fatal warnings for the `Warning` response header (deprecated fields and the like). */
  warnings?(obj: T, old: T | undefined): string[];
  /**
   * The grace period a delete without `gracePeriodSeconds` uses (pods: spec.terminationGracePeriodSeconds,
   * 0 once unscheduled or terminal); absent = delete immediately.
   */
  defaultGracePeriodSeconds?(obj: T): number | undefined;
  /**
   * When present, the first delete only marks the object (deletionTimestamp, no grace period) and
   * calls this for the rest (a Namespace becomes Terminating), whatever its finalizers.
   */
  beginDeletion?(obj: T): void;
  /**
   * Deletion held by the object's own spec (a Namespace's spec.finalizers): while true, neither a
   * delete nor the removal of its last metadata finalizer removes it.
   */
  holdsDeletion?(obj: T): boolean;
  /** The 409 message for a delete of an object whose deletion is held. */
  deletionHeldMessage?: string;
  /** PUT of a missing object creates it (Kubernetes' AllowCreateOnUpdate: leases, events, ...). */
  allowCreateOnUpdate?: boolean;
  /**
   * How metadata.name is validated: DNS-1123 subdomain when absent (namespaces: label, services:
   * DNS-1035 label). `null`: Kubernetes skips ObjectMeta validation for the kind (core/v1 Events);
   * validateObjectMeta then reports nothing.
   */
  nameValidator?: NameValidator | null;
  /**
   * ObjectMeta is validated as apimachinery does for kinds outside the core API (CRDs, custom
   * resources): any qualified finalizer name, standard or not.
   */
  genericObjectMeta?: boolean;
}
