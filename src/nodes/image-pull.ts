// Image pulls as a kubelet's image manager does them (pkg/kubelet/images): the pull policy against
// the node's image cache, a pull that takes time, and pulls that fail — a malformed reference
// (InvalidImageName), an absent image under policy Never (ErrImageNeverPull), a registry that
// cannot exist, a pattern of --image-pull-failures, or the pod's kubelite.dev/image-pull
// annotation — retried with the image back-off (ErrImagePull, then ImagePullBackOff until it ends).
// The plan is decided when the node first starts the container; its timeline is pure, as simulate.ts.
import { createHash } from 'node:crypto';
import { annotationsOf } from '../api/meta/object.js';
import type { Container, Pod } from '../api/types.js';
import { ANNOTATION_PREFIX } from './behaviour.js';
import { fullReference, globMatches, isUnresolvableRegistry, parseImageReference } from './image-reference.js';

export const IMAGE_PULL_ANNOTATION = `${ANNOTATION_PREFIX}image-pull`;
/** The kubelet's image back-off: 10 s, doubling up to 300 s (its MaxContainerBackOff). */
export const IMAGE_BACKOFF_INITIAL_MS = 10_000;
const IMAGE_BACKOFF_MAX_FACTOR = 30;
/** How long ErrImagePull is reported before the pod's next sync finds the image in back-off. */
const ERR_IMAGE_PULL_REPORTED_MS = 1000;

export interface ImagePullOptions {
  /** How long a pull takes (the image absent or policy Always). */
  pullMs: number;
  /** Globs matched against the image as written and as the runtime names it: each pull fails. */
  failures: readonly string[];
  /** The image back-off's first wait (its cap is 30 times as long: 10 s → 300 s). */
  backoffInitialMs: number;
}

export const DEFAULT_IMAGE_PULL: ImagePullOptions = { pullMs: 0, failures: [], backoffInitialMs: IMAGE_BACKOFF_INITIAL_MS };

/** What starting a container does with its image on its node. */
export type ImagePlan =
  | { kind: 'present'; sizeBytes: number; ref: string }
  /** `everyStart`: policy Always, the image is pulled again before each restart. */
  | { kind: 'pull'; pullMs: number; everyStart: boolean; sizeBytes: number; ref: string }
  | { kind: 'fail'; pullMs: number; error: string }
  | { kind: 'never'; message: string }
  | { kind: 'invalid'; message: string };

/** The policy the API server defaults (Always for `:latest` or no tag, else IfNotPresent) when it is missing. */
export function pullPolicyOf(c: Container): 'Always' | 'IfNotPresent' | 'Never' {
  const p = c.imagePullPolicy;
  if (p === 'Always' || p === 'IfNotPresent' || p === 'Never') return p;
  const image = c.image ?? '';
  const tag = /:([\w][\w.-]*)$/.exec(image.replace(/@.*$/, ''))?.[1];
  return !image.includes('@') && (tag === undefined || tag === 'latest' || image.lastIndexOf(':') < image.lastIndexOf('/')) ? 'Always' : 'IfNotPresent';
}

/** A stable size for an image (2–200 MB), as its registry would report it. */
function imageSize(ref: string): number {
  const h = createHash('sha256').update(ref).digest();
  return 2_000_000 + (h.readUInt32BE(0) % 198_000_000);
}

/** `kubelite.dev/<container>.image-pull` or `kubelite.dev/image-pull`: `fail` or `slow:<seconds>`. */
function annotationOf(pod: Pod, c: Container): { fail: boolean; slowMs?: number } {
  const a = annotationsOf(pod);
  const v = (a[`${ANNOTATION_PREFIX}${c.name ?? ''}.image-pull`] ?? a[IMAGE_PULL_ANNOTATION])?.trim();
  if (v === 'fail') return { fail: true };
  const slow = v === undefined ? null : /^slow:(\d+(?:\.\d+)?)s?$/.exec(v);
  return slow ? { fail: false, slowMs: Number(slow[1]) * 1000 } : { fail: false };
}

