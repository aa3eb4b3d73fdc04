// The scale subresource of a custom resource: replicas and selector read from and written to the
// paths its CRD names (`.spec.replicas`, `.status.replicas`, `.status.selector`), as an
// autoscaling/v1 Scale.
import { metadataOf } from '../../api/meta/object.js';
import type { KubeObject } from '../../api/schema/kind.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { cloneJson } from '../../machinery/clone.js';
import { valueAt } from '../../machinery/selectors/index.js';
import type { ScaleSubresource } from '../kind-module.js';
import type { CRDScale } from './crd.js';

/** The segments of a simple dotted path (`.spec.replicas` → spec, replicas). */
export function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function setNested(o: KubeObject, path: readonly string[], value: unknown): void {
  let cur: Record<string, unknown> = o;
  for (const p of path.slice(0, -1)) {
    const next = cur[p];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

export function customResourceScale(scale: CRDScale): ScaleSubresource {
  const spec = segments(scale.specReplicasPath);
  const status = segments(scale.statusReplicasPath);
  const selector = scale.labelSelectorPath ? segments(scale.labelSelectorPath) : undefined;
  return {
    type: 'scale',
    scaleOf(obj) {
      const m = metadataOf(obj);
      const specReplicas = valueAt(obj, spec);
      const statusReplicas = valueAt(obj, status);
      const scaleStatus: KubeObject = { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 };
      const sel = selector ? valueAt(obj, selector) : undefined;
      if (typeof sel === 'string' && sel !== '') scaleStatus.selector = sel;
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
        spec: { replicas: typeof specReplicas === 'number' ? specReplicas : 0 },
        status: scaleStatus,
      };
    },
    withReplicas(obj, replicas) {
      const next = cloneJson(obj);
      setNested(next, spec, replicas);
      return next;
    },
  };
}

/** Kubernetes' ValidateScaleSpec / ValidateScaleStatus of a custom resource with a scale subresource. */
export function validateScalePaths(obj: KubeObject, scale: CRDScale, which: { spec: boolean }): FieldError[] {
  const errors: FieldError[] = [];
  const check = (path: string) => {
    const v = valueAt(obj, segments(path));
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      errors.push(fieldError.invalid(path, v, accessorError(path, v, 'int64')));
    } else if (v < 0) errors.push(fieldError.invalid(path, v, 'should be a non-negative integer'));
    else if (v > 2147483647) errors.push(fieldError.invalid(path, v, `should be less than or equal to 2147483647`));
  };
  if (which.spec) check(scale.specReplicasPath);
  check(scale.statusReplicasPath);
  if (scale.labelSelectorPath) {
    const v = valueAt(obj, segments(scale.labelSelectorPath));
    if (v !== undefined && typeof v !== 'string')
      errors.push(fieldError.invalid(scale.labelSelectorPath, v, accessorError(scale.labelSelectorPath, v, 'string')));
  }
  return errors;
}

/** unstructured.NestedInt64/NestedString's error for a value of another type. */
function accessorError(path: string, v: unknown, expected: string): string {
  const shown = typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
  return `${path.replace(/^\./, '')} accessor error: ${shown} is of the type ${goType(v)}, expected ${expected}`;
}

function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (v === null) return '<nil>';
  return 'map[string]interface {}';
}
