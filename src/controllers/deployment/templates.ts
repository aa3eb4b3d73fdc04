// Pod templates of a Deployment and its replica sets, compared and copied without the
// pod-template-hash label the controller adds to a replica set's template.
import type { Deployment, PodTemplateSpec } from '../../api/types.js';
import { semanticEqual } from '../common/objects.js';

export const POD_TEMPLATE_HASH = 'pod-template-hash';

function withoutHash(template: PodTemplateSpec | undefined | null): PodTemplateSpec {
  const t = structuredClone(template ?? {});
  if (t.metadata?.labels) delete t.metadata.labels[POD_TEMPLATE_HASH];
  return t;
}

/** EqualIgnoreHash: templates equal apart from the pod-template-hash label. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined | null, b: PodTemplateSpec | undefined | null): boolean {
  return semanticEqual(withoutHash(a), withoutHash(b));
}

/** SetFromReplicaSetTemplate: the deployment's template becomes the replica set's, without the hash label. */
export function setFromReplicaSetTemplate(d: Deployment, template: PodTemplateSpec | undefined | null): void {
  (d.spec ??= {}).template = withoutHash(template);
}
