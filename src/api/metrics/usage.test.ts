// The simulated usage model: defaults from requests, the annotations (pod-wide and per container,
// the container's winning), what is rejected and why, and the node sums.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Node, Pod } from '../types.js';
import { isNodeMeasured, nodeUsage, parseUsage, podDemand, podUsage, totalOf, UsageAnnotationError } from './usage.js';

const show = (u: { cpu: { toString(): string }; memory: { toString(): string } }) => `${u.cpu.toString()} ${u.memory.toString()}`;

function pod(containers: Array<{ name: string; requests?: Record<string, string> }>, annotations: Record<string, string> = {}, extra: Partial<Pod> = {}): Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', annotations },
    spec: { nodeName: 'n1', containers: containers.map((c) => ({ name: c.name, image: 'i', resources: c.requests ? { requests: c.requests } : {} })) },
    status: { phase: 'Running' },
    ...extra,
  } as Pod;
}

test('parseUsage: cpu and memory quantities, either optional, spaces allowed', () => {
  assert.equal(show(parseUsage('cpu=200m,memory=64Mi') as never), '200m 64Mi');
  assert.equal(parseUsage(' memory = 1Gi ').memory!.toString(), '1Gi');
  assert.equal(parseUsage('cpu=1.5').cpu!.toString(), '1500m');
  assert.equal(parseUsage('cpu=0').cpu!.toString(), '0');
});

test('parseUsage rejects what it cannot read, saying why', () => {
  const cases: Array<[string, string]> = [
    ['', 'is empty: expected cpu=<quantity>,memory=<quantity>'],
    ['cpu', '"cpu" is not <resource>=<quantity>'],
    ['gpu=1', 'unknown resource "gpu": only cpu and memory have usage'],
    ['cpu=1,cpu=2', 'cpu is given twice'],
    ['memory=lots', 'memory: "lots" is not a quantity'],
    ['cpu=-1', 'cpu: "-1" is negative'],
  ];
  for (const [text, message] of cases) assert.throws(() => parseUsage(text), (err: unknown) => err instanceof UsageAnnotationError && err.message === message, text);
});

test('by default a container uses half its requests, and 1m / 4Mi of what it does not request', () => {
  const { containers, problems } = podUsage(pod([{ name: 'a', requests: { cpu: '200m', memory: '128Mi' } }, { name: 'b' }, { name: 'c', requests: { cpu: '1m', memory: '1Mi' } }]));
  assert.deepEqual(problems, []);
  assert.deepEqual(containers.map((c) => `${c.name} ${show(c.usage)}`), ['a 100m 64Mi', 'b 1m 4Mi', 'c 1m 4Mi']);
  assert.equal(show(totalOf(containers)), '102m 72Mi');
});

test('kubelite.dev/usage sets every container; kubelite.dev/<container>.usage wins for its container, key by key', () => {
  const p = pod([{ name: 'main', requests: { cpu: '1' } }, { name: 'worker' }], { 'kubelite.dev/usage': 'cpu=300m', 'kubelite.dev/worker.usage': 'memory=2Gi' });
  assert.deepEqual(podUsage(p).containers.map((c) => `${c.name} ${show(c.usage)}`), ['main 300m 4Mi', 'worker 300m 2Gi']);
});

test('a rejected annotation is reported once, and the containers keep their defaults', () => {
  const p = pod([{ name: 'a', requests: { cpu: '40m', memory: '32Mi' } }, { name: 'b' }], { 'kubelite.dev/usage': 'cpu=lots', 'kubelite.dev/b.usage': 'disk=1' });
  const { containers, problems } = podUsage(p);
  assert.deepEqual(problems, [
    { annotation: 'kubelite.dev/usage', message: 'cpu: "lots" is not a quantity' },
    { annotation: 'kubelite.dev/b.usage', message: 'unknown resource "disk": only cpu and memory have usage' },
  ]);
  assert.deepEqual(containers.map((c) => show(c.usage)), ['20m 16Mi', '1m 4Mi']);
});

test('a node uses 100m / 256Mi plus its Running pods; other phases and nodes do not count', () => {
  const node = { metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } } as Node;
  const pods = [
    pod([{ name: 'a', requests: { cpu: '200m', memory: '128Mi' } }]),
    pod([{ name: 'a', requests: { cpu: '2', memory: '1Gi' } }], {}, { status: { phase: 'Pending' } }),
    pod([{ name: 'a', requests: { cpu: '2', memory: '1Gi' } }], {}, { spec: { nodeName: 'n2', containers: [{ name: 'a' }] } }),
  ];
  assert.equal(show(nodeUsage(node, pods)), '200m 320Mi');
  assert.equal(isNodeMeasured(node), true);
  assert.equal(isNodeMeasured({ metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'False' }] } } as Node), false);
});

test('measured usage is held to the limits (CPU throttled, memory never above); the demand is not', () => {
  const p: Pod = {
    metadata: { name: 'p', namespace: 'ns', annotations: { 'kubelite.dev/usage': 'cpu=2,memory=1Gi' } },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '500m', memory: '256Mi' } } }, { name: 'd', image: 'i' }] },
    status: { phase: 'Running' },
  };
  assert.deepEqual(podUsage(p).containers.map((c) => show(c.usage)), ['500m 256Mi', '2 1Gi']);
  assert.deepEqual(podDemand(p).containers.map((c) => show(c.usage)), ['2 1Gi', '2 1Gi']);
});
