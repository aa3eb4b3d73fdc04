// Admission of the subresource writes whose request object is not the stored kind: Kubernetes runs
// the admission chain on every write, with the subresource in the attributes and the object the
// request writes — the autoscaling/v1 Scale of `<resource>/scale` (UPDATE, the current Scale as the
// old object), the DeploymentRollback of `deployments/rollback` (a CREATE). Mutating plugins run
// first (they may change the object), then the registry's check of the result, then the
// validating plugins; a refusal writes nothing. (`namespaces/finalize` writes the Namespace
// itself and goes through the store's hook like status writes.)
import type { KubeObject } from '../api/schema/kind.js';
import type { Store } from '../registry/store.js';
import type { Operation } from './admission/types.js';
import type { RequestContext } from './request/context.js';

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
