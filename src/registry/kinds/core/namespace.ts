// Namespace: pkg/registry/core/namespace/strategy.go and ValidateNamespace*. The `kubernetes`
// finalizer and the Active phase are set on create; spec.finalizers only changes through
// namespaces/finalize, status only through namespaces/status.
import { prepareNamespaceForCreate } from '../../../api/core/v1/defaults-other.js';
import type { Namespace, NamespaceSpec } from '../../../api/types.js';
import { metadataOf } from '../../../api/meta/object.js';
import { index, str, strs } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { nameIsDNSLabel } from '../../../machinery/validation/names.js';
import { validateFinalizerName, validateKubeFinalizerName } from '../../../machinery/validation/object-meta.js';
import { struct } from '../../../machinery/validation/structs.js';
import type { ResourceStrategy } from '../../strategy.js';
import { cloneJson } from '../../meta.js';
import type { KindModule } from '../../kind-module.js';
import { fieldAt, fieldLabelErrors } from '../../../machinery/selectors/index.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

/** validateFinalizerName (core): qualified, and standard when unqualified. */
function finalizerErrors(finalizers: NamespaceSpec['finalizers'], indexed: boolean): FieldError[] {
  const errs: FieldError[] = [];
  strs(finalizers).forEach((f, i) => {
    // ValidateNamespace reports every finalizer on `spec.finalizers`; the finalize path indexes them.
    const path = indexed ? index('spec.finalizers', i) : 'spec.finalizers';
    errs.push(...validateFinalizerName(f, path), ...validateKubeFinalizerName(f, path));
  });
  return errs;
}

function keepFinalizers(ns: Namespace, old: Namespace): void {
  const spec = struct(ns.spec);
  const oldFinalizers = struct(old.spec).finalizers;
  if (oldFinalizers === undefined) delete spec.finalizers;
  else spec.finalizers = cloneJson(oldFinalizers);
  ns.spec = spec;
}

export const namespaceStrategy: ResourceStrategy<Namespace> = {
  hasStatus: true,
  tracksGeneration: false,
  nameValidator: nameIsDNSLabel,
  // Kubernetes' namespace REST: the first delete only starts termination (Terminating, no grace
  // period); the namespace controller empties it and removes spec.finalizers, then it goes.
  beginDeletion(ns) {
    ns.status = { ...struct(ns.status), phase: 'Terminating' };
  },
  holdsDeletion: (ns) => strs(struct(ns.spec).finalizers).length > 0,
  deletionHeldMessage:
    'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
  prepareForCreate(ns) {
    prepareNamespaceForCreate(ns);
  },
  prepareForUpdate(ns, old) {
    keepFinalizers(ns, old);
    ns.status = cloneJson(old.status);
  },
  validate(ns) {
    return finalizerErrors(struct(ns.spec).finalizers, false);
  },
  validateUpdate() {
    return [];
  },
  prepareForStatusUpdate(ns, old) {
    ns.spec = cloneJson(old.spec);
  },
  validateStatusUpdate(ns) {
    const phase = str(struct(ns.status).phase);
    const deleting = metadataOf(ns).deletionTimestamp;
    if (deleting === undefined || deleting === null) {
      if (phase !== 'Active') return [fieldError.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
    } else if (phase !== 'Terminating') {
      return [fieldError.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
    }
    return [];
  },
};

/** namespaces/finalize: only spec.finalizers changes (status is kept). */
export const namespaceFinalizeStrategy: ResourceStrategy<Namespace> = {
  hasStatus: true,
  tracksGeneration: false,
  nameValidator: nameIsDNSLabel,
  prepareForUpdate(ns, old) {
    ns.status = cloneJson(old.status);
  },
  validate: () => [],
  validateUpdate(ns) {
    return finalizerErrors(struct(ns.spec).finalizers, true);
  },
};

/** namespaces/finalize: the requested spec.finalizers replace the stored ones (none: the field goes). */
function replaceFinalizers(ns: Namespace, requested: Namespace): Namespace {
  const finalizers = requested.spec?.finalizers ?? [];
  ns.spec = { ...ns.spec, finalizers: finalizers.length > 0 ? finalizers : undefined };
  return ns;
}

const namespacePrinter: TablePrinter = {
  columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), fmt.str(fmt.obj(o.status).phase), fmt.ageCell(o, now)],
};

export const namespaceModule: KindModule = {
  group: '',
  kind: 'Namespace',
  strategy: namespaceStrategy,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  printer: namespacePrinter,
  selectableFields: { 'status.phase': fieldAt.string('status', 'phase'), name: fieldAt.string('metadata', 'name') },
  fieldLabels: () => ({ labels: ['status.phase', 'metadata.name'], error: fieldLabelErrors.notSupported }),
  subresources: {
    finalize: {
      type: 'replace-part',
      verbs: ['update'],
      strategy: namespaceFinalizeStrategy,
      replace: replaceFinalizers,
    },
  },
};
