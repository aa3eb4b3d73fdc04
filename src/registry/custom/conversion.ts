// Conversion by webhook between a CRD's versions. Kubernetes converts synchronously inside its
// codecs; here the handlers first `prepare` the objects they are about to convert (one
// ConversionReview for all of them), and the served KindVersions' toHub/fromHub then read the
// prepared results: conversion stays a plain function for the codecs, the webhook call is async.
import type { KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import type { CustomResourceDefinition } from './crd.js';

/** Calls a CRD's conversion webhook: `objects` converted to `desiredAPIVersion`, in order (throws a StatusError). */
export type ConversionWebhook = (crd: CustomResourceDefinition, objects: KubeObject[], desiredAPIVersion: string) => Promise<KubeObject[]>;

export class WebhookConversion {
  /** Each object's converted forms, by apiVersion; the objects are those the handlers hold (decoded once each). */
  private readonly converted = new WeakMap<KubeObject, Map<string, KubeObject>>();

  constructor(
    private readonly crd: CustomResourceDefinition,
    private readonly webhook: ConversionWebhook,
  ) {}

  /** Converts what is not converted yet to `apiVersion` (objects already in it stay as they are). */
  async prepare(objects: readonly KubeObject[], apiVersion: string): Promise<void> {
    const pending = objects.filter((o) => o.apiVersion !== apiVersion && !this.converted.get(o)?.has(apiVersion));
    if (pending.length === 0) return;
    const unique = [...new Set(pending)];
    const results = await this.webhook(this.crd, unique, apiVersion);
    unique.forEach((o, i) => {
      let forms = this.converted.get(o);
      if (!forms) this.converted.set(o, (forms = new Map()));
      forms.set(apiVersion, results[i]!);
    });
  }

  /** The prepared conversion of `obj` to `apiVersion`. */
  convert(obj: KubeObject, apiVersion: string): KubeObject {
    if (obj.apiVersion === apiVersion) return obj;
    const done = this.converted.get(obj)?.get(apiVersion);
    if (!done) throw StatusError.internal(`conversion of ${String(obj.kind)} to ${apiVersion} was not prepared`);
    return done;
  }
}
