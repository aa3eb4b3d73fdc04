// The results of token authentication, remembered as kube-apiserver's cached token authenticator
// remembers them (apiserver/pkg/authentication/token/cache): keyed by a SHA-256 of a secret made
// at start, the audiences and the token (the token itself is never held as a key; kube-apiserver
// uses an HMAC, which costs twice as much per request here and adds nothing when no hash leaves
// the process),
// bounded (least recently used out first), a success kept for a short TTL (kube-apiserver's
// --token-success-cache-ttl, 10 s) and a failure for a shorter one (--token-failure-cache-ttl,
// 0 s: not kept). Beyond Kubernetes, an entry also goes the moment an object it was validated
// against (the service account, the Secret or bound pod, secret or node) changes or is deleted, so
// a deleted service account's token stops at once, not only once the TTL is over.
import * as crypto from 'node:crypto';

/** SHA-256 in base64: Node's one-shot hash where it has one (20.12), else a Hash object. */
const sha256: (data: string) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'base64') : (data) => crypto.createHash('sha256').update(data).digest('base64');

export interface TokenCacheOptions {
  /** How long an accepted token is remembered (default 10 s). */
  successTtlMs?: number;
  /** How long a refused token is remembered (default 0: not remembered). */
  failureTtlMs?: number;
  /** Entries at most (default 4096, kube-apiserver's cache size). */
  maxEntries?: number;
  /** Milliseconds, monotonic enough for TTLs (default Date.now). */
  now?: () => number;
}

/** What an authentication yields for the cache to keep. */
export interface Validated<T> {
  value: T;
  /** The objects it was validated against (`dependencyKey`); a change to one drops the entry. */
  dependsOn: readonly string[];
  /** When the credential itself stops being valid (ms), if sooner than the TTL. */
  validUntilMs?: number;
}

interface Entry<T> {
  expiresAt: number;
  dependsOn: readonly string[];
  outcome: { ok: true; value: T } | { ok: false; error: unknown };
}

export const DEFAULT_SUCCESS_TTL_MS = 10_000;
const DEFAULT_MAX_ENTRIES = 4096;

/** The name of an object a cached authentication depends on. */
export function dependencyKey(resource: string, namespace: string, name: string): string {
  return `${resource}/${namespace}/${name}`;
}

export class TokenCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Dependency → keys of the entries validated against it. */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly secret = crypto.randomBytes(32).toString('base64');
  private readonly successTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Bumped by every invalidation: an authentication that overlapped one is not kept (it may have read the object before it went). */
  private generation = 0;

  constructor(opts: TokenCacheOptions = {}) {
    this.successTtlMs = opts.successTtlMs ?? DEFAULT_SUCCESS_TTL_MS;
    this.failureTtlMs = opts.failureTtlMs ?? 0;
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The remembered outcome for the token and audiences, else `validate`'s, remembered. */
  async authenticate(token: string, audiences: readonly string[], validate: () => Promise<Validated<T>>): Promise<T> {
    const key = sha256(`${this.secret}\x01${audiences.join('\0')}\x01${token}`);
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (entry.expiresAt > this.now()) {
        // Most recently used last: the first entry is the one evicted.
        this.entries.delete(key);
        this.entries.set(key, entry);
        if (entry.outcome.ok) return entry.outcome.value;
        throw entry.outcome.error;
      }
      this.remove(key);
    }
    const generation = this.generation;
    let validated: Validated<T>;
    try {
      validated = await validate();
    } catch (error) {
      if (this.failureTtlMs > 0 && generation === this.generation) this.put(key, { expiresAt: this.now() + this.failureTtlMs, dependsOn: [], outcome: { ok: false, error } });
      throw error;
    }
    if (this.successTtlMs > 0 && generation === this.generation) {
      const expiresAt = Math.min(this.now() + this.successTtlMs, validated.validUntilMs ?? Infinity);
      this.put(key, { expiresAt, dependsOn: validated.dependsOn, outcome: { ok: true, value: validated.value } });
    }
    return validated.value;
  }

  /** Forgets every authentication validated against the object (it changed or went). */
  invalidate(dependency: string): void {
    this.generation++;
    const keys = this.dependents.get(dependency);
    if (keys === undefined) return;
    for (const key of [...keys]) this.remove(key);
  }

  /** Forgets everything (the objects are being listed again: deletions may have been missed). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.dependents.clear();
  }

  private put(key: string, entry: Entry<T>): void {
    this.remove(key);
    this.entries.set(key, entry);
    for (const dep of entry.dependsOn) {
      let keys = this.dependents.get(dep);
      if (keys === undefined) this.dependents.set(dep, (keys = new Set()));
      keys.add(key);
    }
    if (this.entries.size > this.maxEntries) this.remove(this.entries.keys().next().value as string);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    for (const dep of entry.dependsOn) {
      const keys = this.dependents.get(dep);
      keys?.delete(key);
      if (keys?.size === 0) this.dependents.delete(dep);
    }
  }
}
