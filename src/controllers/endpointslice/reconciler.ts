// The EndpointSlice reconciler (the endpointslice library's Reconciler): turns the pods a Service
// selects into slices of at most maxEndpointsPerSlice endpoints, per address type and per set of
// ports, with as little churn as it can: existing slices keep their endpoints (updated in place),
// slices that changed anyway are filled up first, leftovers go into the unchanged slice that they
// fill the most, and only then into new slices; a create paired with a delete becomes an update. A
// Service without endpoints gets one empty placeholder slice per address type.
import { isBeingDeleted } from '../../api/meta/object.js';
import type { Endpoint, EndpointSlice, EndpointSlicePort, Node, Pod, Service } from '../../api/types.js';
import { isNamespaceTerminating, isNotFound } from '../../client/errors.js';
import type { KubeObject, Lister, ResourceClient } from '../../client/types.js';
import { deepCopy } from '../common/objects.js';
import { LAST_CHANGE_TRIGGER_TIME, rfc3339Nano, serviceAddressTypes, shouldPodBeInEndpoints, type AddressType } from '../common/services.js';
import { endpointPorts, endpointsEqualBeyondHash, newEndpointSlice, ownedBy, podToEndpoint, sliceLabels } from './endpoints.js';
import { endpointKey, portMapKey, type EndpointSliceTracker } from '../common/endpointslices.js';

interface Plan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
}

export class EndpointSliceReconciler {
  constructor(
    private readonly client: ResourceClient,
    private readonly nodes: Lister,
    readonly maxEndpointsPerSlice: number,
    private readonly tracker: EndpointSliceTracker,
    readonly controllerName: string,
  ) {}

  async reconcile(svc: Service, pods: readonly Pod[], existing: readonly EndpointSlice[], triggerTime: number): Promise<void> {
    const errors: string[] = [];
    const supported = serviceAddressTypes(svc);
    const byType = new Map<AddressType, EndpointSlice[]>();
    const foreignType: EndpointSlice[] = [];
    for (const s of existing) {
      const t = s.addressType as AddressType;
      if (!supported.has(t)) foreignType.push(s);
      else byType.set(t, [...(byType.get(t) ?? []), s]);
    }
    for (const t of supported) {
      try {
        await this.reconcileByAddressType(svc, pods, byType.get(t) ?? [], triggerTime, t, errors);
      } catch (e) {
        errors.push((e as Error).message);
      }
    }
    for (const s of foreignType) await this.deleteSlice(svc, s);
    if (errors.length > 0) throw new Error(errors.join('; '));
  }

