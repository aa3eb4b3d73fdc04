// The audit flags of `kubelite apiserver`, kube-apiserver's: --audit-policy-file (audit.k8s.io/v1
// Policy) and the log backend --audit-log-path (`-`: standard output), --audit-log-maxsize (MiB
// before rotation), --audit-log-maxbackup, --audit-log-maxage (days). As in kube-apiserver,
// requests are audited only with both a policy and a backend.
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { AuditLogOptions } from '../apiserver/audit/log-backend.js';
import { parseAuditPolicy, type AuditPolicy } from '../apiserver/audit/policy.js';

export interface AuditFlags {
  auditPolicyFile?: string;
  auditLogPath?: string;
  auditLogMaxsize?: number;
  auditLogMaxbackup?: number;
  auditLogMaxage?: number;
}

const count = (v: string): number => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(v);
};

export const AUDIT_FLAGS: ReadonlyArray<[flag: string, help: string, parse?: (v: string) => unknown]> = [
  ['--audit-policy-file <file>', 'audit.k8s.io/v1 Policy: which requests are audited, at which level (with --audit-log-path)'],
  ['--audit-log-path <file>', 'where audit events are written, one JSON Event per line (- : standard output)'],
  ['--audit-log-maxsize <MiB>', 'size of the audit log before it is rotated (0: never)', count],
  ['--audit-log-maxbackup <n>', 'rotated audit logs kept (0: all)', count],
  ['--audit-log-maxage <days>', 'days rotated audit logs are kept (0: no limit)', count],
];

/** The audit configuration, or undefined when requests are not audited; throws on a bad policy file. */
export function auditOptions(o: AuditFlags): { policy: AuditPolicy; log: AuditLogOptions } | undefined {
  if (o.auditPolicyFile === undefined || o.auditLogPath === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(o.auditPolicyFile, 'utf8');
  } catch (e) {
    throw new Error(`--audit-policy-file: cannot read ${o.auditPolicyFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let policy: AuditPolicy;
  try {
    policy = parseAuditPolicy(text);
  } catch (e) {
    throw new Error(`--audit-policy-file ${o.auditPolicyFile}: ${(e as Error).message}`);
  }
  return {
    policy,
    log: { path: o.auditLogPath, ...(o.auditLogMaxsize !== undefined ? { maxSizeMiB: o.auditLogMaxsize } : {}), ...(o.auditLogMaxbackup !== undefined ? { maxBackups: o.auditLogMaxbackup } : {}), ...(o.auditLogMaxage !== undefined ? { maxAgeDays: o.auditLogMaxage } : {}) },
  };
}
