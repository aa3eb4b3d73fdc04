// @kubernetes/client-node's Exec (WebSocket, v5.channel.k8s.io) and PortForward (WebSocket
// channels, one data/error pair per port) against a loopback server on this library.
import * as k8s from '@kubernetes/client-node';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { waitFor } from '../../../test/support/wait.js';
import { startEchoServer, startStreamsTestServer, type StreamsTestServer } from './streams-server.testutil.js';

let server: StreamsTestServer;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let config: k8s.KubeConfig;

before(async () => {
  echo = await startEchoServer();
  server = await startStreamsTestServer({ 8080: echo.port });
  config = new k8s.KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: server.url, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
});
after(async () => {
  await server.close();
  await echo.close();
});

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return () => text;
}

describe('@kubernetes/client-node', () => {
  it('Exec gets the output and the exit status', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    let status: k8s.V1Status | undefined;
    await new k8s.Exec(config).exec('ns', 'p', 'main', ['echo', 'from', 'exec'], stdout, stderr, null, false, (s) => (status = s));
    await waitFor(() => status, 'the status');
    assert.equal(status!.status, 'Success');
    assert.equal(out(), 'from exec\n');

    let failed: k8s.V1Status | undefined;
    await new k8s.Exec(config).exec('ns', 'p', 'main', ['exit', '3'], new PassThrough(), new PassThrough(), null, false, (s) => (failed = s));
    await waitFor(() => failed, 'the failure');
    assert.equal(failed!.reason, 'NonZeroExitCode');
    assert.equal(failed!.details?.causes?.[0]?.message, '3');
  });

  it('Exec passes stdin and ends it with the v5 close signal', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = collect(stdout);
    let status: k8s.V1Status | undefined;
    await new k8s.Exec(config).exec('ns', 'p', 'main', ['cat'], stdout, null, stdin, false, (s) => (status = s));
    stdin.end('typed into cat\n');
    await waitFor(() => status, 'the status');
    assert.equal(out(), 'typed into cat\n');
  });

  it('PortForward reaches the TCP server behind the pod port', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const errors = new PassThrough();
    const got = collect(output);
    const ws = (await new k8s.PortForward(config).portForward('ns', 'p', [8080], output, errors, input)) as { close(): void };
    input.write('through the channel');
    await waitFor(() => got() === 'through the channel', 'the echo');
    assert.equal(server.sessions.portForward.at(-1)!.transport, 'websocket');
    ws.close();
  });
});
