// Kubernetes' customResourceStrategy: status kept out of the main resource when the status
// subresource is on, the generation counting every change outside metadata, validation against
// the schema of the version the request came in, the scale paths, finalizer-name warnings.
import { metadataOf } from '../../api/meta/object.js';
import type { KubeObject } from '../../api/schema/kind.js';
import type { FieldError } from '../../machinery/validation/field-errors.js';
import { isQualifiedName } from '../../machinery/validation/names.js';
import { deepEqual } from '../../machinery/typed/index.js';
import type { ResourceStrategy, StrategyContext } from '../strategy.js';
import type { CRDScale } from './crd.js';
import { validateScalePaths } from './scale.js';
import type { VersionSchema } from './schema.js';

export interface CustomResourceStrategyOptions {
  /** The status subresource is served. */
  status: boolean;
  scale?: CRDScale;
  /** The schema of each version (`<group>/<version>`) and of the storage version. */
  schemaOf(requestGroupVersion: string | undefined): VersionSchema;
}

const STANDARD_FINALIZERS = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

function sameContent(a: KubeObject, b: KubeObject): boolean {
  const { metadata: _a, ...ra } = a;
  const { metadata: _b, ...rb } = b;
  return deepEqual(ra, rb);
}

/** Warnings for finalizer names that are not domain-qualified (Kubernetes' validateKubeFinalizerName). */
function finalizerWarnings(obj: KubeObject, old: KubeObject | undefined): string[] {
  const before = new Set(old ? ((metadataOf(old).finalizers as string[] | undefined) ?? []) : []);
  const added = [...new Set((metadataOf(obj).finalizers as string[] | undefined) ?? [])].filter((f) => !before.has(f)).sort();
  const warnings: string[] = [];
  for (const f of added) {
    for (const msg of isQualifiedName(f)) warnings.push(`metadata.finalizers: ${JSON.stringify(f)}: ${msg}`);
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      warnings.push(
        f.includes('.')
          ? `metadata.finalizers: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
          : `metadata.finalizers: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
      );
    }
  }
  return warnings;
}

export function customResourceStrategy(opts: CustomResourceStrategyOptions): ResourceStrategy {
  const validate = (obj: KubeObject, old: KubeObject | undefined, ctx: StrategyContext): FieldError[] => {
    const errors = opts.schemaOf(ctx.requestGroupVersion).validate(obj, old);
    if (opts.scale) errors.push(...validateScalePaths(obj, opts.scale, { spec: true }));
    return errors;
  };
  return {
    hasStatus: opts.status,
    tracksGeneration: true,
    genericObjectMeta: true,
    prepareForUpdate(obj, old) {
      // Every change outside metadata counts (the status too, when it is not a subresource).
      if (!sameContent(obj, old)) {
        const generation = metadataOf(old).generation;
        metadataOf(obj).generation = (typeof generation === 'number' ? generation : 0) + 1;
      }
    },
    validate: (obj, ctx) => validate(obj, undefined, ctx),
    validateUpdate: (obj, old, ctx) => validate(obj, old, ctx),
    prepareForStatusUpdate(obj, old) {
      // Only the status changes through /status; metadata stays as it was, except the managed fields.
      const managedFields = metadataOf(obj).managedFields;
      const resourceVersion = metadataOf(obj).resourceVersion;
      obj.metadata = { ...metadataOf(old) };
      const m = metadataOf(obj);
      if (managedFields === undefined) delete m.managedFields;
      else m.managedFields = managedFields;
      if (resourceVersion !== undefined) m.resourceVersion = resourceVersion;
    },
    validateStatusUpdate(obj, old, ctx) {
      const errors = opts.schemaOf(ctx.requestGroupVersion).validate(obj, old).filter((e) => e.field === 'status' || e.field.startsWith('status.') || e.field.startsWith('status['));
      if (opts.scale) errors.push(...validateScalePaths(obj, opts.scale, { spec: false }));
      return errors;
    },
    warnings: finalizerWarnings,
  };
}
