// The Scale type that apps/v1beta1, apps/v1beta2 and extensions/v1beta1 each declared for the
// `scale` subresource (same shape in all three), which their versions of the workloads answer
// (KindVersion.scaleKind; see registry/replicas-scale.ts for the conversion from autoscaling/v1).
import { ObjectMeta } from '../meta/v1.js';
import { field, mapOf, struct, t, typeMetaFields, type StructType } from '../schema/dsl.js';

/**
 * Declares `<pkg>ScaleSpec`, `<pkg>ScaleStatus` and `<pkg>Scale`; `pkg` like `io.k8s.api.apps.v1beta2.`.
 * apps/v1beta2 marks status.selector `+mapType=atomic` and status.replicas `+optional`; the others do not.
 */
export function declareScale(pkg: string, v1beta2Markers = false) {
  const ScaleSpec = struct(pkg + 'ScaleSpec', {
    replicas: field(t.int32, 1),
  });
  const ScaleStatus = struct(pkg + 'ScaleStatus', {
    replicas: field(t.int32, 1, { omitempty: false, required: !v1beta2Markers }),
    selector: field(mapOf(t.string), 2, v1beta2Markers ? { mapType: 'atomic' } : {}),
    targetSelector: field(t.string, 3),
  });
  const Scale = struct(pkg + 'Scale', {
    ...typeMetaFields,
    metadata: field(ObjectMeta, 1),
    spec: field(ScaleSpec, 2),
    status: field(ScaleStatus, 3),
  });
  return { ScaleSpec, ScaleStatus, Scale } satisfies Record<string, StructType>;
}
