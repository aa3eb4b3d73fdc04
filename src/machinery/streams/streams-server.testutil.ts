// A loopback HTTP server that answers just enough of the Kubernetes API for kubectl and
// @kubernetes/client-node to exec into and port-forward to one pod, serving the upgrades with this
// library. Commands: `echo ARGS` prints them, `cat` copies stdin to stdout, `err TEXT` prints to
// stderr, `exit N` ends with code N, `fail TEXT` cannot run, `flood` writes stdout until the
// client leaves; port-forward goes to a port map.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { acceptPortForward, portsFromQuery, type PortForwardSession } from './portforward.js';
import { acceptRemoteCommand, stdStreamsFromQuery, type RemoteCommandSession } from './remotecommand.js';

export interface StreamsTestServer {
  url: string;
  server: Server;
  /** Sessions seen so far, by kind, with what happened to them. */
  sessions: { exec: RemoteCommandSession[]; portForward: PortForwardSession[]; errors: Error[] };
  close(): Promise<void>;
}

const pod = (ns: string, name: string) => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name, namespace: ns, uid: '00000000-0000-0000-0000-000000000001', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { nodeName: 'node-1', containers: [{ name: 'main', image: 'busybox', ports: [{ containerPort: 8080 }] }] },
  status: { phase: 'Running', podIP: '127.0.0.1', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'main', ready: true, restartCount: 0, image: 'busybox', imageID: '', state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] },
});

const discovery: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'], shortNames: ['po'] },
      { name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] },
      { name: 'pods/portforward', singularName: '', namespaced: true, kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
    ],
  },
  '/version': { major: '1', minor: '33', gitVersion: 'v1.33.0', platform: 'linux/amd64' },
};

/** Runs the built-in commands of the test pod on a session. */
export async function runTestCommand(session: RemoteCommandSession, argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  const write = (stream: NodeJS.WritableStream | null, text: string) => stream?.write(text);
  switch (command) {
    case 'echo':
      write(session.stdout, args.join(' ') + '\n');
      return session.finish(0);
    case 'err':
      write(session.stderr, args.join(' ') + '\n');
      return session.finish(1);
    case 'exit':
      return session.finish(Number(args[0] ?? 0));
    case 'fail':
      return session.finish(new Error(args.join(' ')));
    case 'cat':
      if (!session.stdin || !session.stdout) return session.finish(2);
      session.stdin.pipe(session.stdout, { end: false });
      await new Promise<void>((resolve) => {
        session.stdin!.once('end', resolve);
        session.stdin!.once('close', resolve);
      });
      return session.finish(0);
    case 'flood': {
      // Writes stdout as fast as the client takes it, counting what the client was handed.
      const chunk = Buffer.alloc(64 * 1024, 'f');
      const counted = session as RemoteCommandSession & { flooded?: number };
      counted.flooded = 0;
      while (!session.signal.aborted && session.stdout && !session.stdout.destroyed) {
        counted.flooded += chunk.length;
        if (!session.stdout.write(chunk)) {
          await new Promise<void>((resolve) => {
            session.stdout!.once('drain', resolve);
            session.stdout!.once('close', resolve);
          });
        }
      }
      return;
    }
    case 'size':
      session.once('resize', (size) => {
        write(session.stdout, `${size.width}x${size.height}\n`);
        void session.finish(0);
      });
      return;
    default:
      write(session.stderr ?? session.stdout, `${command}: command not found\n`);
      return session.finish(127);
  }
}

export async function startStreamsTestServer(portMap: Record<number, number>): Promise<StreamsTestServer> {
  const sessions: StreamsTestServer['sessions'] = { exec: [], portForward: [], errors: [] };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const podPath = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)$/.exec(url.pathname);
    const body = podPath ? pod(podPath[1]!, podPath[2]!) : discovery[url.pathname];
    if (body === undefined) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${url.pathname} not found`, reason: 'NotFound', code: 404 }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const sub = /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/(exec|attach|portforward)$/.exec(url.pathname)?.[1];
    if (sub === 'portforward') {
      const ports = portsFromQuery(url.searchParams);
      acceptPortForward(req, socket, head, { ports: Array.isArray(ports) ? ports : undefined, closeGraceMs: 1000 }).then(
        (session) => {
          sessions.portForward.push(session);
          session.on('stream', (stream) => {
            const target = portMap[stream.port];
            if (target === undefined) {
              stream.error.write(`error forwarding port ${stream.port} to pod p: no listener`);
              stream.data.end();
              return;
            }
            const upstream = connect(target, '127.0.0.1');
            upstream.on('error', (err) => {
              stream.error.write(err.message);
              stream.data.end();
            });
            stream.data.pipe(upstream);
            upstream.pipe(stream.data);
            stream.data.on('close', () => upstream.destroy());
          });
        },
        (err: Error) => sessions.errors.push(err),
      );
      return;
    }
    if (sub === 'exec' || sub === 'attach') {
      acceptRemoteCommand(req, socket, head, { ...stdStreamsFromQuery(url.searchParams), closeGraceMs: 1000 }).then(
        (session) => {
          sessions.exec.push(session);
          void runTestCommand(session, sub === 'attach' ? ['cat'] : url.searchParams.getAll('command'));
        },
        (err: Error) => sessions.errors.push(err),
      );
      return;
    }
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    sessions,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP echo server on loopback. */
export async function startEchoServer(): Promise<{ port: number; close(): Promise<void> }> {
  const { createServer: createTcpServer } = await import('node:net');
  const sockets = new Set<import('node:net').Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