  private async reconcileByAddressType(svc: Service, pods: readonly Pod[], existing: EndpointSlice[], triggerTime: number, addressType: AddressType, errors: string[]): Promise<void> {
    const plan: Plan = { create: [], update: [], delete: [] };
    const existingByPorts = new Map<string, EndpointSlice[]>();
    for (const s of existing) {
      if (!ownedBy(s, svc)) {
        plan.delete.push(s);
        continue;
      }
      const k = portMapKey(s.ports);
      existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), s]);
    }
    const desiredByPorts = new Map<string, { ports: EndpointSlicePort[]; endpoints: Map<string, Endpoint> }>();
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const ports = endpointPorts(svc, pod);
      const k = portMapKey(ports);
      let desired = desiredByPorts.get(k);
      if (!desired) desiredByPorts.set(k, (desired = { ports, endpoints: new Map() }));
      const nodeName = pod.spec?.nodeName ?? '';
      const node = this.nodes.get('', nodeName) as Node | undefined;
      if (!node && svc.spec?.publishNotReadyAddresses !== true) {
        // Retried later; the slice is written without the pod meanwhile.
        errors.push(`skipping Pod ${pod.metadata?.name} for Service ${svc.metadata?.namespace}/${svc.metadata?.name}: Node ${nodeName} Not Found`);
        continue;
      }
      const ep = podToEndpoint(pod, node, svc, addressType);
      if ((ep.addresses ?? []).length > 0) desired.endpoints.set(endpointKey(ep), ep);
    }
    for (const [k, desired] of desiredByPorts) {
      const p = this.reconcileByPortMapping(svc, existingByPorts.get(k) ?? [], desired.endpoints, desired.ports, addressType);
      plan.create.push(...p.create);
      plan.update.push(...p.update);
      plan.delete.push(...p.delete);
    }
    for (const [k, slices] of existingByPorts) if (!desiredByPorts.has(k)) plan.delete.push(...slices);
    if (existing.length === plan.delete.length && plan.create.length === 0) {
      const placeholder = newEndpointSlice(svc, [], addressType, this.controllerName);
      if (plan.delete.length === 1 && isPlaceholderOf(plan.delete[0]!, placeholder)) plan.delete = [];
      else plan.create.push(placeholder);
    }
    // Topology hints are off: no endpoint written keeps any.
    for (const s of [...plan.create, ...plan.update]) for (const ep of s.endpoints ?? []) delete ep.hints;
    await this.finalize(svc, plan, triggerTime);
  }

  private reconcileByPortMapping(svc: Service, existing: EndpointSlice[], desired: Map<string, Endpoint>, ports: EndpointSlicePort[], addressType: AddressType): Plan {
    const max = this.maxEndpointsPerSlice;
    const byName = new Map<string, EndpointSlice>();
    const unchanged = new Set<string>();
    const toUpdate = new Set<string>();
    const toDelete = new Set<string>();
    // 1. Existing slices keep the endpoints still desired (updated in place), drop the others.
    for (const s of existing) {
      const name = s.metadata!.name!;
      byName.set(name, s);
      const kept: Endpoint[] = [];
      let endpointUpdated = false;
      for (const ep of s.endpoints ?? []) {
        const k = endpointKey(ep);
        const want = desired.get(k);
        if (!want) continue;
        kept.push(want);
        if (!endpointsEqualBeyondHash(want, ep)) endpointUpdated = true;
        desired.delete(k);
      }
      const { labels, changed } = sliceLabels(s, svc, this.controllerName);
      if (endpointUpdated || kept.length !== (s.endpoints ?? []).length) {
        if (kept.length === 0) toDelete.add(name);
        else {
          const copy = deepCopy(s);
          copy.endpoints = kept;
          copy.metadata!.labels = labels;
          byName.set(name, copy);
          toUpdate.add(name);
        }
      } else if (changed) {
        const copy = deepCopy(s);
        copy.metadata!.labels = labels;
        byName.set(name, copy);
        toUpdate.add(name);
      } else unchanged.add(name);
    }
    const remaining = [...desired.values()];
    // 2. Slices being updated anyway are filled up first, fullest first.
    if (remaining.length > 0 && toUpdate.size > 0) {
      const slices = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length);
      for (const s of slices) while (remaining.length > 0 && s.endpoints!.length < max) s.endpoints!.push(remaining.pop()!);
    }
    // 3. The rest into the unchanged slice it fills the most, or into new slices.
    const create: EndpointSlice[] = [];
    while (remaining.length > 0) {
      let fill: EndpointSlice | undefined;
      if (remaining.length < max && unchanged.size > 0) {
        const found = sliceToFill([...unchanged].map((n) => byName.get(n)!), remaining.length, max);
        if (found) {
          fill = deepCopy(found);
          byName.set(fill.metadata!.name!, fill);
        }
      }
      fill ??= newEndpointSlice(svc, ports, addressType, this.controllerName);
      fill.endpoints ??= [];
      while (remaining.length > 0 && fill.endpoints.length < max) fill.endpoints.push(remaining.pop()!);
      const name = fill.metadata?.name;
      if (name) {
        toUpdate.add(name);
        unchanged.delete(name);
      } else create.push(fill);
    }
    return { create, update: [...toUpdate].map((n) => byName.get(n)!), delete: [...toDelete].map((n) => byName.get(n)!) };
  }

  private async finalize(svc: Service, plan: Plan, triggerTime: number): Promise<void> {
    // A create and a delete make one update of the slice that would have been deleted.
    for (let i = 0; i < plan.delete.length && plan.create.length > 0; ) {
      const del = plan.delete[i]!;
      const create = plan.create[plan.create.length - 1]!;
      if (del.addressType === create.addressType && ownedBy(del, svc)) {
        create.metadata = { ...create.metadata, name: del.metadata!.name, resourceVersion: del.metadata!.resourceVersion };
        delete create.metadata.generateName;
        plan.create.pop();
        plan.update.push(create);
        plan.delete.splice(i, 1);
      } else i++;
    }
    const ns = svc.metadata!.namespace!;
    // No creates for a Service being deleted: they would race the garbage collector.
    if (!isBeingDeleted(svc)) {
      for (const s of plan.create) {
        setTriggerTime(s, triggerTime);
        try {
          this.tracker.update((await this.client.create(ns, s as KubeObject)) as EndpointSlice);
        } catch (e) {
          if (isNamespaceTerminating(e)) return;
          throw new Error(`failed to create EndpointSlice for Service ${ns}/${svc.metadata!.name}: ${(e as Error).message}`);
        }
      }
    }
    for (const s of plan.update) {
      setTriggerTime(s, triggerTime);
      try {
        this.tracker.update((await this.client.update(ns, s as KubeObject)) as EndpointSlice);
      } catch (e) {
        throw new Error(`failed to update ${s.metadata!.name} EndpointSlice for Service ${ns}/${svc.metadata!.name}: ${(e as Error).message}`);
      }
    }
    for (const s of plan.delete) await this.deleteSlice(svc, s);
  }

  private async deleteSlice(svc: Service, s: EndpointSlice): Promise<void> {
    try {
      await this.client.delete(svc.metadata!.namespace!, s.metadata!.name!);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    this.tracker.expectDeletion(s);
  }
}

