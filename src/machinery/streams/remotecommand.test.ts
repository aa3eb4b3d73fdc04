import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { waitFor } from '../../../test/support/wait.js';
import { dialSpdy, readAll, type SpdyClient, type UpgradeAnswer } from './spdy-client.testutil.js';
import { startStreamsTestServer, type StreamsTestServer } from './streams-server.testutil.js';

let server: StreamsTestServer;
before(async () => {
  server = await startStreamsTestServer({});
});
after(() => server.close());

const execUrl = (query: string) => `${server.url}/api/v1/namespaces/ns/pods/p/exec?${query}`;

/** Opens the streams client-go opens for these options, in its order (error first). */
async function openExecStreams(client: SpdyClient, types: string[]) {
  const streams: Record<string, Awaited<ReturnType<SpdyClient['open']>>> = {};
  for (const type of ['error', ...types]) streams[type] = await client.open({ streamType: type });
  return streams;
}

describe('remote command over SPDY', () => {
  it('negotiates v4, runs the command and reports success as a JSON Status', async () => {
    const client = await dialSpdy(execUrl('command=echo&command=hi&stdout=1&stderr=1'), ['v4.channel.k8s.io', 'v3.channel.k8s.io']);
    assert.equal(client.protocol, 'v4.channel.k8s.io');
    const s = await openExecStreams(client, ['stdout', 'stderr']);
    const [out, err, status] = await Promise.all([readAll(s.stdout!), readAll(s.stderr!), readAll(s.error!)]);
    assert.equal(out, 'hi\n');
    assert.equal(err, '');
    assert.deepEqual(JSON.parse(status), { metadata: {}, status: 'Success' });
    await waitFor(() => client.connection.closed || client.socket.destroyed || client.socket.readableEnded || client.connection.openStreams === 0, 'server to close');
    client.socket.destroy();
  });

  it('reports a non-zero exit code as NonZeroExitCode with an ExitCode cause', async () => {
    const client = await dialSpdy(execUrl('command=exit&command=3&stdout=true'), ['v4.channel.k8s.io']);
    const s = await openExecStreams(client, ['stdout']);
    assert.deepEqual(JSON.parse(await readAll(s.error!)), {
      metadata: {},
      status: 'Failure',
      message: 'command terminated with non-zero exit code: exit status 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
    client.socket.destroy();
  });

  it('speaks the text error stream of v3 and older, silent on success', async () => {
    const failing = await dialSpdy(execUrl('command=fail&command=no+runtime&stdout=1'), ['v3.channel.k8s.io']);
    const f = await openExecStreams(failing, ['stdout']);
    assert.equal(await readAll(f.error!), 'Internal error occurred: error executing command in container: no runtime');
    failing.socket.destroy();
    const fine = await dialSpdy(execUrl('command=echo&command=ok&stdout=1'), ['v2.channel.k8s.io']);
    const g = await openExecStreams(fine, ['stdout']);
    assert.deepEqual(await Promise.all([readAll(g.stdout!), readAll(g.error!)]), ['ok\n', '']);
    fine.socket.destroy();
  });

  it('passes stdin through until the client closes it', async () => {
    const client = await dialSpdy(execUrl('command=cat&stdin=1&stdout=1'), ['v4.channel.k8s.io']);
    const s = await openExecStreams(client, ['stdin', 'stdout']);
    const out = readAll(s.stdout!);
    s.stdin!.write('line one\n');
    s.stdin!.end('line two\n');
    assert.equal(await out, 'line one\nline two\n');
    assert.equal(JSON.parse(await readAll(s.error!)).status, 'Success');
    client.socket.destroy();
  });

  it('opens a resize stream with a TTY and decodes terminal sizes', async () => {
    const client = await dialSpdy(execUrl('command=size&stdout=1&tty=1&stderr=1'), ['v4.channel.k8s.io']);
    // With a TTY there is no stderr stream: error, stdout, resize.
    const s = await openExecStreams(client, ['stdout', 'resize']);
    const out = readAll(s.stdout!);
    s.resize!.write('{"Width":120,');
    s.resize!.write('"Height":40}');
    assert.equal(await out, '120x40\n');
    client.socket.destroy();
  });

  it('refuses without a protocol version (400), with an unknown one (403), or with no stream asked for', async () => {
    const refused = (p: Promise<unknown>) => p.then(() => assert.fail('upgrade accepted'), (e: { answer: UpgradeAnswer }) => e.answer);
    const none = await refused(dialSpdy(execUrl('command=echo&stdout=1'), []));
    assert.equal(none.status, 400);
    assert.equal(none.body, 'unable to upgrade: X-Stream-Protocol-Version is required\n');
    const unknown = await refused(dialSpdy(execUrl('command=echo&stdout=1'), ['v9.channel.k8s.io']));
    assert.equal(unknown.status, 403);
    assert.equal(unknown.headers['x-accepted-stream-protocol-versions'], 'v4.channel.k8s.io, v3.channel.k8s.io, v2.channel.k8s.io, channel.k8s.io');
    assert.match(unknown.body, /^unable to upgrade: unable to negotiate protocol: client supports \[v9.channel.k8s.io\], server accepts \[v4.channel.k8s.io v3/);
    const nothing = await refused(dialSpdy(execUrl('command=echo'), ['v4.channel.k8s.io']));
    assert.deepEqual([nothing.status, nothing.body], [400, 'you must specify at least 1 of stdin, stdout, stderr\n']);
    const notSpdy = await refused(dialSpdy(execUrl('command=echo&stdout=1'), ['v4.channel.k8s.io'], { Upgrade: 'h2c' }));
    assert.equal(notSpdy.status, 400);
    assert.match(notSpdy.body, /^unable to upgrade: missing upgrade headers in request: http.Header\{"Connection":\[\]string\{"Upgrade"\}/);
  });

  it('lets go of sessions whose client hangs up, mid-command or before opening its streams', async () => {
    const before = server.sessions.exec.length;
    const client = await dialSpdy(execUrl('command=cat&stdin=1&stdout=1'), ['v4.channel.k8s.io']);
    await openExecStreams(client, ['stdin', 'stdout']);
    const session = await waitFor(() => server.sessions.exec[before], 'the session');
    client.socket.destroy();
    await waitFor(() => session.signal.aborted, 'the session to see the client leave');
    assert.ok(session.stdin!.destroyed && session.stdout!.destroyed);
    const errors = server.sessions.errors.length;
    const early = await dialSpdy(execUrl('command=cat&stdin=1&stdout=1'), ['v4.channel.k8s.io']);
    early.socket.destroy();
    await waitFor(() => server.sessions.errors.length > errors, 'the accept to fail');
    assert.match(server.sessions.errors.at(-1)!.message, /closed the connection before creating its streams/);
  });

  it('holds a client that stops reading to what the sockets buffer, and lets go when it leaves', async () => {
    const seen = server.sessions.exec.length;
    const client = await dialSpdy(execUrl('command=flood&stdout=1'), ['v4.channel.k8s.io']);
    await openExecStreams(client, ['stdout']);
    client.socket.pause();
    const session = (await waitFor(() => server.sessions.exec[seen], 'the session')) as { flooded?: number; signal: AbortSignal };
    // The writer ends up waiting for a drain that does not come: what it wrote stays bounded.
    let last = -1;
    await waitFor(async () => {
      const now = session.flooded ?? 0;
      const settled = now === last && now > 0;
      last = now;
      await new Promise((r) => setTimeout(r, 100));
      return settled;
    }, 'the writer to block');
    assert.ok(session.flooded! < 64 * 1024 * 1024, `wrote ${session.flooded} bytes to a client that reads nothing`);
    client.socket.destroy();
    await waitFor(() => session.signal.aborted, 'the session to end');
  });
});

function dialWebSocket(query: string, protocols: string[]): Promise<{ ws: WebSocket; messages: Buffer[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(execUrl(query).replace('http:', 'ws:'), protocols);
    const messages: Buffer[] = [];
    const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
    ws.on('message', (data: Buffer) => messages.push(data));
    ws.on('open', () => resolve({ ws, messages, closed }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

const channel = (messages: Buffer[], n: number) => Buffer.concat(messages.filter((m) => m[0] === n).map((m) => m.subarray(1))).toString();

describe('remote command over WebSocket', () => {
  it('v5: says hello on stdout, echoes stdin until the close signal, ends with a Status and a normal close', async () => {
    const { ws, messages, closed } = await dialWebSocket('command=cat&stdin=1&stdout=1&stderr=1', ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
    assert.equal(ws.protocol, 'v5.channel.k8s.io');
    ws.send(Buffer.from('\x00typed'));
    await waitFor(() => channel(messages, 1) === 'typed', 'the echo');
    ws.send(Buffer.from([255, 0]));
    assert.equal(await closed, 1000);
    assert.deepEqual(messages[0], Buffer.from([1]));
    assert.deepEqual(JSON.parse(channel(messages, 3)), { metadata: {}, status: 'Success' });
  });

  it('v4 base64: text messages with a digit channel', async () => {
    const { ws, messages, closed } = await dialWebSocket('command=exit&command=42&stdout=1', ['v4.base64.channel.k8s.io']);
    assert.equal(ws.protocol, 'v4.base64.channel.k8s.io');
    await closed;
    const status = messages.map((m) => m.toString()).find((m) => m.startsWith('3'))!;
    assert.equal(JSON.parse(Buffer.from(status.slice(1), 'base64').toString()).details.causes[0].message, '42');
  });

  it('channel.k8s.io: the text of a failure only', async () => {
    const { messages, closed } = await dialWebSocket('command=exit&command=2&stderr=1', ['channel.k8s.io']);
    await closed;
    assert.deepEqual(messages[0], Buffer.from([2]));
    assert.equal(channel(messages, 3), 'command terminated with non-zero exit code: exit status 2');
  });

  it('refuses an unknown subprotocol with 403', async () => {
    await assert.rejects(dialWebSocket('command=echo&stdout=1', ['v9.channel.k8s.io']), /refused with 403/);
  });

  it('resizes with a TTY on channel 4', async () => {
    const { ws, messages, closed } = await dialWebSocket('command=size&stdout=1&tty=1', ['v5.channel.k8s.io']);
    ws.send(Buffer.concat([Buffer.from([4]), Buffer.from('{"width":80,"height":24}')]));
    await closed;
    assert.equal(channel(messages, 1), '80x24\n');
  });
});
