// Pod templates of a Deployment and its replica sets, compared and copied without the
// pod-template-hash label the controller adds to a replica set's template.
import type { KubeObject } from '../../client/types.js';
import { semanticEqual } from '../common/objects.js';
import type { DeploymentSpec } from './spec.js';

export const POD_TEMPLATE_HASH = 'pod-template-hash';

function withoutHash(template: KubeObject | undefined): KubeObject {
  const t = structuredClone(template ?? {}) as { metadata?: { labels?: Record<string, string> } };
  if (t.metadata?.labels) delete t.metadata.labels[POD_TEMPLATE_HASH];
  return t as KubeObject;
}

/** EqualIgnoreHash: templates equal apart from the pod-template-hash label. */
export function equalIgnoreHash(a: KubeObject | undefined, b: KubeObject | undefined): boolean {
  return semanticEqual(withoutHash(a), withoutHash(b));
}

/** SetFromReplicaSetTemplate: the deployment's template becomes the replica set's, without the hash label. */
export function setFromReplicaSetTemplate(d: KubeObject, template: KubeObject | undefined): void {
  (d.spec as DeploymentSpec).template = withoutHash(template);
}