/** getSliceToFill: the slice left closest to full after taking `count` endpoints. */
function sliceToFill(slices: EndpointSlice[], count: number, max: number): EndpointSlice | undefined {
  let closest = max;
  let found: EndpointSlice | undefined;
  for (const s of slices) {
    const diff = max - (count + (s.endpoints ?? []).length);
    if (diff >= 0 && diff < closest) {
      closest = diff;
      found = s;
      if (diff === 0) break;
    }
  }
  return found;
}

/** The existing placeholder is kept when it already is what a new one would be (namespace, labels, owner). */
function isPlaceholderOf(existing: EndpointSlice, placeholder: EndpointSlice): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const sortedLabels = (s: EndpointSlice) => Object.entries(s.metadata?.labels ?? {}).sort();
  const owners = (s: EndpointSlice) => (s.metadata?.ownerReferences ?? []).map((o) => [o.apiVersion, o.kind, o.name, o.uid, o.controller ?? null, o.blockOwnerDeletion ?? null]);
  return (
    existing.metadata?.namespace === placeholder.metadata?.namespace &&
    same(sortedLabels(existing), sortedLabels(placeholder)) &&
    same(owners(existing), owners(placeholder)) &&
    existing.addressType === placeholder.addressType &&
    (existing.endpoints ?? []).length === 0 &&
    (existing.ports ?? []).length === 0
  );
}

/** addTriggerTimeAnnotation: set to the trigger time, removed when there is none. */
function setTriggerTime(s: EndpointSlice, triggerTime: number): void {
  const annotations = { ...(s.metadata?.annotations ?? {}) };
  if (triggerTime !== 0) annotations[LAST_CHANGE_TRIGGER_TIME] = rfc3339Nano(triggerTime);
  else delete annotations[LAST_CHANGE_TRIGGER_TIME];
  s.metadata = { ...s.metadata, annotations };
}

