// Every kind module, found by the kind's group and kind: the one place the API server and the
// registry learn what is specific to a kind. A group's modules are listed in its own index, as
// its kinds are in api/<group>/kinds.ts; a stored kind without a module is served with the
// generic module its schema implies (generic strategy, default table, metadata fields only).
import { storageVersionOf } from '../../api/kinds.js';
import type { KindVersion } from '../../api/schema/kind.js';
import { defaultFieldLabelConversion, selectableFieldSet, type FieldLabelConversion } from '../../machinery/selectors/index.js';
import { genericStrategy } from '../generic-strategy.js';
import type { GroupKind, KindModule } from '../kind-module.js';
import type { FieldsOf } from '../materialize.js';
import { defaultPrinter } from '../printers/default.js';
import type { TablePrinter } from '../printers/types.js';
import { apiregistrationModules } from './apiregistration/index.js';
import { admissionregistrationModules } from './admissionregistration/index.js';
import { appsModules } from './apps/index.js';
import { autoscalingModules } from './autoscaling/index.js';
import { batchModules } from './batch/index.js';
import { certificatesModules } from './certificates/index.js';
import { coordinationModules } from './coordination/index.js';
import { networkingModules } from './networking/index.js';
import { coreModules } from './core/index.js';
import { flowcontrolModules } from './flowcontrol/index.js';
import { metricsModules } from './metrics/index.js';
import { policyModules } from './policy/index.js';
import { discoveryModules } from './discovery/index.js';
import { nodeModules } from './node/index.js';
import { rbacModules } from './rbac/index.js';
import { schedulingModules } from './scheduling/index.js';
import { storageModules } from './storage/index.js';
import { apiextensionsModules } from './apiextensions/index.js';

export const kindModules: readonly KindModule[] = [
  ...coreModules,
  ...appsModules,
  ...batchModules,
  ...coordinationModules,
  ...rbacModules,
  ...autoscalingModules,
  ...policyModules,
  ...flowcontrolModules,
  ...apiregistrationModules,
  ...metricsModules,
  ...networkingModules,
  ...discoveryModules,
  ...schedulingModules,
  ...nodeModules,
  ...certificatesModules,
  ...admissionregistrationModules,
  ...storageModules,
  ...apiextensionsModules,
];

const keyOf = (gk: GroupKind): string => `${gk.group}/${gk.kind}`;
const byGroupKind = new Map<string, KindModule>();
for (const m of kindModules) {
  if (byGroupKind.has(keyOf(m))) throw new Error(`two modules for ${keyOf(m)}`);
  byGroupKind.set(keyOf(m), m);
}
// Found once per served KindVersion: requests ask on every patch, delete and Table.
const found = new WeakMap<KindVersion, KindModule>();

/** The module of a served kind, in any of its versions (all share the storage version's module). */
export function moduleOf(kind: KindVersion): KindModule {
  let m = found.get(kind);
  if (m) return m;
  const hub = storageVersionOf(kind);
  m = byGroupKind.get(keyOf(hub)) ?? found.get(hub) ?? { group: hub.group, kind: hub.kind, strategy: genericStrategy(hub) };
  found.set(hub, m);
  found.set(kind, m);
  return m;
}

/** Makes `module` the module of `kind` (a custom resource's KindVersion, built while serving). */
export function registerModule(kind: KindVersion, module: KindModule): void {
  found.set(kind, module);
}

/** Whether a kind has a module of its own (not the generic one). */
export function hasOwnModule(kind: KindVersion): boolean {
  return byGroupKind.has(keyOf(storageVersionOf(kind)));
}

/** The Table columns of a kind (the default table when its module has none). */
export function printerOf(kind: KindVersion): TablePrinter {
  return moduleOf(kind).printer ?? defaultPrinter;
}

/** The field labels a request in `served`'s group/version may use. */
export function fieldLabelsOf(served: KindVersion): FieldLabelConversion {
  return moduleOf(served).fieldLabels?.(served) ?? defaultFieldLabelConversion;
}

/** The selectable fields of a kind's stored objects (what the watch cache keeps per object). */
export function fieldsOf(module: KindModule): FieldsOf {
  return selectableFieldSet(module.selectableFields);
}
