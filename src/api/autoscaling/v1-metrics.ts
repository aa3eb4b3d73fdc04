// The autoscaling/v1 metric structs (MetricSpec, MetricStatus, HorizontalPodAutoscalerCondition)
// as Go's encoding/json writes and reads them in the round-trip annotations of a v1
// HorizontalPodAutoscaler (see ./conversion.ts), converted from and to their autoscaling/v2
// form as pkg/apis/autoscaling/v1/conversion.go does. Objects are built in Go struct order so
// that JSON.stringify writes the annotation byte for byte as kube-apiserver does; omitempty
// fields are left out when empty, non-pointer Quantities are written as "0" when unset.
import { isNil, isObj, type Obj } from '../go-json.js';

const o = (v: unknown): Obj => (isObj(v) ? v : {});
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Adds `value` at `key` unless Go's omitempty would leave it out (nil, "", an empty list). The
 * objects put here are pointers to structs (selectors): written even when empty.
 */
function put(out: Obj, key: string, value: unknown): void {
  if (isNil(value) || value === '' || (Array.isArray(value) && value.length === 0)) return;
  out[key] = value;
}

/** A *metav1.LabelSelector as Go writes it (matchLabels keys sorted, both omitempty). */
function selectorJson(v: unknown): Obj | undefined {
  if (!isObj(v)) return undefined;
  const out: Obj = {};
  if (isObj(v.matchLabels) && Object.keys(v.matchLabels).length > 0) {
    const labels: Obj = {};
    for (const k of Object.keys(v.matchLabels).sort()) labels[k] = v.matchLabels[k];
    out.matchLabels = labels;
  }
  if (Array.isArray(v.matchExpressions) && v.matchExpressions.length > 0) {
    out.matchExpressions = v.matchExpressions.map((e) => {
      const r: Obj = { key: s(o(e).key), operator: s(o(e).operator) };
      put(r, 'values', o(e).values);
      return r;
    });
  }
  return out;
}

/** CrossVersionObjectReference (kind and name always, apiVersion omitempty). */
function refJson(v: unknown): Obj {
  const r: Obj = { kind: s(o(v).kind), name: s(o(v).name) };
  put(r, 'apiVersion', o(v).apiVersion);
  return r;
}

const quantity = (v: unknown): string => (typeof v === 'string' ? v : '0');

/** v2 MetricSpec → v1 MetricSpec (Convert_autoscaling_MetricSpec_To_v1_MetricSpec). */
export function metricSpecToV1(m: Obj): Obj {
  const out: Obj = { type: s(m.type) };
  if (isObj(m.object)) {
    const src = m.object;
    const r: Obj = { target: refJson(src.describedObject), metricName: s(o(src.metric).name), targetValue: quantity(o(src.target).value) };
    put(r, 'selector', selectorJson(o(src.metric).selector));
    put(r, 'averageValue', o(src.target).averageValue);
    out.object = r;
  }
  if (isObj(m.pods)) {
    const src = m.pods;
    const r: Obj = { metricName: s(o(src.metric).name), targetAverageValue: quantity(o(src.target).averageValue) };
    put(r, 'selector', selectorJson(o(src.metric).selector));
    out.pods = r;
  }
  if (isObj(m.resource)) out.resource = resourceSourceToV1(m.resource);
  if (isObj(m.containerResource)) out.containerResource = { ...resourceSourceToV1(m.containerResource), container: s(m.containerResource.container) };
  if (isObj(m.external)) {
    const src = m.external;
    const r: Obj = { metricName: s(o(src.metric).name) };
    put(r, 'metricSelector', selectorJson(o(src.metric).selector));
    put(r, 'targetValue', o(src.target).value);
    put(r, 'targetAverageValue', o(src.target).averageValue);
    out.external = r;
  }
  return out;
}

function resourceSourceToV1(src: Obj): Obj {
  const r: Obj = { name: s(src.name) };
  put(r, 'targetAverageUtilization', o(src.target).averageUtilization);
  put(r, 'targetAverageValue', o(src.target).averageValue);
  return r;
}

/** The fields that are set (a v2 struct of pointers: nil ones are absent). */
function defined(fields: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(fields)) if (!isNil(v)) out[k] = v;
  return out;
}

/** A v2 MetricTarget from a v1 source's fields, its type chosen as the v1 conversion does. */
const target = (type: string, fields: Obj): Obj => ({ type, ...defined(fields) });

function identifier(name: unknown, selector: unknown): Obj {
  const id: Obj = { name: s(name) };
  if (isObj(selector)) id.selector = selector;
  return id;
}

