// certificates.k8s.io CertificateSigningRequest: its strategies (strategy.ts), Kubernetes'
// `kubectl get csr` columns, the spec.signerName field selector, and the approval subresource
// (a PUT or PATCH of the object of which only status.conditions count).
import type { CertificateSigningRequest } from '../../../../api/types.js';
import type { KubeObject } from '../../../../api/schema/kind.js';
import { fieldAt, fieldLabelErrors } from '../../../../machinery/selectors/index.js';
import type { KindModule } from '../../../kind-module.js';
import * as fmt from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { csrApprovalStrategy, csrStrategy } from './strategy.js';

/** Kubernetes' extractCSRStatus: Denied over Approved over Pending, then Failed and Issued. */
export function csrCondition(csr: KubeObject): string {
  const status = fmt.obj(csr.status);
  const types = new Set(fmt.arr(status.conditions).map((c) => fmt.str(c.type)));
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) s += ',Failed';
  if (fmt.str(status.certificate) !== '') s += ',Issued';
  return s;
}

const csrPrinter: TablePrinter = {
  columns: [
    nameColumn,
    ageColumn,
    column('SignerName', 'string', 'The signer the request is addressed to.'),
    column('Requestor', 'string', 'The user who created the request.'),
    column('RequestedDuration', 'string', 'The validity the request asks for.'),
    column('Condition', 'string', 'Pending, Approved or Denied, and Failed or Issued.'),
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const signer = fmt.str(spec.signerName);
    const seconds = spec.expirationSeconds;
    return [
      fmt.nameCell(o),
      fmt.ageCell(o, now),
      signer === '' ? '<none>' : signer,
      fmt.str(spec.username),
      typeof seconds === 'number' ? fmt.humanDuration(seconds * 1000) : '<none>',
      csrCondition(o),
    ];
  },
};

export const certificateSigningRequestModule: KindModule = {
  group: 'certificates.k8s.io',
  kind: 'CertificateSigningRequest',
  strategy: csrStrategy as ResourceStrategy,
  printer: csrPrinter,
  selectableFields: { 'spec.signerName': fieldAt.string('spec', 'signerName') },
  fieldLabels: () => ({ labels: ['metadata.name', 'spec.signerName'], error: fieldLabelErrors.notSupported }),
  subresources: {
    approval: {
      type: 'replace-part',
      verbs: ['get', 'update', 'patch'],
      strategy: csrApprovalStrategy as ResourceStrategy,
      // The whole object is written; the approval strategy keeps all but metadata and the conditions.
      replace: (_current, requested) => requested as CertificateSigningRequest as KubeObject,
    },
  },
};
