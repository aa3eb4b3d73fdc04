import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiServerMetrics } from './metrics.js';

describe('apiserver metrics', () => {
  it('counts requests and buckets latencies in Prometheus text format, then the process metrics', async () => {
    const m = new ApiServerMetrics();
    const pods = { verb: 'create', group: '', resource: 'pods' };
    m.request(pods, 201);
    m.request(pods, 201);
    m.request({ verb: 'get', group: 'apps', resource: 'deployments' }, 404);
    m.observe(pods, 0.0004);
    m.observe(pods, 0.003);
    m.observe(pods, 7);
    m.request({ verb: 'get', group: 'a"b\\c\nd', resource: '' }, 200);
    const text = await m.render();
    const lines = text.split('\n');
    assert.ok(lines.includes('# TYPE apiserver_request_total counter'));
    assert.ok(lines.includes('apiserver_request_total{verb="create",group="",resource="pods",code="201"} 2'));
    assert.ok(lines.includes('apiserver_request_total{verb="get",group="apps",resource="deployments",code="404"} 1'));
    assert.ok(lines.includes('apiserver_request_total{verb="get",group="a\\"b\\\\c\\nd",resource="",code="200"} 1'));
    assert.ok(lines.includes('# TYPE apiserver_request_duration_seconds histogram'));
    const bucket = (le: string) => lines.find((l) => l.startsWith(`apiserver_request_duration_seconds_bucket{le="${le}",verb="create"`))?.split(' ')[1];
    assert.equal(bucket('0.0005'), '1');
    assert.equal(bucket('0.0025'), '1');
    assert.equal(bucket('0.005'), '2');
    assert.equal(bucket('5'), '2');
    assert.equal(bucket('+Inf'), '3');
    assert.ok(lines.includes('apiserver_request_duration_seconds_count{verb="create",group="",resource="pods"} 3'));
    assert.ok(lines.some((l) => /^apiserver_request_duration_seconds_sum\{verb="create",group="",resource="pods"\} 7\.003/.test(l)));
    // prom-client's default metrics follow, loaded on this first scrape.
    assert.ok(lines.some((l) => l.startsWith('process_cpu_user_seconds_total ')));
    assert.ok(lines.some((l) => l.startsWith('nodejs_heap_size_used_bytes ')));
  });
});
