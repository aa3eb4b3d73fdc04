// PodLogOptions from a query: Kubernetes' conversions and ValidatePodLogOptions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatFieldError } from '../validation/field-errors.js';
import { decodePodLogOptions, podLogQuery, rfc3339Nano, validatePodLogOptions } from './options.js';

test('query values convert as Kubernetes converts them', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['', { follow: false, previous: false, timestamps: false }],
    ['follow=true&previous=1&timestamps=yes', { follow: true, previous: true, timestamps: true }],
    ['follow=false&previous=0&timestamps=no', { follow: false, previous: false, timestamps: false }],
    ['follow=F&previous=n', { follow: false, previous: false }],
    ['tailLines=10&limitBytes=5&sinceSeconds=3', { tailLines: 10, limitBytes: 5, sinceSeconds: 3 }],
    ['sinceTime=2026-01-01T00:00:01Z', { sinceTime: Date.UTC(2026, 0, 1, 0, 0, 1) }],
    ['container=web', { container: 'web' }],
  ];
  for (const [q, want] of cases) {
    const got = decodePodLogOptions(new URLSearchParams(q)) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, `${q}: ${k}`);
  }
  assert.throws(() => decodePodLogOptions(new URLSearchParams('tailLines=x')), /strconv.ParseInt: parsing "x": invalid syntax/);
  assert.throws(() => decodePodLogOptions(new URLSearchParams('sinceTime=yesterday')), /parsing time "yesterday"/);
  // the kubelet's legacy `tail` (all: no limit); the API server ignores it
  assert.equal(decodePodLogOptions(new URLSearchParams('tail=3'), true).tailLines, 3);
  assert.equal(decodePodLogOptions(new URLSearchParams('tail=all&tailLines=3'), true).tailLines, undefined);
  assert.equal(decodePodLogOptions(new URLSearchParams('tail=3')).tailLines, undefined);
});

test('validation as ValidatePodLogOptions', () => {
  const cases: Array<[string, string[]]> = [
    ['tailLines=0&limitBytes=1&sinceSeconds=1', []],
    ['tailLines=-1', ['tailLines: Invalid value: -1: must be greater than or equal to 0']],
    ['limitBytes=0', ['limitBytes: Invalid value: 0: must be greater than 0']],
    ['sinceSeconds=0', ['sinceSeconds: Invalid value: 0: must be greater than 0']],
    ['sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z', [': Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified']],
    ['stream=Both', ['stream: Unsupported value: "Both": supported values: "All", "Stdout", "Stderr"']],
  ];
  for (const [q, want] of cases) assert.deepEqual(validatePodLogOptions(decodePodLogOptions(new URLSearchParams(q))).map(formatFieldError), want, q);
});

test('the query sent on to the kubelet carries the options that are set', () => {
  const o = decodePodLogOptions(new URLSearchParams('follow=1&tailLines=2&sinceTime=2026-01-01T00:00:00Z&container=x'));
  assert.equal(podLogQuery(o).toString(), 'follow=true&sinceTime=2026-01-01T00%3A00%3A00Z&tailLines=2');
});

test('RFC 3339 with nanoseconds drops trailing zeros, as Go formats it', () => {
  assert.equal(rfc3339Nano(Date.UTC(2026, 0, 1)), '2026-01-01T00:00:00Z');
  assert.equal(rfc3339Nano(Date.UTC(2026, 0, 1, 0, 0, 10, 120)), '2026-01-01T00:00:10.12Z');
  assert.equal(rfc3339Nano(Date.UTC(2026, 0, 1, 0, 0, 0, 5)), '2026-01-01T00:00:00.005Z');
});
