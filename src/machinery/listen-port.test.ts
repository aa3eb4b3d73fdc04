import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { describe, it } from 'node:test';
import { canListen, ephemeralPortRange, freeListenPort } from './listen-port.js';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
}
const portOf = (s: Server) => (s.address() as { port: number }).port;
const close = (s: Server) => new Promise<void>((r) => s.close(() => r()));

describe('freeListenPort', () => {
  it('reads the kernel ephemeral range, and falls back to Linux default when it cannot', () => {
    assert.deepEqual(ephemeralPortRange(() => '32768\t60999\n'), [32768, 60999]);
    assert.deepEqual(ephemeralPortRange(() => '49152 65535'), [49152, 65535]);
    assert.deepEqual(ephemeralPortRange(() => 'nonsense'), [32768, 60999]);
    assert.deepEqual(ephemeralPortRange(() => { throw new Error('ENOENT'); }), [32768, 60999]);
  });

  it('picks a listenable port below the ephemeral range, where outgoing connections never take it', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freeListenPort('127.0.0.1', new Set(), Math.random, [32768, 60999]);
      assert.ok(port >= 10000 && port < 32768, `port ${port}`);
      assert.equal(await canListen('127.0.0.1', port), true);
    }
  });

  it('skips a port in use and a port already taken by the caller', async () => {
    const busy = await listenOn(0);
    try {
      const range: [number, number] = [portOf(busy) + 2, 65535];
      // random() pinned so the first attempts land on the busy port, then the taken one, then the next
      const wanted = [portOf(busy), portOf(busy) + 1];
      const picks = [...wanted, ...wanted];
      const span = range[0] - 10000;
      let asked = 0;
      const random = () => ((picks[asked++] ?? portOf(busy) + 1) - 10000 + 0.5) / span;
      const port = await freeListenPort('127.0.0.1', new Set([portOf(busy) + 1]), random, range);
      assert.notEqual(port, portOf(busy));
      assert.notEqual(port, portOf(busy) + 1);
    } finally {
      await close(busy);
    }
  });

  it('asks the kernel when the ephemeral range leaves no room below it', async () => {
    const port = await freeListenPort('127.0.0.1', new Set(), () => 0, [1024, 65535]);
    assert.ok(port > 0);
    assert.equal(await canListen('127.0.0.1', port), true);
  });
});