/** What pulling `c`'s image does on a node whose cache holds the references `cached` says. */
export function planImagePull(pod: Pod, c: Container, cached: (ref: string) => boolean, opts: ImagePullOptions): ImagePlan {
  const image = c.image ?? '';
  let ref: string;
  try {
    ref = fullReference(parseImageReference(image));
  } catch (e) {
    return { kind: 'invalid', message: `Failed to apply default image tag "${image}": couldn't parse image reference "${image}": ${(e as Error).message}` };
  }
  const policy = pullPolicyOf(c);
  const present = cached(ref);
  const { fail, slowMs } = annotationOf(pod, c);
  const pullMs = slowMs ?? opts.pullMs;
  const sizeBytes = imageSize(ref);
  if (policy === 'Never') return present ? { kind: 'present', sizeBytes, ref } : { kind: 'never', message: `Container image "${image}" is not present with pull policy of Never` };
  if (policy === 'IfNotPresent' && present) return { kind: 'present', sizeBytes, ref };
  const { domain, path, tag } = parseImageReference(image);
  const unpack = `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}"`;
  if (isUnresolvableRegistry(domain)) {
    const host = domain.replace(/:[0-9]+$/, '');
    return { kind: 'fail', pullMs: 0, error: `${unpack}: failed to do request: Head "https://${domain}/v2/${path}/manifests/${tag ?? 'latest'}": dial tcp: lookup ${host}: no such host` };
  }
  if (fail || opts.failures.some((g) => globMatches(g, image) || globMatches(g, ref))) return { kind: 'fail', pullMs, error: `${unpack}: ${ref}: not found` };
  return { kind: 'pull', pullMs, everyStart: policy === 'Always', sizeBytes, ref };
}

/** Where a container's image stands at a moment. */
export interface PullState {
  /** When the container's first run starts (the image there): absent while it is not. */
  runStart?: number;
  /** Otherwise: the container's waiting reason and message, and when that changes by itself. */
  waitingReason?: string;
  waitingMessage?: string;
  next?: number;
  /** Pull attempts begun by now, and whether the last one is in back-off (what events to send). */
  attempts: number;
  backingOff: boolean;
}

/**
 * The image of a container the node starts at `start`: present, pulled in `pullMs`, or failing
 * each attempt with the back-off between (ErrImagePull, then ImagePullBackOff). No attempt begins
 * at or after the pod's `killAt`.
 */
export function pullTimeline(plan: ImagePlan | undefined, image: string, start: number, now: number, killAt: number | undefined, backoffInitialMs: number): PullState {
  const until = (t: number): number | undefined => (killAt !== undefined && t >= killAt ? undefined : t);
  if (!plan || plan.kind === 'present') return { runStart: start, attempts: 0, backingOff: false };
  if (plan.kind === 'invalid') return { waitingReason: 'InvalidImageName', waitingMessage: plan.message, attempts: 0, backingOff: false };
  if (plan.kind === 'never') return { waitingReason: 'ErrImageNeverPull', waitingMessage: plan.message, attempts: 0, backingOff: false };
  if (plan.kind === 'pull') {
    const done = start + plan.pullMs;
    if (now >= done) return { runStart: done, attempts: 1, backingOff: false };
    const next = until(done);
    return { waitingReason: 'ContainerCreating', attempts: 1, backingOff: false, ...(next !== undefined ? { next } : {}) };
  }
  const max = backoffInitialMs * IMAGE_BACKOFF_MAX_FACTOR;
  let attempt = start;
  let wait = backoffInitialMs;
  for (let k = 1; ; k++) {
    const failedAt = attempt + plan.pullMs;
    const backoffAt = failedAt + Math.min(ERR_IMAGE_PULL_REPORTED_MS, wait / 2);
    const retryAt = failedAt + wait;
    if (now < failedAt) {
      const next = until(failedAt);
      return { waitingReason: k === 1 ? 'ContainerCreating' : 'ImagePullBackOff', ...(k === 1 ? {} : { waitingMessage: `Back-off pulling image "${image}": ErrImagePull: ${plan.error}` }), attempts: k, backingOff: false, ...(next !== undefined ? { next } : {}) };
    }
    if (now < backoffAt) {
      const next = until(backoffAt);
      return { waitingReason: 'ErrImagePull', waitingMessage: plan.error, attempts: k, backingOff: false, ...(next !== undefined ? { next } : {}) };
    }
    if (now < retryAt || (killAt !== undefined && retryAt >= killAt)) {
      const next = until(retryAt);
      return { waitingReason: 'ImagePullBackOff', waitingMessage: `Back-off pulling image "${image}": ErrImagePull: ${plan.error}`, attempts: k, backingOff: true, ...(next !== undefined ? { next } : {}) };
    }
    attempt = retryAt;
    wait = Math.min(wait * 2, max);
  }
}

/** Go's time.Duration printing (truncated to milliseconds, as the kubelet's Pulled event): `0s`, `500ms`, `1.2s`, `1m30s`. */
export function goDuration(ms: number): string {
  const t = Math.max(0, Math.floor(ms));
  if (t === 0) return '0s';
  if (t < 1000) return `${t}ms`;
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  const s = ((t % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '');
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
