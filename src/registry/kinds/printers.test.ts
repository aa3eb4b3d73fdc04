import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { allKinds } from '../../api/kinds.js';
import { formatLabelSelector, humanDuration } from '../printers/format.js';
import type { TablePrinter } from '../printers/types.js';
import { printerOf } from './index.js';
import { TESTDATA } from '../../../test/support/vectors.js';

/** The printer of a served resource, by its group and resource. */
function printerFor(group: string, resource: string): TablePrinter {
  const kind = allKinds.find((k) => k.group === group && k.resource === resource);
  assert.ok(kind, `${group}/${resource} is served`);
  return printerOf(kind);
}

const vectors = TESTDATA;
const load = (path: string) => JSON.parse(readFileSync(`${vectors}/${path}`, 'utf8'));
type Obj = Record<string, any>;

/** "109s", "8m23s" → milliseconds (the forms the vectors' Age cells use). */
function parseAge(age: string): number {
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(age);
  assert.ok(m, `age ${age}`);
  return (Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 1000;
}

test('humanDuration follows Kubernetes', () => {
  const s = 1000;
  const cases: Array<[number, string]> = [
    [-5 * s, '<invalid>'], [-1 * s, '0s'], [0, '0s'], [119 * s, '119s'], [120 * s, '2m'], [125 * s, '2m5s'],
    [10 * 60 * s, '10m'], [179 * 60 * s, '179m'], [3 * 3600 * s, '3h'], [(5 * 60 + 20) * 60 * s, '5h20m'],
    [30 * 3600 * s, '30h'], [(3 * 24 + 4) * 3600 * s, '3d4h'], [9 * 24 * 3600 * s, '9d'], [(2 * 365 + 10) * 24 * 3600 * s, '2y10d'], [9 * 365 * 24 * 3600 * s, '9y'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, String(ms));
});

test('formatLabelSelector sorts requirements and formats operators', () => {
  assert.equal(formatLabelSelector(undefined), '<none>');
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(
    formatLabelSelector({ matchLabels: { app: 'rich', 'vectors/owner': 'x' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend', 'backend'] }, { key: 'a', operator: 'DoesNotExist' }, { key: 'b', operator: 'Exists' }, { key: 'c', operator: 'NotIn', values: ['z'] }] }),
    '!a,app=rich,b,c notin (z),tier in (backend,frontend),vectors/owner=x',
  );
});

test('pod rows equal kube-apiserver’s for every pod of the vectors', () => {
  const table = load('tables/pods.table.includeObject-Object.json');
  const printer = printerFor('', 'pods');
  assert.deepEqual(printer.columns.map((c) => [c.name, c.type, c.format, c.priority, c.description]), table.columnDefinitions.map((c: Obj) => [c.name, c.type, c.format, c.priority, c.description]));
  const first = table.rows[0];
  const now = Date.parse(first.object.metadata.creationTimestamp) + parseAge(first.cells[4]) + 500;
  for (const row of table.rows) {
    assert.deepEqual(printer.cells(row.object, now), row.cells, row.object.metadata.name);
    assert.equal(printer.conditions?.(row.object), row.conditions);
  }
});

test('pod status summary: init containers, crash loops, completion, termination', () => {
  const printer = printerFor('', 'pods');
  const now = Date.parse('2026-01-01T00:10:00Z');
  const pod = (spec: Obj, status: Obj, metadata: Obj = {}) => ({ metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z', ...metadata }, spec, status });
  const cells = (p: Obj) => printer.cells(p, now).slice(1, 4);
  const running = { state: { running: { startedAt: '2026-01-01T00:00:01Z' } }, ready: true, restartCount: 0 };
  assert.deepEqual(cells(pod({ containers: [{ name: 'a' }] }, { phase: 'Running', containerStatuses: [running] })), ['1/1', 'Running', '0']);
  assert.deepEqual(
    cells(pod({ initContainers: [{ name: 'i' }], containers: [{ name: 'a' }] }, { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { running: {} }, restartCount: 0 }] })),
    ['0/1', 'Init:0/1', '0'],
  );
  assert.deepEqual(
    cells(pod({ initContainers: [{ name: 'i' }], containers: [{ name: 'a' }] }, { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { waiting: { reason: 'CrashLoopBackOff' } }, restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:09:00Z' } } }] })),
    ['0/1', 'Init:CrashLoopBackOff', '2 (60s ago)'],
  );
  assert.deepEqual(
    cells(pod({ containers: [{ name: 'a' }] }, { phase: 'Running', containerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } }, restartCount: 3, lastState: { terminated: { exitCode: 2, finishedAt: '2026-01-01T00:08:00Z' } } }] })),
    ['0/1', 'CrashLoopBackOff', '3 (2m ago)'],
  );
  assert.deepEqual(cells(pod({ containers: [{ name: 'a' }] }, { phase: 'Succeeded', containerStatuses: [{ state: { terminated: { exitCode: 0, reason: 'Completed' } } }] })), ['0/1', 'Completed', '0']);
  assert.deepEqual(cells(pod({ containers: [{ name: 'a' }] }, { phase: 'Failed', containerStatuses: [{ state: { terminated: { exitCode: 3 } } }] })), ['0/1', 'ExitCode:3', '0']);
  assert.deepEqual(cells(pod({ containers: [{ name: 'a' }] }, { phase: 'Running', containerStatuses: [running] }, { deletionTimestamp: '2026-01-01T00:09:00Z' })), ['1/1', 'Terminating', '0']);
  // A sidecar (restartable init container) counts among the containers.
  assert.deepEqual(
    cells(pod({ initContainers: [{ name: 's', restartPolicy: 'Always' }], containers: [{ name: 'a' }] }, { phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }], initContainerStatuses: [{ name: 's', started: true, ready: true, state: { running: {} } }], containerStatuses: [running] })),
    ['2/2', 'Running', '0'],
  );
  assert.deepEqual(printer.conditions?.(pod({ containers: [] }, { phase: 'Succeeded' })), [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
});

test('workload, cluster and config rows match the vectors (time cells aside)', () => {
  const cases: Array<[string, string, string, number[]]> = [
    ['apps', 'deployments', 'Deployment', [4]],
    ['apps', 'replicasets', 'ReplicaSet', [4]],
    ['apps', 'daemonsets', 'DaemonSet', [7]],
    ['batch', 'jobs', 'Job', [2, 3]],
    ['batch', 'cronjobs', 'CronJob', [4, 5]],
    ['', 'namespaces', 'Namespace', [2]],
    ['', 'nodes', 'Node', [3]],
  ];
  let compared = 0;
  for (const [group, resource, kind, timeCells] of cases) {
    const table = load(`tables/${resource}.table.json`);
    const printer = printerFor(group, resource);
    assert.deepEqual(printer.columns.map((c) => [c.name, c.type, c.format, c.priority, c.description]), table.columnDefinitions.map((c: Obj) => [c.name, c.type, c.format, c.priority, c.description]), resource);
    let object: Obj;
    try {
      object = load(`objects/${kind}.pb.json`);
    } catch {
      continue;
    }
    const row = table.rows.find((r: Obj) => r.object.metadata.name === object.metadata.name);
    if (!row) continue;
    const got = printer.cells(object, Date.now());
    const mask = (cells: unknown[]) => cells.map((c, i) => (timeCells.includes(i) ? '*' : c));
    assert.deepEqual(mask(got), mask(row.cells), `${resource}/${object.metadata.name}`);
    compared++;
  }
  assert.ok(compared >= 5, `only ${compared} kinds had a vector row to compare`);
});

test('events rows match the vectors', () => {
  const table = load('tables/events.table.json');
  const printer = printerFor('', 'events');
  assert.deepEqual(printer.columns.map((c) => [c.name, c.type, c.format, c.priority, c.description]), table.columnDefinitions.map((c: Obj) => [c.name, c.type, c.format, c.priority, c.description]));
  const event = load('objects/Event.pb.json');
  const got = printer.cells(event, Date.now());
  assert.equal(got[9], event.metadata.name);
  assert.equal(got[3], `${event.involvedObject.kind.toLowerCase()}/${event.involvedObject.name}`);
});

test('replicationcontrollers: NAME DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR (the map as labels)', () => {
  const printer = printerFor('', 'replicationcontrollers');
  assert.deepEqual(
    printer.columns.map((c) => [c.name, c.type, c.priority ?? 0]),
    [['Name', 'string', 0], ['Desired', 'integer', 0], ['Current', 'integer', 0], ['Ready', 'integer', 0], ['Age', 'string', 0], ['Containers', 'string', 1], ['Images', 'string', 1], ['Selector', 'string', 1]],
  );
  const now = Date.parse('2026-01-01T00:02:05Z');
  const rc = {
    metadata: { name: 'web', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { replicas: 3, selector: { tier: 'front', app: 'web' }, template: { spec: { containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'busybox:1' }] } } },
    status: { replicas: 2, readyReplicas: 1 },
  };
  assert.deepEqual(printer.cells(rc, now), ['web', 3, 2, 1, '2m5s', 'a,b', 'nginx,busybox:1', 'app=web,tier=front']);
  assert.deepEqual(printer.cells({ metadata: { name: 'e', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: {} }, now), ['e', 0, 0, 0, '2m5s', '', '', '<none>']);
});
