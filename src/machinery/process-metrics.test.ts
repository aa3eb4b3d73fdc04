import assert from 'node:assert/strict';
import { test } from 'node:test';
import { processMetricsText } from './process-metrics.js';

const value = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

test('process metrics: resident memory, the V8 heap, external memory and the ArrayBuffers within it', async () => {
  const held = Buffer.alloc(8 * 2 ** 20, 1);
  const text = await processMetricsText();
  for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes', 'nodejs_array_buffers_bytes']) {
    assert.ok(value(text, name) > 0, `${name} is reported`);
  }
  assert.ok(value(text, 'nodejs_array_buffers_bytes') >= held.length, 'a held Buffer counts among the ArrayBuffers');
  assert.ok(value(text, 'nodejs_array_buffers_bytes') <= value(text, 'nodejs_external_memory_bytes'), 'ArrayBuffers are part of external memory');
  assert.match(text, /^# TYPE nodejs_array_buffers_bytes gauge$/m);
  assert.equal(await processMetricsText().then((t) => t.match(/^# TYPE process_resident_memory_bytes /gm)?.length), 1, 'one registry, scraped again');
});
