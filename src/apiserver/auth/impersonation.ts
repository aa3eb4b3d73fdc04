// Impersonation (kube-apiserver's WithImpersonation filter): an authenticated user may act as
// another one with the `Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid` and
// `Impersonate-Extra-<key>` headers (kubectl --as, --as-group, --as-uid) when the authorizer allows
// the verb `impersonate` on each thing asked for:
//   user              users "<name>"                      (group "")
//   service account   serviceaccounts "<name>" in <ns>    (group ""; for system:serviceaccount:<ns>:<name>)
//   group             groups "<name>"                     (group "")
//   uid               uids "<uid>"                        (group authentication.k8s.io)
//   extra             userextras/<key> "<value>"          (group authentication.k8s.io)
// The first refusal answers 403 with the impersonation's attributes. The request then goes on as
// the impersonated user, authorized (and admitted) as them.
import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../machinery/status.js';
import { authError } from './errors.js';
import { SYSTEM_AUTHENTICATED, SYSTEM_UNAUTHENTICATED, type Attributes, type Authorizer, type UserInfo } from './types.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const ANONYMOUS = 'system:anonymous';

/** Whether the request asks to impersonate anyone (cheap: no header starts with `impersonate-` in most requests). */
export function wantsImpersonation(req: IncomingMessage): boolean {
  for (const name in req.headers) if (name.startsWith('impersonate-')) return true;
  return false;
}

/** One thing asked for, as Kubernetes' ObjectReference list (kind, namespace, name, fieldPath). */
interface Wanted {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  /** The extra's key. */
  key: string;
}

/** Go's url.PathUnescape, keeping the raw key when it is malformed (as Kubernetes records it anyway). */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** `system:serviceaccount:<ns>:<name>` → [ns, name], else undefined. */
function splitServiceAccount(user: string): [string, string] | undefined {
  if (!user.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = user.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return [parts[0]!, parts[1]!];
}

/** The impersonation headers in the order Kubernetes checks them (raw headers keep repeated ones apart). */
function wantedOf(req: IncomingMessage): Wanted[] {
  let user = '';
  const groups: Wanted[] = [];
  const extras: Wanted[] = [];
  let uid = '';
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    if (name === USER) user ||= value;
    else if (name === GROUP) groups.push({ kind: 'Group', namespace: '', name: value, key: '' });
    else if (name === UID) uid ||= value;
    else if (name.startsWith(EXTRA_PREFIX)) extras.push({ kind: 'UserExtra', namespace: '', name: value, key: unescapeExtraKey(name.slice(EXTRA_PREFIX.length)) });
  }
  const wanted: Wanted[] = [];
  if (user !== '') {
    const sa = splitServiceAccount(user);
    wanted.push(sa ? { kind: 'ServiceAccount', namespace: sa[0], name: sa[1], key: '' } : { kind: 'User', namespace: '', name: user, key: '' });
  }
  wanted.push(...groups, ...extras);
  if (uid !== '') wanted.push({ kind: 'UID', namespace: '', name: uid, key: '' });
  if (user === '' && wanted.length > 0) {
    // Kubernetes answers this with a 500 (its filter's InternalError); the message names what was asked.
    const refs = wanted.map((w) => `{${w.kind} ${w.namespace} ${w.name}  ${w.kind === 'UserExtra' || w.kind === 'UID' ? 'authentication.k8s.io/v1' : ''}  ${w.key}}`);
    throw StatusError.internal(`Internal Server Error: ${JSON.stringify(req.url ?? '/')}: requested [${refs.join(' ')}] without impersonating a user`);
  }
  return wanted;
}

function attributesFor(requestor: UserInfo, w: Wanted): Attributes {
  const base = { user: requestor, verb: 'impersonate', resourceRequest: true, apiVersion: '', namespace: w.namespace, subresource: '', name: w.name, path: '' };
  switch (w.kind) {
    case 'User':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'users' };
    case 'ServiceAccount':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'serviceaccounts' };
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'groups' };
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids' };
    case 'UserExtra':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'userextras', subresource: w.key };
  }
}

/**
 * The user the request acts as: `requestor` itself when it asks for no impersonation, else the
 * impersonated user once the authorizer allowed each part (403 at the first refusal).
 */
export async function impersonate(req: IncomingMessage, requestor: UserInfo, authorizer: Authorizer): Promise<UserInfo> {
  if (!wantsImpersonation(req)) return requestor;
  const wanted = wantedOf(req);
  if (wanted.length === 0) return requestor;
  const groupsSpecified = wanted.some((w) => w.kind === 'Group');
  let name = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const w of wanted) {
    const attrs = attributesFor(requestor, w);
    const { decision, reason } = await authorizer.authorize(attrs);
    if (decision !== 'allow') throw authError.forbidden(attrs, reason);
    switch (w.kind) {
      case 'User':
        name = w.name;
        break;
      case 'ServiceAccount':
        name = `${SERVICE_ACCOUNT_PREFIX}${w.namespace}:${w.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${w.namespace}`];
        break;
      case 'Group':
        groups.push(w.name);
        break;
      case 'UID':
        uid = w.name;
        break;
      case 'UserExtra':
        (extra[w.key] ??= []).push(w.name);
        break;
    }
  }
  if (name !== ANONYMOUS) {
    if (!groups.includes(SYSTEM_AUTHENTICATED) && !groups.includes(SYSTEM_UNAUTHENTICATED)) groups.push(SYSTEM_AUTHENTICATED);
  } else if (!groups.includes(SYSTEM_UNAUTHENTICATED)) {
    groups.push(SYSTEM_UNAUTHENTICATED);
  }
  const user: UserInfo = { name, groups };
  if (uid !== '') user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}
