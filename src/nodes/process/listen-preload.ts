// What node processes of the process runtime load first (NODE_OPTIONS=--require): a server that
// listens without an address (`listen(8080)`, `listen({ port })`, 0.0.0.0 or ::) listens on the
// pod's own loopback IP instead, so that every replica of a Deployment can bind the same port on
// one host. And the process exits when the nodes process that started it is gone (its parent
// pid changes), as a container dies with its node: no orphan keeps the port.
export const LISTEN_PRELOAD = `'use strict';
const net = require('node:net');
const ip = process.env.KUBELITE_POD_IP;
if (ip) {
  const listen = net.Server.prototype.listen;
  const any = (h) => h === undefined || h === null || h === '' || h === '0.0.0.0' || h === '::';
  net.Server.prototype.listen = function (...args) {
    const a0 = args[0];
    if (a0 !== null && typeof a0 === 'object') {
      if (a0.path === undefined && a0.fd === undefined && a0.handle === undefined && a0._handle === undefined && any(a0.host)) args[0] = { ...a0, host: ip };
    } else if (typeof a0 === 'function' || a0 === undefined || a0 === null) {
      args = [0, ip, ...(typeof a0 === 'function' ? [a0] : args.slice(1))];
    } else if (typeof a0 === 'number' || (typeof a0 === 'string' && /^\\d+$/.test(a0))) {
      if (typeof args[1] !== 'string') args.splice(1, 0, ip);
      else if (any(args[1])) args[1] = ip;
    }
    return listen.apply(this, args);
  };
}
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.exit(143); }, 1000).unref();
`;
