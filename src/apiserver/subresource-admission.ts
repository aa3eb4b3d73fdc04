// Admission of the subresource writes whose request object is not the stored kind: Kubernetes runs
// the admission chain on every write, with the subresource in the attributes and the object the
// request writes — the autoscaling/v1 Scale of `<resource>/scale` (UPDATE, the current Scale as the
// old object), the DeploymentRollback of `deployments/rollback` (a CREATE). Mutating plugins run
// first (they may change the object), then the registry's check of the result, then the
// validating plugins; a refusal writes nothing. (`namespaces/finalize` writes the Namespace
// itself and goes through the store's hook like status writes.)
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { formatLabelSelector } from '../registry/printers/format.js';
import { metaOf } from '../registry/meta.js';
import type { Store } from '../registry/store.js';
import type { Operation } from './admission/types.js';
import type { RequestContext } from './request/context.js';

/** The autoscaling/v1 Scale of a scalable object (storage version). */
export function scaleOf(obj: KubeObject, kv: KindVersion): KubeObject {
  const m = metaOf(obj);
  const spec = (obj.spec ?? {}) as KubeObject;
  const status = (obj.status ?? {}) as KubeObject;
  // A ReplicationController's selector is a plain map (labels.SelectorFromSet(...).String()).
  const selector = kv.kind === 'ReplicationController' ? formatLabelSelector({ matchLabels: spec.selector }) : formatLabelSelector(spec.selector);
  const scaleStatus: KubeObject = { replicas: typeof status.replicas === 'number' ? status.replicas : 0 };
  if (selector !== '<none>') scaleStatus.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 0 },
    status: scaleStatus,
  };
}

/**
 * Runs the chain on `object` (mutated in place by mutating plugins), then `check`, then the
 * validating plugins.
 */
export async function admitSubresourceWrite(ctx: RequestContext, store: Store, operation: Operation, object: KubeObject, oldObject: KubeObject | undefined, dryRun: boolean, check: () => void = () => {}): Promise<void> {
  const chain = ctx.admission;
  if (!chain) return check();
  const attributes = chain.attributes(
    { kind: store.kind, subresource: ctx.info.subresource, namespace: ctx.info.namespace, name: ctx.info.name, user: ctx.user, dryRun },
    operation,
    object,
    oldObject,
  );
  await chain.admit(attributes);
  check();
  await chain.validate(attributes);
}
