// The scale subresource of a kind whose spec.replicas is its size and status.replicas its
// observed size (deployments, replicasets, statefulsets, replicationcontrollers): an
// autoscaling/v1 Scale with the selector of its pods as a string.
import { metadataOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { num, obj, validateNonnegativeField, type Obj } from '../machinery/validation/common.js';
import type { FieldError } from '../machinery/validation/field-errors.js';
import type { ScaleSubresource } from './kind-module.js';
import { formatLabelSelector } from './printers/format.js';

/** A kind's scale by spec.replicas; `selectorOf` reads its spec's pod selector as a metav1.LabelSelector. */
export function replicasScale(selectorOf: (spec: KubeObject) => unknown = (spec) => spec.selector): ScaleSubresource {
  return {
    type: 'scale',
    scaleOf(obj) {
      const m = metadataOf(obj);
      const spec = (obj.spec ?? {}) as KubeObject;
      const status = (obj.status ?? {}) as KubeObject;
      const selector = formatLabelSelector(selectorOf(spec));
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
    },
    withReplicas: (obj, replicas) => ({ ...obj, spec: { ...((obj.spec as KubeObject | undefined) ?? {}), replicas } }),
  };
}

/** ValidateScale: spec.replicas must not be negative (the Status names kind Scale, group autoscaling). */
export function validateScale(scale: Obj): FieldError[] {
  return validateNonnegativeField(num(obj(scale.spec).replicas), 'spec.replicas');
}
