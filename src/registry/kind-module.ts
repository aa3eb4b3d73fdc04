// What the registry knows about one kind above its schema, in one place: a kind module. The API
// server names no kind; it asks the kind's module (found by the kind's group and kind) for its
// strategy, its Table columns, its selectable fields and field label conversions, and the
// subresources it serves, and dispatches to what the module declares — as k8s.io/apiserver's
// generic Store serves every kind through its strategy. How to add one: ./README.md.
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import type { StructType } from '../api/schema/dsl.js';
import type { FieldExtractor, FieldLabelConversion } from '../machinery/selectors/index.js';
import type { FieldError } from '../machinery/validation/field-errors.js';
import type { ResourceCache } from '../storage/cacher/index.js';
import type { Storage } from '../storage/types.js';
import type { PoolAllocator, Store } from './store.js';
import type { TablePrinter } from './printers/types.js';
import type { ResourceStrategy } from './strategy.js';

/** A kind by its API group ('' for core) and name, the key of its module. */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

/** A verb of a kind's REST storage, as discovery lists it. */
export type KindVerb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/** The verbs of a kind whose storage does all (Kubernetes' generic Store). */
export const ALL_KIND_VERBS: readonly KindVerb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface KindModule extends GroupKind {
  /** Create, update, status and delete rules (the storage version's objects). */
  readonly strategy: ResourceStrategy;
  /**
   * The verbs discovery lists for the kind, sorted (absent: ALL_KIND_VERBS): fewer when its
   * Kubernetes REST storage lacks an interface (namespaces are no CollectionDeleter).
   */
  readonly verbs?: readonly KindVerb[];
  /**
   * Whether a DELETE answers with the deleted object even when it is gone at once, rather than a
   * Success Status (Kubernetes' Store.ReturnDeletedObject, which pods set).
   */
  readonly returnsDeletedObject?: boolean;
  /**
   * Whether the kind's objects grant permissions, so that a write must not grant more than the
   * writer holds (Kubernetes' escalation check in the RBAC kinds' policy-based storage): the API
   * server's patch and apply ask its authorization to judge each write of such a kind (creates
   * and updates ask for every kind).
   */
  readonly grantsPermissions?: boolean;
  /**
   * Why a DELETE of the object named `name` is refused before it is looked up (Kubernetes' REST
   * storage refusing it: the system PriorityClasses), or undefined. Only single deletes ask, as
   * Kubernetes' DeleteCollection bypasses the REST storage's Delete.
   */
  refuseDelete?(name: string): string | undefined;
  /** Its Table columns (`kubectl get`); absent: Kubernetes' default table (name, creation time). */
  readonly printer?: TablePrinter;
  /**
   * The fields a field selector can match besides metadata.name and metadata.namespace (which
   * every kind has), computed from the stored object (Kubernetes' GetAttrs / ToSelectableFields).
   */
  readonly selectableFields?: Readonly<Record<string, FieldExtractor>>;
  /**
   * The field labels a request in one served group/version may use (Kubernetes'
   * AddFieldLabelConversionFunc, registered per version); absent or undefined for a version:
   * metadata.name and metadata.namespace only.
   */
  fieldLabels?(served: Pick<KindVersion, 'group' | 'version'>): FieldLabelConversion | undefined;
  /**
   * The subresources other than `status` (which is the strategy's status functions), by their URL
   * segment. A subresource answers in the versions whose schema declares it (KindVersion's
   * `subresources`), except node connections, which answer wherever the module has them.
   */
  readonly subresources?: Readonly<Record<string, Subresource>>;
  /**
   * What creates and updates take from a pool the kind's objects share (a Service's cluster IP
   * and node ports), built once over the kind's watch cache and the storage every API server shares.
   */
  allocator?(cache: ResourceCache, storage: Storage): PoolAllocator;
}

export type Subresource = ScaleSubresource | ReplacePartSubresource | ActionSubresource | DeleteBySubresource | TokenRequestSubresource | NodeConnectionSubresource;

