import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { RateLimitingQueue } from '../client/workqueue.js';
import { registerWorkQueueMetrics } from './metrics.js';

test('workqueue_* metrics of named queues', async () => {
  const registry = new Registry();
  registerWorkQueueMetrics(registry);
  const q = new RateLimitingQueue<string>({ name: 'metrics-test-queue' });
  q.add('a');
  q.add('b');
  const item = await q.get();
  q.done(item!);
  const text = await registry.metrics();
  assert.match(text, /workqueue_depth\{name="metrics-test-queue"\} 1/);
  assert.match(text, /workqueue_adds_total\{name="metrics-test-queue"\} 2/);
  assert.match(text, /workqueue_retries_total\{name="metrics-test-queue"\} 0/);
  assert.match(text, /# TYPE workqueue_queue_duration_seconds summary/);
  assert.match(text, /workqueue_queue_duration_seconds_count\{name="metrics-test-queue"\} 1/);
  assert.match(text, /workqueue_work_duration_seconds_count\{name="metrics-test-queue"\} 1/);
  q.shutDown();
});

test('rest_client_* metrics from the REST client counters', async () => {
  const { registerRestClientMetrics } = await import('./metrics.js');
  const registry = new Registry();
  registerRestClientMetrics(registry, { requests: new Map([['200 GET', 3], ['409 PUT', 1]]), latencyMsSum: 1500, latencyCount: 4, retries: 2 }, '127.0.0.1:6443');
  const text = await registry.metrics();
  assert.match(text, /rest_client_requests_total\{code="200",method="GET",host="127.0.0.1:6443"\} 3/);
  assert.match(text, /rest_client_requests_total\{code="409",method="PUT",host="127.0.0.1:6443"\} 1/);
  assert.match(text, /rest_client_request_duration_seconds_sum\{host="127.0.0.1:6443"\} 1.5/);
  assert.match(text, /rest_client_request_retries_total\{host="127.0.0.1:6443"\} 2/);
});
