// Preloaded with NODE_OPTIONS=--import into a spawned command: appends every TCP connection it
// opens, as host:port, to the file named by MEMLENS_NET_LOG, so a test can assert that nothing
// but its 127.0.0.1 stand-ins was contacted (fetch, http and raw sockets all pass through here).
import { appendFileSync } from 'node:fs';
import net from 'node:net';
import process from 'node:process';

const log = process.env.MEMLENS_NET_LOG;
const connect = net.Socket.prototype.connect;
if (log) {
  net.Socket.prototype.connect = function (...args) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    // Unix sockets (tsx's IPC pipe) are local by construction.
    if (typeof first === 'object' && first !== null && first.path) return connect.apply(this, args);
    if (typeof first === 'string') return connect.apply(this, args);
    const where =
      typeof first === 'object' && first !== null
        ? `${first.host ?? 'localhost'}:${first.port ?? ''}`
        : `${String(args[1] ?? 'localhost')}:${String(first)}`;
    appendFileSync(log, `${where}\n`);
    return connect.apply(this, args);
  };
}
