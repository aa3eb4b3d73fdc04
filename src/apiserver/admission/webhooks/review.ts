// One webhook call of admission (k8s.io/apiserver pkg/admission/plugin/webhook/request and
// generic): the admission.k8s.io/v1 AdmissionReview sent — the request in the version the
// webhook's rule matched, with its object and old object — and the checks of the answer, with
// Kubernetes' messages for a webhook that denies, answers something else, or cannot be called.
import { randomUUID } from 'node:crypto';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import { apiVersionOf } from '../../../api/kinds.js';
import { StatusError } from '../../../machinery/status.js';
import { admissionRequest } from '../policy/request.js';
import type { AdmissionAttributes } from '../types.js';

export interface ReviewAnswer {
  allowed: boolean;
  /** The Status of a denial (code, message, reason). */
  status?: { code?: number; message?: string; reason?: string };
  patch?: string;
  patchType?: string;
  warnings?: string[];
}

/** An object as the webhook's matched version serves it. */
export function inVersion(obj: KubeObject | undefined, kind: KindVersion): KubeObject | null {
  if (obj === undefined) return null;
  const served = kind.fromHub ? kind.fromHub(obj) : obj;
  return { ...served, apiVersion: apiVersionOf(kind), kind: kind.kind };
}

export function reviewOf(a: AdmissionAttributes, matched: KindVersion, object: KubeObject | undefined): { uid: string; review: KubeObject } {
  const uid = randomUUID();
  const request = { ...admissionRequest(a, matched), uid, object: inVersion(object, matched), oldObject: inVersion(a.oldObject, matched) };
  return { uid, review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request } };
}

/** The error of a webhook whose answer is not a valid AdmissionReview for this request. */
export class BadAnswer extends Error {}

export function answerOf(body: unknown, uid: string): ReviewAnswer {
  const review = body as KubeObject | null;
  if (typeof review !== 'object' || review === null || Array.isArray(review)) throw new BadAnswer('the webhook response is not an object');
  if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview') {
    throw new BadAnswer(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${String(review.apiVersion ?? '')}, Kind=${String(review.kind ?? '')}`);
  }
  const response = review.response as KubeObject | undefined;
  if (typeof response !== 'object' || response === null) throw new BadAnswer('webhook response was absent');
  if (response.uid !== uid) throw new BadAnswer(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
  if (typeof response.allowed !== 'boolean') throw new BadAnswer('webhook response has no "allowed" field');
  const out: ReviewAnswer = { allowed: response.allowed };
  if (typeof response.status === 'object' && response.status !== null) out.status = response.status as ReviewAnswer['status'];
  if (typeof response.patch === 'string') out.patch = response.patch;
  if (typeof response.patchType === 'string') out.patchType = response.patchType;
  if (Array.isArray(response.warnings)) out.warnings = response.warnings.filter((w): w is string => typeof w === 'string');
  return out;
}

/**
 * A denial, as Kubernetes' ToStatusErr makes it: the webhook's Status code (400 when it gives none
 * or one below 400) and reason, and `admission webhook "<name>" denied the request: <message>`.
 */
export function denial(name: string, answer: ReviewAnswer): StatusError {
  const status = answer.status ?? {};
  const code = typeof status.code === 'number' && status.code >= 400 && status.code < 600 ? status.code : 400;
  const message = typeof status.message === 'string' && status.message !== '' ? `admission webhook ${JSON.stringify(name)} denied the request: ${status.message}` : `admission webhook ${JSON.stringify(name)} denied the request without explanation`;
  const reason = typeof status.reason === 'string' ? status.reason : '';
  // The Status is the webhook's own (no details of ours), with the message prefixed.
  return new StatusError(code, reason as never, message);
}

/** A webhook that could not be called, or answered wrongly, under failurePolicy Fail. */
export function callFailure(name: string, err: unknown): StatusError {
  const why = err instanceof Error ? err.message : String(err);
  if (err instanceof BadAnswer) return StatusError.internal(`Internal error occurred: failed calling webhook ${JSON.stringify(name)}: ${why}`);
  return StatusError.internal(`Internal error occurred: failed calling webhook ${JSON.stringify(name)}: failed to call webhook: ${why}`);
}
