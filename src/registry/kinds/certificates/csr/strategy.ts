// Kubernetes' CSR strategies (pkg/registry/certificates/certificates/strategy.go): the main
// resource records the requesting user and starts with no conditions, and its spec and status are
// immutable through it; the status path changes status but keeps spec and the Approved/Denied
// conditions; the approval path changes the conditions only. Both fill condition timestamps.
import type { CertificateSigningRequest, CertificateSigningRequestCondition, CertificateSigningRequestSpec } from '../../../../api/types.js';
import { timestamp } from '../../../meta.js';
import type { ResourceStrategy, StrategyContext } from '../../../strategy.js';
import {
  validateCertificateSigningRequestApprovalUpdate,
  validateCertificateSigningRequestCreate,
  validateCertificateSigningRequestStatusUpdate,
  validateCertificateSigningRequestUpdate,
} from './validation.js';

type Condition = CertificateSigningRequestCondition;

const conditionsOf = (csr: CertificateSigningRequest): Condition[] => (Array.isArray(csr.status?.conditions) ? csr.status.conditions : []);

/** Kubernetes' populateConditionTimestamps: lastUpdateTime now if unset; lastTransitionTime kept from an old condition of the same type and status, else now. */
export function populateConditionTimestamps(csr: CertificateSigningRequest, old: CertificateSigningRequest, now: number): void {
  const at = timestamp(now);
  for (const c of conditionsOf(csr)) {
    if (!c.lastUpdateTime) c.lastUpdateTime = at;
    if (!c.lastTransitionTime) {
      const same = conditionsOf(old).find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime);
      c.lastTransitionTime = same?.lastTransitionTime ?? at;
    }
  }
}

/** Kubernetes' preserveConditionInstances: the instances of `type` stay as stored unless some were added or removed. */
function preserveConditionInstances(csr: CertificateSigningRequest, old: CertificateSigningRequest, type: string): void {
  const next = conditionsOf(csr);
  const before = conditionsOf(old).filter((c) => c.type === type);
  const indices = next.flatMap((c, i) => (c.type === type ? [i] : []));
  if (indices.length !== before.length) return;
  indices.forEach((index, i) => (next[index] = structuredClone(before[i]!)));
}

export const csrStrategy: ResourceStrategy<CertificateSigningRequest> = {
  hasStatus: true,
  tracksGeneration: false,
  // ValidateCertificateRequestName accepts any name ObjectMeta allows.
  nameValidator: () => [],
  prepareForCreate(csr, ctx: StrategyContext) {
    // Who asked is the request's user, whatever the client wrote.
    const spec = (csr.spec ??= {} as CertificateSigningRequestSpec);
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    const user = ctx.user;
    if (user) {
      if (user.name !== '') spec.username = user.name;
      if (user.uid) spec.uid = user.uid;
      if (user.groups.length > 0) spec.groups = [...user.groups];
      if (user.extra && Object.keys(user.extra).length > 0) spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
    }
    // Users cannot create pre-approved (or pre-issued) requests.
    csr.status = {};
  },
  prepareForUpdate(csr, old) {
    csr.spec = structuredClone(old.spec);
    if (old.status === undefined) delete csr.status;
    else csr.status = structuredClone(old.status);
  },
  validate: (csr) => validateCertificateSigningRequestCreate(csr),
  validateUpdate: (csr, old) => validateCertificateSigningRequestUpdate(csr, old),
  prepareForStatusUpdate(csr, old, ctx) {
    csr.spec = structuredClone(old.spec);
    preserveConditionInstances(csr, old, 'Approved');
    preserveConditionInstances(csr, old, 'Denied');
    populateConditionTimestamps(csr, old, ctx.now);
  },
  validateStatusUpdate: (csr, old) => validateCertificateSigningRequestStatusUpdate(csr, old),
};

/**
 * The approval subresource's rules: only status.conditions come from the request. The store's
 * main-resource path calls it (it is a replace-part subresource), so `hasStatus` is false here:
 * the status is the request's conditions over the stored status, set by `withConditions`.
 */
export const csrApprovalStrategy: ResourceStrategy<CertificateSigningRequest> = {
  hasStatus: false,
  tracksGeneration: false,
  nameValidator: () => [],
  prepareForUpdate(csr, old, ctx) {
    populateConditionTimestamps(csr, old, ctx.now);
    const conditions = csr.status?.conditions;
    csr.spec = structuredClone(old.spec);
    csr.status = { ...structuredClone(old.status ?? {}), conditions };
    if (conditions === undefined) delete csr.status.conditions;
  },
  validate: (csr) => validateCertificateSigningRequestCreate(csr),
  validateUpdate: (csr, old) => validateCertificateSigningRequestApprovalUpdate(csr, old),
};
