import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { waitFor } from '../../../test/support/wait.js';
import { dialSpdy, readAll } from './spdy-client.testutil.js';
import { startEchoServer, startStreamsTestServer, type StreamsTestServer } from './streams-server.testutil.js';
import { portsFromQuery } from './portforward.js';

let server: StreamsTestServer;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
before(async () => {
  echo = await startEchoServer();
  server = await startStreamsTestServer({ 8080: echo.port });
});
after(async () => {
  await server.close();
  await echo.close();
});

const pfUrl = (query = '') => `${server.url}/api/v1/namespaces/ns/pods/p/portforward${query}`;

describe('port-forward over SPDY', () => {
  it('pairs error and data streams by requestID and forwards both ways', async () => {
    const client = await dialSpdy(pfUrl(), ['portforward.k8s.io']);
    assert.equal(client.protocol, 'portforward.k8s.io');
    for (const requestID of ['0', '1']) {
      const error = await client.open({ streamType: 'error', port: '8080', requestID });
      const data = await client.open({ streamType: 'data', port: '8080', requestID });
      error.end();
      const back = readAll(data);
      data.end(`request ${requestID}`);
      assert.equal(await back, `request ${requestID}`);
      assert.equal(await readAll(error), '');
    }
    client.socket.destroy();
  });

  it('reports a failed forward on the error stream and closes both', async () => {
    const client = await dialSpdy(pfUrl(), ['portforward.k8s.io']);
    const error = await client.open({ streamType: 'error', port: '9999', requestID: '0' });
    const data = await client.open({ streamType: 'data', port: '9999', requestID: '0' });
    assert.deepEqual(await Promise.all([readAll(error), readAll(data)]), ['error forwarding port 9999 to pod p: no listener', '']);
    client.socket.destroy();
  });

  it('resets streams without a valid port or stream type, pairs requestID-less old clients by stream id', async () => {
    const client = await dialSpdy(pfUrl(), ['portforward.k8s.io']);
    await assert.rejects(client.open({ streamType: 'data' }), /was reset/);
    await assert.rejects(client.open({ streamType: 'data', port: '0' }), /was reset/);
    await assert.rejects(client.open({ streamType: 'stdout', port: '8080' }), /was reset/);
    const error = await client.open({ streamType: 'error', port: '8080' });
    const data = await client.open({ streamType: 'data', port: '8080' });
    assert.equal(data.id, error.id + 2);
    const back = readAll(data);
    data.end('old client');
    assert.equal(await back, 'old client');
    client.socket.destroy();
  });

  it('leaves no streams or connections behind after many forwards', async () => {
    const client = await dialSpdy(pfUrl(), ['portforward.k8s.io']);
    const session = await waitFor(() => server.sessions.portForward.at(-1), 'the session');
    for (let i = 0; i < 200; i++) {
      const error = await client.open({ streamType: 'error', port: '8080', requestID: String(i) });
      const data = await client.open({ streamType: 'data', port: '8080', requestID: String(i) });
      error.end();
      const back = readAll(data);
      data.end('x');
      assert.equal(await back, 'x');
      await readAll(error);
    }
    await waitFor(() => client.connection.openStreams === 0, 'the client streams to finish');
    let closed = false;
    session.once('close', () => (closed = true));
    client.socket.destroy();
    await waitFor(() => closed, 'the session to close');
    await waitFor(
      () => new Promise<boolean>((resolve) => server.server.getConnections((_e, n) => resolve(n === 0))),
      'the server to hold no connection',
    );
  });
});

describe('port-forward over WebSocket channels', () => {
  it('opens each channel with the port and forwards on the data channel', async () => {
    const ws = new WebSocket(pfUrl('?ports=8080').replace('http:', 'ws:'), ['v4.channel.k8s.io']);
    const messages: Buffer[] = [];
    ws.on('message', (m: Buffer) => messages.push(m));
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject));
    await waitFor(() => messages.length >= 2, 'the port announcements');
    assert.deepEqual(messages.slice(0, 2), [Buffer.from([0, 0x90, 0x1f]), Buffer.from([1, 0x90, 0x1f])]);
    ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('over channels')]));
    await waitFor(() => messages.slice(2).some((m) => m.subarray(1).toString() === 'over channels'), 'the echo');
    ws.close();
  });

  it('reads ports from the query as the kubelet does', () => {
    assert.deepEqual(portsFromQuery(new URLSearchParams('port=80&ports=81,82')), [80, 81, 82]);
    assert.deepEqual(portsFromQuery(new URLSearchParams('')), { status: 400, message: 'query parameter "port" is required' });
    assert.deepEqual(portsFromQuery(new URLSearchParams('port=0')), { status: 400, message: 'port "0" must be > 0' });
    assert.deepEqual(portsFromQuery(new URLSearchParams('port=x')), { status: 400, message: 'unable to parse "x" as a port' });
  });
});
