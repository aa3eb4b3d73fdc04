// storage.k8s.io CSIDriver: ValidateCSIDriver(Update) (the booleans that defaults fill are
// required; attachRequired and volumeLifecycleModes immutable), generation on spec changes, and
// `kubectl get csidrivers`.
import type { CSIDriver } from '../../../api/types.js';
import { obj, objs, optNum, strs, validateImmutableField } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Persistent', 'Ephemeral'];

export function validateCSIDriverSpec(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  // Kubernetes' path for attachRequired is spelled `attachedRequired`.
  for (const [k, path] of [['attachRequired', 'spec.attachedRequired'], ['podInfoOnMount', 'spec.podInfoOnMount'], ['storageCapacity', 'spec.storageCapacity']] as const) {
    if (spec[k] === undefined || spec[k] === null) errs.push(fieldError.required(path));
  }
  const policy = spec.fsGroupPolicy;
  if (typeof policy === 'string' && !fsGroupPolicies.includes(policy)) errs.push(fieldError.notSupported('spec.fsGroupPolicy', policy, fsGroupPolicies));
  const audiences = new Set<string>();
  objs(spec.tokenRequests).forEach((tr, i) => {
    const p = `spec.tokenRequests[${i}]`;
    const audience = typeof tr.audience === 'string' ? tr.audience : '';
    if (audiences.has(audience)) {
      errs.push(fieldError.duplicate(`${p}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const exp = optNum(tr.expirationSeconds);
    if (exp === undefined) return;
    if (exp < 600) errs.push(fieldError.invalid(`${p}.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
    if (exp > 2 ** 32) errs.push(fieldError.invalid(`${p}.expirationSeconds`, exp, 'may not specify a duration larger than 2^32 seconds'));
  });
  for (const mode of strs(spec.volumeLifecycleModes)) {
    if (!lifecycleModes.includes(mode)) errs.push(fieldError.notSupported('spec.volumeLifecycleModes', mode, lifecycleModes));
  }
  // SELinuxMountReadWriteOncePod is on in 1.33: seLinuxMount is defaulted, then required.
  if (spec.seLinuxMount === undefined || spec.seLinuxMount === null) errs.push(fieldError.required('spec.seLinuxMount'));
  const period = optNum(spec.nodeAllocatableUpdatePeriodSeconds);
  if (period !== undefined && period < 10) errs.push(fieldError.invalid('spec.nodeAllocatableUpdatePeriodSeconds', period, 'must be greater than or equal to 10 seconds'));
  return errs;
}

export const csiDriverStrategy: ResourceStrategy<CSIDriver> = {
  hasStatus: false,
  tracksGeneration: true,
  validate: (d) => validateCSIDriverSpec(obj(d.spec)),
  validateUpdate: (d, old) => [
    ...validateCSIDriverSpec(obj(d.spec)),
    ...validateImmutableField(d.spec?.attachRequired, old.spec?.attachRequired, 'spec.attachedRequired'),
    ...validateImmutableField(d.spec?.volumeLifecycleModes, old.spec?.volumeLifecycleModes, 'spec.volumeLifecycleModes'),
  ],
};

const csiDriverPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('AttachRequired', 'boolean', 'Whether volumes of the driver need an attach step.'),
    column('PodInfoOnMount', 'boolean', 'Whether the driver receives pod information on mount.'),
    column('StorageCapacity', 'boolean', 'Whether the scheduler considers the capacity the driver reports.'),
    column('TokenRequests', 'string', 'Audiences of the service account tokens passed to the driver.'),
    column('RequiresRepublish', 'boolean', 'Whether volumes are periodically republished.'),
    column('Modes', 'string', 'The volume lifecycle modes the driver supports.'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const modes = strs(spec.volumeLifecycleModes).join(',');
    const tokenRequests = Array.isArray(spec.tokenRequests) ? objs(spec.tokenRequests).map((t) => fmt.str(t.audience)).join(',') : '<unset>';
    return [
      fmt.nameCell(o),
      spec.attachRequired !== false,
      spec.podInfoOnMount === true,
      spec.storageCapacity === true,
      tokenRequests,
      spec.requiresRepublish === true,
      modes === '' ? '<none>' : modes,
      fmt.ageCell(o, now),
    ];
  },
};

export const csiDriverModule: KindModule = { group: 'storage.k8s.io', kind: 'CSIDriver', strategy: csiDriverStrategy, printer: csiDriverPrinter };