/** v1 MetricSpec → v2 MetricSpec (Convert_v1_MetricSpec_To_autoscaling_MetricSpec). */
export function metricSpecFromV1(m: Obj): Obj {
  const out: Obj = { type: s(m.type) };
  if (isObj(m.object)) {
    const src = m.object;
    out.object = {
      describedObject: refJson(src.target),
      target: target(isNil(src.averageValue) ? 'Value' : 'AverageValue', { value: quantity(src.targetValue), averageValue: src.averageValue }),
      metric: identifier(src.metricName, src.selector),
    };
  }
  if (isObj(m.pods)) {
    const src = m.pods;
    out.pods = { metric: identifier(src.metricName, src.selector), target: target('AverageValue', { averageValue: quantity(src.targetAverageValue) }) };
  }
  if (isObj(m.resource)) out.resource = resourceSourceFromV1(m.resource);
  if (isObj(m.containerResource)) out.containerResource = { ...resourceSourceFromV1(m.containerResource), container: s(m.containerResource.container) };
  if (isObj(m.external)) {
    const src = m.external;
    out.external = {
      metric: identifier(src.metricName, src.metricSelector),
      target: target(isNil(src.targetValue) ? 'AverageValue' : 'Value', { value: src.targetValue, averageValue: src.targetAverageValue }),
    };
  }
  return out;
}

function resourceSourceFromV1(src: Obj): Obj {
  const utilization = src.targetAverageUtilization;
  return { name: s(src.name), target: target(isNil(utilization) ? 'AverageValue' : 'Utilization', { averageValue: src.targetAverageValue, averageUtilization: utilization }) };
}

/** v2 MetricStatus → v1 MetricStatus. */
export function metricStatusToV1(m: Obj): Obj {
  const out: Obj = { type: s(m.type) };
  if (isObj(m.object)) {
    const src = m.object;
    const r: Obj = { target: refJson(src.describedObject), metricName: s(o(src.metric).name), currentValue: quantity(o(src.current).value) };
    put(r, 'selector', selectorJson(o(src.metric).selector));
    put(r, 'averageValue', o(src.current).averageValue);
    out.object = r;
  }
  if (isObj(m.pods)) {
    const src = m.pods;
    const r: Obj = { metricName: s(o(src.metric).name), currentAverageValue: quantity(o(src.current).averageValue) };
    put(r, 'selector', selectorJson(o(src.metric).selector));
    out.pods = r;
  }
  if (isObj(m.resource)) out.resource = resourceStatusToV1(m.resource);
  if (isObj(m.containerResource)) out.containerResource = { ...resourceStatusToV1(m.containerResource), container: s(m.containerResource.container) };
  if (isObj(m.external)) {
    const src = m.external;
    const r: Obj = { metricName: s(o(src.metric).name) };
    put(r, 'metricSelector', selectorJson(o(src.metric).selector));
    r.currentValue = quantity(o(src.current).value);
    put(r, 'currentAverageValue', o(src.current).averageValue);
    out.external = r;
  }
  return out;
}

function resourceStatusToV1(src: Obj): Obj {
  const r: Obj = { name: s(src.name) };
  put(r, 'currentAverageUtilization', o(src.current).averageUtilization);
  r.currentAverageValue = quantity(o(src.current).averageValue);
  return r;
}

/** v1 MetricStatus → v2 MetricStatus. */
export function metricStatusFromV1(m: Obj): Obj {
  const out: Obj = { type: s(m.type) };
  if (isObj(m.object)) {
    const src = m.object;
    out.object = { metric: identifier(src.metricName, src.selector), current: defined({ value: quantity(src.currentValue), averageValue: src.averageValue }), describedObject: refJson(src.target) };
  }
  if (isObj(m.pods)) out.pods = { metric: identifier(m.pods.metricName, m.pods.selector), current: { averageValue: quantity(m.pods.currentAverageValue) } };
  if (isObj(m.resource)) out.resource = resourceStatusFromV1(m.resource);
  if (isObj(m.containerResource)) out.containerResource = { ...resourceStatusFromV1(m.containerResource), container: s(m.containerResource.container) };
  if (isObj(m.external)) {
    const src = m.external;
    out.external = { metric: identifier(src.metricName, src.metricSelector), current: defined({ value: quantity(src.currentValue), averageValue: src.currentAverageValue }) };
  }
  return out;
}

function resourceStatusFromV1(src: Obj): Obj {
  return { name: s(src.name), current: defined({ averageValue: quantity(src.currentAverageValue), averageUtilization: src.currentAverageUtilization }) };
}

/** HorizontalPodAutoscalerCondition (v1 and v2 have the same fields). lastTransitionTime is a struct: null when zero. */
export function conditionJson(c: Obj): Obj {
  const r: Obj = { type: s(c.type), status: s(c.status), lastTransitionTime: isNil(c.lastTransitionTime) ? null : c.lastTransitionTime };
  put(r, 'reason', c.reason);
  put(r, 'message', c.message);
  return r;
}
