// The pod subresources that are not status: binding (the scheduler assigns a node), eviction
// (kubectl drain deletes through it), ephemeralcontainers and resize (parts of the spec with their
// own rules), and the connections to the pod's node (log, exec, attach, portforward, proxy).
import { Binding } from '../../../../api/core/v1/binding.js';
import { annotationsOf, isBeingDeleted } from '../../../../api/meta/object.js';
import { Eviction } from '../../../../api/policy/v1.js';
import type { Binding as BindingObject, Eviction as EvictionObject, Pod } from '../../../../api/types.js';
import { struct } from '../../../../machinery/validation/structs.js';
import { apiError } from '../../../errors.js';
import type { ActionSubresource, DeleteBySubresource, NodeConnectionSubresource, ReplacePartSubresource } from '../../../kind-module.js';
import { metaOf, str, timestamp } from '../../../meta.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { evictPod } from './eviction.js';
import { podEphemeralContainersStrategy, podResizeStrategy, podStrategy, validateBinding } from './strategy.js';

// pods/binding writes spec.nodeName, annotations and the PodScheduled condition directly, as
// Kubernetes' binding REST does: not through the pod update rules that forbid those changes.
const podBindingStrategy: ResourceStrategy<Pod> = { ...podStrategy, hasStatus: false, prepareForUpdate: undefined, validateUpdate: () => [] };

/** Kubernetes' binding REST (assignPod): the node name, the binding's annotations and PodScheduled=True. */
function bindPod(pod: Pod, binding: BindingObject, { name, now }: { name: string; now: number }): Pod {
  if (isBeingDeleted(pod)) throw apiError.conflict({ group: '', resource: 'pods' }, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  const spec = struct(pod.spec);
  if (str(spec.nodeName) !== '') {
    throw apiError.conflict({ group: '', resource: 'pods/binding' }, name, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
  }
  const annotations = annotationsOf(binding);
  if (Object.keys(annotations).length > 0) metaOf(pod).annotations = { ...annotationsOf(pod), ...annotations };
  spec.nodeName = str(struct(binding.target).name);
  pod.spec = spec;
  const status = struct(pod.status);
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter((c) => c.type !== 'PodScheduled') : [];
  conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timestamp(now) });
  status.conditions = conditions;
  pod.status = status;
  return pod;
}

/** pods/binding: a Binding to a node, for a pod not yet assigned and not being deleted. */
export const podBinding: ActionSubresource = {
  type: 'action',
  request: Binding,
  check(binding, name) {
    const errors = validateBinding(binding);
    if (errors.length > 0) throw apiError.invalid('Binding', '', name, errors);
  },
  admit: 'stored',
  apply: bindPod,
  strategy: podBindingStrategy,
  success: { code: 201 },
};

/** pods/eviction: a policy/v1 Eviction deletes the pod with its deleteOptions, if its disruption budget allows (./eviction.ts). */
export const podEviction: DeleteBySubresource = {
  type: 'delete-by',
  request: Eviction,
  check(eviction, name) {
    if (str(metaOf(eviction).name) !== name) throw apiError.badRequest('name in URL does not match name in Eviction object');
  },
  guardedDelete: evictPod,
  deleteOptionsOf(eviction: EvictionObject) {
    const opts = struct(eviction.deleteOptions);
    const pre = struct(opts.preconditions);
    return {
      gracePeriodSeconds: typeof opts.gracePeriodSeconds === 'number' ? opts.gracePeriodSeconds : undefined,
      preconditions: { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined },
      dryRun: Array.isArray(opts.dryRun) && opts.dryRun.includes('All'),
    };
  },
};

// Their strategies keep everything else from the stored pod, so the request replaces the whole
// (kubectl debug patches ephemeralcontainers; in-place resize patches resize).
export const podEphemeralContainers: ReplacePartSubresource = { type: 'replace-part', verbs: ['get', 'patch', 'update'], strategy: podEphemeralContainersStrategy, replace: (_, requested) => requested };
export const podResize: ReplacePartSubresource = { type: 'replace-part', verbs: ['get', 'patch', 'update'], strategy: podResizeStrategy, replace: (_, requested) => requested };

export const podNodeConnection: NodeConnectionSubresource = {
  type: 'node-connection',
  nodeNameOf: (pod: Pod) => str(pod.spec?.nodeName),
};
