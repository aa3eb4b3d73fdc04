// The patch type of a PATCH request, from its Content-Type, as kube-apiserver decides it.

import { PatchError } from './errors.js';

/** types.PatchType, by the Content-Type that selects it. */
export const PatchContentTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export type PatchType = keyof typeof PatchContentTypes;

export interface PatchTypeOptions {
  /** The resource takes strategic merge patches (built-in kinds do; custom resources do not). */
  strategic?: boolean;
  /** Server-side apply is served. */
  apply?: boolean;
}

/**
 * The patch type a Content-Type header selects; parameters (`; charset=utf-8`) are ignored. Any
 * other media type, or none, is kube-apiserver's 415 (go-restful's answer for a route that does not
 * consume it: message "415: Unsupported Media Type", `details: {}`).
 */
export function patchTypeFromContentType(contentType: string | undefined, options: PatchTypeOptions = {}): PatchType {
  const mediaType = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  for (const [type, media] of Object.entries(PatchContentTypes) as Array<[PatchType, string]>) {
    if (media !== mediaType) continue;
    if (type === 'strategic' && options.strategic === false) break;
    if (type === 'apply' && options.apply === false) break;
    return type;
  }
  throw new PatchError(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
}

/** The media types a PATCH route consumes, in the order kube-apiserver lists them. */
export function patchMediaTypes(options: PatchTypeOptions = {}): string[] {
  const out: string[] = [PatchContentTypes.json, PatchContentTypes.merge];
  if (options.strategic !== false) out.push(PatchContentTypes.strategic);
  if (options.apply !== false) out.push(PatchContentTypes.apply);
  return out;
}
