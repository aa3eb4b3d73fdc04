// --authorization-mode: the configured authorizers in order, as kube-apiserver's union authorizer
// runs them: the first that allows or denies decides; when none does, the request is forbidden
// with the reasons they gave. Members of system:masters are allowed before any of them (the
// privileged-groups authorizer kube-apiserver always puts first).
import { SYSTEM_MASTERS, type Attributes, type Authorizer, type Decision } from './types.js';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'RBAC', 'Node'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** Parses `--authorization-mode` (comma list, no duplicates). Throws with the reason on bad input. */
export function parseAuthorizationModes(value: string): AuthorizationMode[] {
  const modes = value.split(',').map((m) => m.trim());
  const seen = new Set<string>();
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} is not a valid mode (valid: ${AUTHORIZATION_MODES.join(', ')})`);
    if (seen.has(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
  }
  return modes as AuthorizationMode[];
}

type Result = { decision: Decision; reason: string };

export const alwaysDeny: Authorizer = { authorize: () => ({ decision: 'deny', reason: '' }) };

export class UnionAuthorizer implements Authorizer {
  constructor(private readonly members: readonly Authorizer[]) {}

  authorize(attrs: Attributes): Result | Promise<Result> {
    if (attrs.user.groups.includes(SYSTEM_MASTERS)) return ALLOWED;
    // Synchronous while the members are (RBAC and Node are): no promise per request.
    let reasons: string[] | undefined;
    for (let i = 0; i < this.members.length; i++) {
      const r = this.members[i]!.authorize(attrs);
      if (r instanceof Promise) return this.rest(attrs, i, r, reasons ?? []);
      if (r.decision !== 'no-opinion') return r;
      if (r.reason !== '') (reasons ??= []).push(r.reason);
    }
    return reasons === undefined ? NO_OPINION : { decision: 'no-opinion', reason: reasons.join('\n') };
  }

  private async rest(attrs: Attributes, i: number, pending: Promise<Result>, reasons: string[]): Promise<Result> {
    let r = await pending;
    for (;;) {
      if (r.decision !== 'no-opinion') return r;
      if (r.reason !== '') reasons.push(r.reason);
      if (++i >= this.members.length) break;
      r = await this.members[i]!.authorize(attrs);
    }
    return { decision: 'no-opinion', reason: reasons.join('\n') };
  }
}

const ALLOWED: Result = Object.freeze({ decision: 'allow', reason: '' });
const NO_OPINION: Result = Object.freeze({ decision: 'no-opinion', reason: '' });
