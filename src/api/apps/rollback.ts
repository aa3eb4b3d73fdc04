// The deprecated rollback types that apps/v1beta1 and extensions/v1beta1 each declared (same
// shape in both): RollbackConfig (Deployment spec.rollbackTo) and the DeploymentRollback body of
// the `rollback` subresource.
import { field, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

/** Declares `<pkg>RollbackConfig` and `<pkg>DeploymentRollback`; `pkg` like `io.k8s.api.apps.v1beta1.`. */
export function declareRollback(pkg: string) {
  const RollbackConfig = struct(pkg + 'RollbackConfig', {
    /** 0 means the last revision. */
    revision: field(t.int64, 1),
  });
  const DeploymentRollback = struct(pkg + 'DeploymentRollback', {
    ...typeMetaFields,
    /** The deployment's name. */
    name: field(t.string, 1, { omitempty: false, required: true }),
    updatedAnnotations: field(mapOf(t.string), 2),
    rollbackTo: field(RollbackConfig, 3, { omitempty: false, required: true }),
  });
  return { RollbackConfig, DeploymentRollback };
}
