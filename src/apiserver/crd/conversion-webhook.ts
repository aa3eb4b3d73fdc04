// A CRD's conversion webhook (Kubernetes' webhookConverter): an apiextensions.k8s.io/v1
// ConversionReview with the objects to convert, and the checks of the answer — the request's uid,
// a Success result, as many objects as sent, each in the desired version with its kind, metadata
// unchanged but for labels and annotations — with Kubernetes' messages.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import type { ConversionWebhook, CustomResourceDefinition } from '../../registry/custom/index.js';
import { callWebhook, type ServiceResolver, type WebhookClientConfig } from '../webhook/client.js';
import { obj, type Obj } from '../../machinery/validation/common.js';

/** Conversion webhooks have kube-apiserver's fixed 30 s timeout. */
const TIMEOUT_MS = 30_000;

export function conversionWebhook(resolveService: ServiceResolver): ConversionWebhook {
  return async (crd: CustomResourceDefinition, objects: KubeObject[], desiredAPIVersion: string) => {
    const kind = String(objects[0]?.kind ?? crd.spec.names.kind);
    const gvk = `${desiredAPIVersion}, Kind=${kind}`;
    const failed = (why: string) => StatusError.internal(`conversion webhook for ${gvk} failed: ${why}`);
    const webhook = crd.spec.conversion?.webhook;
    if (!webhook?.clientConfig) throw failed('no webhook client config');
    if (!webhook.conversionReviewVersions.includes('v1')) throw failed(`none of the conversionReviewVersions [${webhook.conversionReviewVersions.join(' ')}] are supported by kubelite (v1)`);
    const uid = randomUUID();
    const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } };
    let answer: unknown;
    try {
      answer = await callWebhook(webhook.clientConfig as WebhookClientConfig, review, TIMEOUT_MS, resolveService);
    } catch (err) {
      throw failed(err instanceof Error ? err.message : String(err));
    }
    const response = obj(obj(answer).response);
    if (obj(answer).kind !== 'ConversionReview') throw failed('expected a ConversionReview in the response');
    if (response.uid !== uid) throw failed(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
    const result = obj(response.result);
    if (result.status !== 'Success') throw failed(`conversion webhook failed: ${String(result.message ?? result.status ?? 'no result')}`);
    const converted = Array.isArray(response.convertedObjects) ? (response.convertedObjects as unknown[]) : [];
    if (converted.length !== objects.length) throw failed(`returned ${converted.length} objects, expected ${objects.length}`);
    return converted.map((c, i) => {
      const o = obj(c);
      if (o.apiVersion !== desiredAPIVersion) throw failed(`invalid converted object at index ${i}: invalid apiVersion ${JSON.stringify(o.apiVersion ?? '')}, expected ${JSON.stringify(desiredAPIVersion)}`);
      if (o.kind !== objects[i]!.kind) throw failed(`invalid converted object at index ${i}: invalid kind ${JSON.stringify(o.kind ?? '')}, expected ${JSON.stringify(objects[i]!.kind)}`);
      // Only labels and annotations may change in metadata (Kubernetes' restoreObjectMeta).
      const m = obj(o.metadata);
      const original = obj(objects[i]!.metadata);
      const metadata: Obj = { ...original };
      for (const k of ['labels', 'annotations']) {
        if (m[k] === undefined) delete metadata[k];
        else metadata[k] = m[k];
      }
      return { ...o, metadata } as KubeObject;
    });
  };
}
