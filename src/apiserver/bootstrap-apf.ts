// kube-apiserver's API Priority and Fairness config-producer, run once at start: the mandatory
// FlowSchemas and PriorityLevelConfigurations (exempt, catch-all) are created when missing and
// their spec restored when it drifted and they still carry `apf.kubernetes.io/autoupdate-spec:
// "true"`; the suggested ones are created only when absent (an admin's deletion or edit of a
// suggested object between restarts is not undone here). kubelite keeps the configuration only:
// requests are not classified, queued or limited by it.
import { findResource } from '../api/kinds.js';
import { annotationOf, nameOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { semanticEqual } from '../machinery/validation/common.js';
import {
  AUTO_UPDATE_ANNOTATION,
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
  suggestedFlowSchemas,
  suggestedPriorityLevelConfigurations,
} from '../registry/kinds/flowcontrol/bootstrap-configuration.js';
import type { Registry } from '../registry/registry.js';
import { existingOrCreate } from './bootstrap.js';

const GROUP = 'flowcontrol.apiserver.k8s.io';

function defaulted(resource: string, obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  findResource(GROUP, 'v1', resource)?.defaults?.(copy);
  return copy;
}

async function ensure(registry: Registry, resource: string, wanted: KubeObject, restore: boolean): Promise<void> {
  const store = registry.store(GROUP, resource)!;
  const obj = defaulted(resource, wanted);
  const current = await existingOrCreate(store, '', obj);
  if (current === undefined) return;
  if (!restore || annotationOf(current, AUTO_UPDATE_ANNOTATION) !== 'true' || semanticEqual(current.spec, obj.spec)) return;
  await store.guaranteedUpdate('', nameOf(obj), (cur) => ({ ...cur, spec: obj.spec }));
}

export async function bootstrapFlowControl(registry: Registry): Promise<void> {
  // Levels first: the schemas name them.
  await Promise.all([
    ...mandatoryPriorityLevelConfigurations.map((pl) => ensure(registry, 'prioritylevelconfigurations', pl, true)),
    ...suggestedPriorityLevelConfigurations.map((pl) => ensure(registry, 'prioritylevelconfigurations', pl, false)),
  ]);
  await Promise.all([
    ...mandatoryFlowSchemas.map((fs) => ensure(registry, 'flowschemas', fs, true)),
    ...suggestedFlowSchemas.map((fs) => ensure(registry, 'flowschemas', fs, false)),
  ]);
}