/** `<resource>/scale`: get, update and patch a Scale of the object (autoscaling/v1's; the API server converts it for the versions with their own). */
export interface ScaleSubresource {
  readonly type: 'scale';
  /** The Scale of a stored object. */
  scaleOf(obj: KubeObject): KubeObject;
  /** The stored object with the replicas a Scale asks for. */
  withReplicas(obj: KubeObject, replicas: number): KubeObject;
}

/**
 * A write that replaces one part of the object (namespaces/finalize: spec.finalizers;
 * certificatesigningrequests/approval: status.conditions), validated by its own strategy instead
 * of the kind's. A GET answers the object; a PATCH is applied to the object as served.
 */
export interface ReplacePartSubresource {
  readonly type: 'replace-part';
  /** The verbs answered; none: the strategy is ready but kubelite does not serve it over HTTP yet (404). */
  readonly verbs: readonly ('get' | 'update' | 'patch')[];
  readonly strategy: ResourceStrategy;
  /** The stored object with the part `requested` (an object of the kind) carries. */
  replace(current: KubeObject, requested: KubeObject): KubeObject;
}

/**
 * A POST of a request object that changes the stored object (pods/binding: a Binding sets the
 * node; deployments/rollback: a DeploymentRollback asks the controller to roll back).
 */
export interface ActionSubresource {
  readonly type: 'action';
  /** The request's schema (decoded ignoring unknown fields); absent: the body is plain JSON. */
  readonly request?: StructType;
  /** Refuses a request before anything is read or written (throws a StatusError). */
  check(request: KubeObject, name: string): void;
  /**
   * What the admission chain sees: the `request` object as a CREATE of the subresource
   * (rollback), or the `stored` object's update with the subresource (binding).
   */
  readonly admit: 'request' | 'stored';
  /** The stored object after the action (may throw a StatusError, e.g. a Conflict). */
  apply(stored: KubeObject, request: KubeObject, context: { name: string; now: number }): KubeObject;
  /** The rules the changed object is checked with; absent: the kind's. */
  readonly strategy?: ResourceStrategy;
  /** The Success Status answered. */
  readonly success: { code: 200 | 201; message?(request: KubeObject): string };
}

/** A POST of a request object that deletes the stored object with the options it carries (pods/eviction). */
export interface DeleteBySubresource {
  readonly type: 'delete-by';
  readonly request: StructType;
  /** Refuses a request before anything is read (throws a StatusError). */
  check?(request: KubeObject, name: string): void;
  deleteOptionsOf(request: KubeObject): { gracePeriodSeconds?: number; preconditions: DeletePreconditions; dryRun: boolean };
  /**
   * Decides whether and how the delete happens (pods/eviction: the pod's disruption budget);
   * absent: it just happens. Returns a Status object to answer instead of success (Kubernetes'
   * eviction REST answers some refusals with a Status rather than an error).
   */
  guardedDelete?(target: GuardedDelete): Promise<KubeObject | undefined>;
}

export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

/** What a guarded delete works with: the object's store and the others', and the delete itself. */
export interface GuardedDelete {
  readonly store: Store;
  readonly namespace: string;
  readonly name: string;
  readonly preconditions: DeletePreconditions;
  readonly dryRun: boolean;
  readonly now: number;
  /** The store of another resource (policy poddisruptionbudgets). */
  storeOf(group: string, resource: string): Store | undefined;
  /** Deletes the object with the request's options and these preconditions. */
  remove(preconditions: DeletePreconditions): Promise<void>;
}

/** serviceaccounts/token: a TokenRequest, answered by the API server's token issuer. */
export interface TokenRequestSubresource {
  readonly type: 'token-request';
}

/**
 * A connection to the object's node (pods' log, exec, attach, portforward, proxy). log and proxy are
 * served through the node's kubelet (apiserver/proxy/); the others answer that they are not
 * implemented yet.
 */
export interface NodeConnectionSubresource {
  readonly type: 'node-connection';
  /** The node the object runs on ('' while unscheduled). */
  nodeNameOf(obj: KubeObject): string;
}
