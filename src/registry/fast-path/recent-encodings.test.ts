import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentEncodings } from './recent-encodings.js';

describe('recent watch event encodings', () => {
  it('encodes an event once per encoding while it is recent, and forgets the oldest beyond capacity', () => {
    const cache = new RecentEncodings(3);
    let calls = 0;
    const encode = (text: string) => () => {
      calls++;
      return new TextEncoder().encode(text);
    };
    const events = [{}, {}, {}, {}];
    const a = cache.get(events[0]!, 'json', encode('a-json'));
    assert.equal(cache.get(events[0]!, 'json', encode('again')), a);
    cache.get(events[0]!, 'protobuf', encode('a-pb'));
    assert.equal(calls, 2);
    cache.get(events[1]!, 'json', encode('b'));
    cache.get(events[2]!, 'json', encode('c'));
    assert.equal(cache.size, 3);
    // A fourth event pushes out the oldest: its bytes are made anew when asked again.
    cache.get(events[3]!, 'json', encode('d'));
    assert.equal(cache.size, 3);
    assert.equal(calls, 5);
    assert.equal(new TextDecoder().decode(cache.get(events[0]!, 'json', encode('a-again'))), 'a-again');
    assert.equal(calls, 6);
    // ...which in turn pushed out events[1], while events[2] is still there.
    cache.get(events[2]!, 'json', encode('unused'));
    assert.equal(calls, 6);
  });
});
