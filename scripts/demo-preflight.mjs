#!/usr/bin/env node
// `npm run demo`'s first step, before anything is built (rules: operating): when the service's or
// the simulator's port is taken, say so in one line and stop, so that a second demo neither
// rebuilds dist/ under a running one nor dies later on a stack trace. Exit 0 when both are free.
import http from 'node:http';
import net from 'node:net';

const PORT = Number(process.env.PORT ?? '3000');
const SIM_PORT = Number(process.env.SIM_PORT ?? '8090');
const HOST = '127.0.0.1';

/** True when something accepts a connection on the port. */
function taken(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What answers there: our service, our simulator, or something else. */
async function whoIs(port) {
  const get = (path) =>
    new Promise((resolve) => {
      const req = http.get({ host: HOST, port, path, timeout: 2000 }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(res.statusCode === 200 ? body : null));
        res.on('error', () => resolve(null));
      });
      req.once('timeout', () => req.destroy());
      req.once('error', () => resolve(null));
    });
  const health = await get('/health');
  if (health !== null && /"status"/.test(health)) return 'service';
  const sim = await get('/_sim/violations');
  if (sim !== null) return 'simulator';
  return 'other';
}

const [service, simulator] = await Promise.all([taken(PORT), taken(SIM_PORT)]);
if (!service && !simulator) process.exit(0);

const holders = await Promise.all([service ? whoIs(PORT) : null, simulator ? whoIs(SIM_PORT) : null]);
const ours = holders.some((h) => h === 'service' || h === 'simulator');
const where = [service ? `${HOST}:${PORT} (PORT)` : null, simulator ? `${HOST}:${SIM_PORT} (SIM_PORT)` : null].filter(Boolean).join(' and ');
process.stderr.write(
  ours
    ? `demo: a demo is already running on ${where}: stop it (Ctrl-C in its terminal), or set PORT and SIM_PORT to free ports to run a second one\n`
    : `demo: ${where} ${service && simulator ? 'are' : 'is'} taken by another program: set PORT and SIM_PORT to free ports\n`,
);
process.exit(1);
