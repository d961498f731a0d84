// Loopback guard for a spawned server (plain CommonJS so that `node --require` loads it without a
// build step): every socket connection to a host other than loopback (or a Unix socket) fails with
// "blocked: a request left loopback for <host>", and one line naming the host goes to stderr, so a
// test can assert that no request of the process under test left 127.0.0.1 — whatever HTTP client
// made it (undici's fetch, node-fetch, http.request). Installed on require when
// REFMCP_LOOPBACK_GUARD=1; `install(onBlocked)` for in-process use. See src/loopback.ts.
'use strict';
const net = require('node:net');

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/** The host a `Socket.prototype.connect` call names (its arguments as net.connect passes them). */
function hostOf(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const second = Array.isArray(args[0]) ? undefined : args[1];
  if (typeof first === 'object' && first) return first.host ?? first.path ?? 'localhost';
  if (typeof first === 'number') return String(second ?? 'localhost');
  return String(first);
}

/**
 * Patches `net.Socket.prototype.connect` (module comment); `onConnect(host, blocked)` sees every
 * attempt. Returns the function that restores the original.
 */
function install(onConnect) {
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connect(...args) {
    const host = hostOf(args);
    const blocked = !LOOPBACK.includes(host) && !host.startsWith('/');
    onConnect?.(host, blocked);
    if (blocked) {
      process.nextTick(() => this.destroy(new Error(`blocked: a request left loopback for ${host}`)));
      return this;
    }
    return original.apply(this, args);
  };
  return () => {
    net.Socket.prototype.connect = original;
  };
}

if (process.env.REFMCP_LOOPBACK_GUARD === '1')
  install((host, blocked) => {
    if (blocked) process.stderr.write(`[loopback-guard] blocked: ${host}\n`);
  });

module.exports = { install, LOOPBACK };
