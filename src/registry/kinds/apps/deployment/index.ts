// apps Deployment: its strategy (./strategy.ts), columns, scale, and the beta versions'
// rollback (a DeploymentRollback the controller acts on).
import { annotationsOf } from '../../../../api/meta/object.js';
import type { KubeObject } from '../../../../api/schema/kind.js';
import { apiError } from '../../../errors.js';
import type { ActionSubresource, KindModule } from '../../../kind-module.js';
import { metaOf, str } from '../../../meta.js';
import { replicasScale } from '../../../replicas-scale.js';
import { deploymentPrinter } from './printer.js';
import { deploymentStrategy } from './strategy.js';

/** deployments/rollback (extensions/v1beta1, apps/v1beta1): recorded for the controller as an annotation. */
const deploymentRollback: ActionSubresource = {
  type: 'action',
  check(rollback, name) {
    const named = str(rollback.name);
    if (named !== name) throw apiError.badRequest(`the name of the object (${named}) does not match the name on the URL (${name})`);
  },
  // A rollback is the create of a DeploymentRollback, for admission as for Kubernetes' REST storage.
  admit: 'request',
  apply(d, rollback) {
    const revision = ((rollback.rollbackTo ?? {}) as KubeObject).revision ?? 0;
    const updated = (rollback.updatedAnnotations ?? {}) as Record<string, string>;
    const m = metaOf(d);
    // Stored (apps/v1) deployments keep the beta rollbackTo as Kubernetes' conversion annotation.
    m.annotations = { ...annotationsOf(d), ...updated, 'deprecated.deployment.rollback.to': String(revision) };
    return d;
  },
  success: { code: 200, message: (rollback) => `rollback request for deployment ${JSON.stringify(str(rollback.name))} succeeded` },
};

export const deploymentModule: KindModule = {
  group: 'apps',
  kind: 'Deployment',
  strategy: deploymentStrategy,
  printer: deploymentPrinter,
  subresources: { scale: replicasScale(), rollback: deploymentRollback },
};
