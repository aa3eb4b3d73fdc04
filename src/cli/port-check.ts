// Whether a TCP port is taken, asked before `kubelite up` starts anything: the API server would
// otherwise fail to listen, be restarted with back-off, and the start end in a timeout.
import { createServer } from 'node:net';

export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(true) : reject(e)));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(false)));
  });
}
