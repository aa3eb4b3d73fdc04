// Kubernetes' CertificateSigningRequest validation (pkg/apis/certificates/validation): the request
// must be a PKCS#10 request whose signature verifies, the signer a qualified name, the usages
// known and unique, the conditions consistent; updates may not remove Approved/Denied/Failed
// conditions, and only the approval path may add or change Approved/Denied, only the status path
// set the certificate. Problems already present in the stored object are tolerated on update.
import { X509Certificate } from 'node:crypto';
import type { CertificateSigningRequest } from '../../../../api/types.js';
import { isObj, objs, optNum, str, strs } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../../machinery/validation/names.js';
import { certificateRequestProblem } from '../../../../machinery/x509/csr.js';

export const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';

/** The key usages a request may ask for (Kubernetes' allValidUsages), sorted as its messages list them. */
export const VALID_USAGES: readonly string[] = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];

const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);

/** What an update may do, by its path (main resource, status, approval) and what the stored object already has. */
interface Options {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const bytesOf = (v: unknown): Buffer => Buffer.from(str(v), 'base64');
const specOf = (csr: CertificateSigningRequest) => (isObj(csr.spec) ? csr.spec : {}) as Record<string, unknown>;
const statusOf = (csr: CertificateSigningRequest) => (isObj(csr.status) ? csr.status : {}) as Record<string, unknown>;
const conditionsOf = (csr: CertificateSigningRequest) => objs(statusOf(csr).conditions);

/** Go's %#v of a []byte (the bad value of spec.request). */
function goBytes(b: Buffer): string {
  return `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(', ')}}`;
}

/** Kubernetes' validateCertificate: status.certificate, when set, is CERTIFICATE PEM blocks only, each parsing. */
export function certificateProblem(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const text = pem.toString('latin1');
  const blockRe = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  let blocks = 0;
  for (let m = blockRe.exec(text); m; m = blockRe.exec(text)) {
    if (m[1] !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(m[1])}`;
    const lines = m[2]!.split(/\r?\n/);
    if (lines.some((l) => l.includes(':'))) return 'no PEM block headers are permitted';
    blocks++;
    try {
      new X509Certificate(Buffer.from(lines.join(''), 'base64'));
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/** Kubernetes' ValidateSignerName (pkg/apis/core/validation). */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName === '') return [fieldError.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [fieldError.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const errs: FieldError[] = [];
  const [domain, signerPath] = segments as [string, string];
  if (Buffer.byteLength(domain) > 253) errs.push(fieldError.tooLong(path, 253));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const problems = isDNS1123Label(label);
    for (const p of problems) errs.push(fieldError.invalid(path, domain, `validating label ${JSON.stringify(label)}: ${p}`));
    if (problems.length > 0) break;
  }
  if (domainLabels.length < 2) errs.push(fieldError.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of signerPath.split('.')) {
    const problems = isDNS1123Subdomain(label);
    for (const p of problems) errs.push(fieldError.invalid(path, signerPath, `validating label ${JSON.stringify(label)}: ${p}`));
    if (problems.length > 0) break;
  }
  const max = 253 + 253 + 63 + 1 + 1;
  if (Buffer.byteLength(signerName) > max) errs.push(fieldError.tooLong(path, max));
  return errs;
}

function validateConditions(csr: CertificateSigningRequest, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    const type = str(c.type);
    const status = str(c.status);
    if (!opts.allowEmptyConditionType && type === '') errs.push(fieldError.required(`${at}.type`));
    const allowed = TRUE_ONLY_TYPES.has(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (status === '') errs.push(fieldError.required(`${at}.status`));
    else if (!allowed.includes(status)) errs.push(fieldError.notSupported(`${at}.status`, status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === 'Approved') {
        approved = true;
        if (denied) errs.push(fieldError.invalid(`${at}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        denied = true;
        if (approved) errs.push(fieldError.invalid(`${at}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(fieldError.duplicate(`${at}.type`, type));
      seen.add(type);
    }
  });
  return errs;
}

function validate(csr: CertificateSigningRequest, opts: Options): FieldError[] {
  const spec = specOf(csr);
  const errs: FieldError[] = [];
  const request = bytesOf(spec.request);
  const problem = certificateRequestProblem(request);
  if (problem !== undefined) errs.push(fieldError.invalidRaw('spec.request', goBytes(request), problem));
  const usages = strs(spec.usages);
  if (usages.length === 0) errs.push(fieldError.required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!VALID_USAGES.includes(u)) errs.push(fieldError.notSupported(`spec.usages[${i}]`, u, VALID_USAGES));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldError.duplicate(`spec.usages[${i}]`, u));
      seen.add(u);
    });
  }
  const signerName = str(spec.signerName);
  if (!opts.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER) {
    errs.push(fieldError.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName('spec.signerName', signerName));
  }
  const expiration = optNum(spec.expirationSeconds);
  if (expiration !== undefined && expiration < 600) errs.push(fieldError.invalid('spec.expirationSeconds', expiration, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const certProblem = certificateProblem(bytesOf(statusOf(csr).certificate));
    if (certProblem !== undefined) errs.push(fieldError.invalid('status.certificate', '<certificate data>', certProblem));
  }
  return errs;
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

/** Kubernetes' getValidationOptions: tolerate on update what the stored object already has. */
function optionsFor(csr: CertificateSigningRequest, old: CertificateSigningRequest | undefined): Options {
  const oldTypes = old ? conditionsOf(old).map((c) => str(c.type)) : [];
  const oldUsages = old ? strs(specOf(old).usages) : [];
  const sameCertificate = old !== undefined && str(statusOf(csr).certificate) === str(statusOf(old).certificate);
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    allowLegacySignerName: old !== undefined && str(specOf(old).signerName) === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate: sameCertificate || (old !== undefined && certificateProblem(bytesOf(statusOf(old).certificate)) !== undefined),
    allowUnknownUsages: oldUsages.some((u) => !VALID_USAGES.includes(u)),
    allowDuplicateUsages: hasDuplicates(oldUsages),
  };
}

export function validateCertificateSigningRequestCreate(csr: CertificateSigningRequest): FieldError[] {
  return validate(csr, optionsFor(csr, undefined));
}

const ofType = (csr: CertificateSigningRequest, type: string) => conditionsOf(csr).filter((c) => str(c.type) === type);

function validateUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest, opts: Options): FieldError[] {
  const errs = validate(csr, opts);
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (ofType(csr, type).length < ofType(old, type).length) errs.push(fieldError.forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(type)}`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const type of ['Approved', 'Denied']) {
      const before = ofType(old, type);
      const after = ofType(csr, type);
      if (after.length > before.length) errs.push(fieldError.forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(type)}`));
      else if (after.length === before.length && JSON.stringify(after) !== JSON.stringify(before)) {
        // Kubernetes appends a go-cmp diff of the two lists; kubelite shows both lists.
        errs.push(fieldError.forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(type)}\n-${JSON.stringify(before)}\n+${JSON.stringify(after)}`));
      }
    }
  }
  const certificate = str(statusOf(csr).certificate);
  const oldCertificate = str(statusOf(old).certificate);
  if (certificate !== oldCertificate) {
    if (!opts.allowSettingCertificate) errs.push(fieldError.forbidden('status.certificate', 'updates may not set certificate content'));
    else if (oldCertificate !== '') errs.push(fieldError.forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errs;
}

export function validateCertificateSigningRequestUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateUpdate(csr, old, optionsFor(csr, old));
}

export function validateCertificateSigningRequestStatusUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateUpdate(csr, old, { ...optionsFor(csr, old), allowSettingCertificate: true });
}

export function validateCertificateSigningRequestApprovalUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateUpdate(csr, old, { ...optionsFor(csr, old), allowSettingApprovalConditions: true });
}
