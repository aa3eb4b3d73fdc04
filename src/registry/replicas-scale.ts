// The scale subresource of a kind whose spec.replicas is its size and status.replicas its
// observed size (deployments, replicasets, statefulsets, replicationcontrollers): an
// autoscaling/v1 Scale with the selector of its pods as a string; and that Scale as apps/v1beta1,
// apps/v1beta2 and extensions/v1beta1 serve their own (toVersionedScale, fromVersionedScale).
import { metadataOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { num, obj, validateNonnegativeField, type Obj } from '../machinery/validation/common.js';
import type { FieldError } from '../machinery/validation/field-errors.js';
import type { ScaleSubresource } from './kind-module.js';
import { formatLabelSelector } from './printers/format.js';
import { LabelSelector, parseLabelSelector } from '../machinery/selectors/labels.js';

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

/**
 * metav1.ParseToLabelSelector's matchLabels of a selector string, or undefined when it has other
 * terms (set-based or existence requirements) or does not parse.
 */
function equalityLabels(selector: string): Record<string, string> | undefined {
  let parsed;
  try {
    parsed = parseLabelSelector(selector);
  } catch {
    return undefined;
  }
  const labels: Record<string, string> = {};
  for (const r of parsed.requirements) {
    if (r.operator !== '=' && r.operator !== '==') return undefined;
    labels[r.key] = r.values[0] ?? '';
  }
  return labels;
}

/**
 * The Scale of a group/version that declares its own (apps/v1beta1, apps/v1beta2,
 * extensions/v1beta1), from the autoscaling/v1 Scale: as Convert_autoscaling_ScaleStatus_To_<v>,
 * status.targetSelector is the selector string and status.selector its labels when it has only
 * equality terms.
 */
export function toVersionedScale(scale: KubeObject, apiVersion: string): KubeObject {
  const status = (scale.status ?? {}) as KubeObject;
  const selector = typeof status.selector === 'string' ? status.selector : '';
  const versioned: KubeObject = { replicas: status.replicas ?? 0 };
  const labels = equalityLabels(selector);
  if (labels && Object.keys(labels).length > 0) versioned.selector = labels;
  if (selector !== '') versioned.targetSelector = selector;
  return { ...scale, apiVersion, status: versioned };
}

/** The autoscaling/v1 Scale of a versioned one (targetSelector, else the selector labels as a string). */
export function fromVersionedScale(scale: KubeObject): KubeObject {
  const status = (scale.status ?? {}) as KubeObject;
  const out: KubeObject = { replicas: status.replicas ?? 0 };
  const selector = typeof status.targetSelector === 'string' && status.targetSelector !== '' ? status.targetSelector : LabelSelector.fromSet(obj(status.selector) as Record<string, string>).toString();
  if (selector !== '') out.selector = selector;
  return { ...scale, apiVersion: 'autoscaling/v1', status: out };
}
