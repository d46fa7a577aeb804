import { readProcessEnv } from '../config/process-env.js';
import { InvalidSimulatorEnvError, loadSimulatorConfig } from './simulator-config.js';
import { startSimulator } from './simulator.js';

// Entry point of `npm run simulator` (dist/simulator/main.js). Exits 1 naming a bad variable.
async function main(): Promise<number> {
  let config;
  try {
    config = loadSimulatorConfig(readProcessEnv());
  } catch (error) {
    if (error instanceof InvalidSimulatorEnvError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  let sim;
  try {
    sim = await startSimulator({ port: config.port, host: config.host, symbols: config.symbols, walk: config.walk, rate: config.rate, demo: config.demo,
      strict: config.strict ? { lifetimeScale: config.lifetimeScale } : false,
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    // One line, not a stack: most often a demo already runs.
    console.error(`exchange simulator: port ${config.port} on ${config.host} is already in use (a demo already running?): stop it, or set SIM_PORT to a free port`);
    return 1;
  }
  console.log(
    `exchange simulator listening on ${config.host.includes(':') ? `[${config.host}]` : config.host}:${sim.port} (${config.symbols.length} symbols, walk ${config.walk ? 'on' : 'off'}` +
      `${config.rate > 0 ? `, load ${config.rate} msg/s` : ''}, strict ${config.strict ? 'on' : 'off'}` +
      `${config.demo ? ', demo networks' : ''}); ` +
      `control API under ${sim.url}/_sim/`,
  );
  const shutdown = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return 0;
}

const code = await main();
if (code !== 0) process.exit(code);
