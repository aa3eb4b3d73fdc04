// metrics.k8s.io/v1beta1 NodeMetrics and PodMetrics, answered as metrics-server answers them but
// computed on each read from the watch cache's pods and nodes with the usage model of
// api/metrics/usage.ts: a PodMetrics per Running pod, a NodeMetrics per Ready node, timestamp now,
// a 10s window, labels those of the pod or node. get and list only (no watch, as metrics-server).
import { apiVersionOf } from '../api/kinds.js';
import { labelsOf, nameOf, namespaceOf } from '../api/meta/object.js';
import { Table } from '../api/meta/v1.js';
import { isMeasured, isNodeMeasured, METRICS_WINDOW, nodeUsage, podUsage, type Usage } from '../api/metrics/usage.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import type { Node, Pod } from '../api/types.js';
import { apiError } from '../registry/errors.js';
import type { CachedObject } from '../storage/cacher/types.js';
import { buildTable, encodeObject, encodeOther } from './encode.js';
import { resolveKind, type RequestContext } from './request/context.js';
import { reply, tableOptions } from './request/reply.js';
import { compileSelectors } from './selectors.js';

const decoder = new TextDecoder();

function cachedObjects<T>(ctx: RequestContext, resource: 'pods' | 'nodes', namespace: string): T[] {
  const store = ctx.registry.store('', resource);
  if (!store) return [];
  return store.cache.list({ prefix: store.prefix(namespace) }).items.map((o) => JSON.parse(decoder.decode(o.json)) as T);
}

const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
const usageJson = (u: Usage): Record<string, string> => ({ cpu: u.cpu.toString(), memory: u.memory.toString() });

function metadataFor(obj: Pod | Node, now: string, namespaced: boolean): KubeObject {
  const m: KubeObject = { name: nameOf(obj) };
  if (namespaced) m.namespace = namespaceOf(obj);
  m.creationTimestamp = now;
  const labels = labelsOf(obj);
  if (Object.keys(labels).length > 0) m.labels = labels;
  return m;
}

/** The metrics objects of the request's kind in its namespace ('' = all), with the warnings for rejected usage annotations. */
function compute(ctx: RequestContext, kv: KindVersion): KubeObject[] {
  const now = rfc3339(ctx.now);
  const base = { kind: kv.kind, apiVersion: apiVersionOf(kv) };
  if (kv.kind === 'NodeMetrics') {
    const pods = cachedObjects<Pod>(ctx, 'pods', '');
    return cachedObjects<Node>(ctx, 'nodes', '')
      .filter(isNodeMeasured)
      .map((node) => ({ ...base, metadata: metadataFor(node, now, false), timestamp: now, window: METRICS_WINDOW, usage: usageJson(nodeUsage(node, pods)) }));
  }
  return cachedObjects<Pod>(ctx, 'pods', ctx.info.namespace)
    .filter(isMeasured)
    .map((pod) => {
      const { containers, problems } = podUsage(pod);
      for (const p of problems) ctx.warnings.push(`pod ${namespaceOf(pod)}/${nameOf(pod)}: annotation ${p.annotation} ${p.message}; its containers' default usage is reported`);
      return { ...base, metadata: metadataFor(pod, now, true), timestamp: now, window: METRICS_WINDOW, containers: containers.map((c) => ({ name: c.name, usage: usageJson(c.usage) })) };
    });
}

/** The selectors of a list applied to computed objects (labels, metadata.name, metadata.namespace). */
function selected(ctx: RequestContext, kv: KindVersion, objects: KubeObject[]): KubeObject[] {
  const filter = compileSelectors(ctx.query.get('labelSelector') ?? '', ctx.query.get('fieldSelector') ?? '', kv);
  if (!filter) return objects;
  return objects.filter((o) => {
    const fields: Record<string, string> = { 'metadata.name': nameOf(o) };
    if (kv.namespaced) fields['metadata.namespace'] = namespaceOf(o);
    return filter({ labels: labelsOf(o), fields } as Pick<CachedObject, 'labels' | 'fields'> as CachedObject);
  });
}

export async function handleResourceMetrics(ctx: RequestContext): Promise<void> {
  const kv = resolveKind(ctx);
  if (ctx.info.subresource !== '') throw apiError.unknownResource();
  if (ctx.info.verb !== 'get' && ctx.info.verb !== 'list') throw apiError.methodNotAllowed();
  try {
    await ctx.registry.cacher.waitUntilFresh();
  } catch {
    // A cache that cannot catch up still answers with what it has: metrics are a snapshot anyway.
  }
  const objects = compute(ctx, kv);
  if (ctx.info.verb === 'get') {
    const found = objects.find((o) => nameOf(o) === ctx.info.name);
    const resource = kv.kind === 'NodeMetrics' ? 'nodemetrics' : 'podmetrics';
    if (!found) throw apiError.notFound({ group: kv.group, resource }, kv.namespaced ? `${ctx.info.namespace}/${ctx.info.name}` : ctx.info.name);
    return reply(ctx, 200, encodeObject(found, kv, ctx.format, tableOptions(ctx)));
  }
  const items = selected(ctx, kv, objects).sort((a, b) => (namespaceOf(a) + '/' + nameOf(a) < namespaceOf(b) + '/' + nameOf(b) ? -1 : 1));
  if (ctx.format.as === 'Table') return reply(ctx, 200, encodeOther(buildTable(items, kv, {}, ctx.format, tableOptions(ctx)), Table, ctx.format));
  const list = { kind: `${kv.kind}List`, apiVersion: apiVersionOf(kv), metadata: {}, items: items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) };
  return reply(ctx, 200, encodeOther(list, kv.list!, ctx.format));
}
