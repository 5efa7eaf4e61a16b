// Starts a throw-away Ferroshop for one test file: a free loopback port, a fresh
// SQLite database with the demo catalogue in a temporary directory, cwd = the
// repository root. The server and the directory go away when the file's tests end,
// pass or fail, and when the test process is interrupted.
//
//   FERROSHOP_BIN   the server binary (required; relative paths are taken from the
//                   directory the tests were started in, normally web/)

import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const WEB_DIST = path.join(REPO_ROOT, 'web', 'dist');
/** The server bundle the shop renders its pages with. */
export const WEB_DIST_SERVER = path.join(REPO_ROOT, 'web', 'dist-server');

const STARTUP_TIMEOUT_MS = 30_000;

/** The server binary and the built storefront, or an error saying what to do. */
export function checkPrerequisites() {
  const bin = process.env.FERROSHOP_BIN;
  if (!bin) {
    throw new Error(
      'FERROSHOP_BIN is not set. Build the server (cargo build -p ferroshop) and run\n' +
        '  cd web && FERROSHOP_BIN=../target/debug/ferroshop npm run test:e2e\n' +
        '(or `make test-browser` from the repository root).',
    );
  }
  const binary = path.resolve(process.cwd(), bin);
  if (!existsSync(binary) || !statSync(binary).isFile()) {
    throw new Error(`FERROSHOP_BIN points to ${binary}, which does not exist. Run \`cargo build -p ferroshop\` first.`);
  }
  if (!existsSync(path.join(WEB_DIST, 'index.html')) || !existsSync(path.join(WEB_DIST_SERVER, 'server.js'))) {
    throw new Error(`The storefront is not built (${WEB_DIST}/index.html or ${WEB_DIST_SERVER}/server.js is missing). Run \`cd web && npm run build\` first.`);
  }
  return { binary };
}

/** A loopback port no one listens on (for a helper server to bind). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Every server this process started, so an interrupted run still cleans up.
const running = new Set();

function killNow(server) {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    try {
      server.child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
  rmSync(server.dir, { recursive: true, force: true });
}

let exitHooksInstalled = false;
function installExitHooks() {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', () => {
    for (const server of running) killNow(server);
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      for (const server of running) killNow(server);
      process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 0));
    });
  }
}

async function startOnce(binary, extraEnv) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ferroshop-e2e-'));
  // The server reads index.html once at start-up and serves the assets from disk; a
  // snapshot of web/dist keeps the two in step even if someone rebuilds meanwhile.
  const webDir = path.join(dir, 'dist');
  cpSync(WEB_DIST, webDir, { recursive: true });
  cpSync(WEB_DIST_SERVER, path.join(dir, 'dist-server'), { recursive: true });
  const port = await freePort();
  const bind = `127.0.0.1:${port}`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('FERROSHOP_')));
  // The tests run a debug build on a busy machine: renders get the time they need there.
  Object.assign(env, { FERROSHOP_LOG: 'warn', FERROSHOP_WEB_DIR: webDir, FERROSHOP_RENDER_TIMEOUT_MS: '5000' }, extraEnv);
  const child = spawn(binary, ['serve', '--bind', bind, '--database', `sqlite://${path.join(dir, 'shop.db')}`, '--demo'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, dir, baseURL: `http://${bind}`, output: '' };
  running.add(server);
  const collect = (chunk) => {
    server.output = (server.output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let spawnError = null;
  child.on('error', (error) => {
    spawnError = error;
  });

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (spawnError) break;
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(`${server.baseURL}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return server;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  const why = spawnError
    ? `could not be started: ${spawnError.message}`
    : child.exitCode !== null || child.signalCode !== null
      ? `exited early (code ${child.exitCode}, signal ${child.signalCode})`
      : `did not answer GET /healthz within ${STARTUP_TIMEOUT_MS / 1000} s`;
  await stopServer(server);
  const error = new Error(`Ferroshop (${binary}) ${why}.\nServer output:\n${server.output || '(none)'}`);
  error.portClash = /address already in use|AddrInUse/i.test(server.output);
  throw error;
}

/**
 * Starts the server and waits for /healthz. Returns { baseURL, output, stop, command }:
 * `command(...args)` runs the shop's command line over the same database.
 * `env` adds FERROSHOP_* settings.
 */
export async function startServer({ env = {} } = {}) {
  const { binary } = checkPrerequisites();
  installExitHooks();
  for (let attempt = 1; ; attempt += 1) {
    try {
      const server = await startOnce(binary, env);
      const database = `sqlite://${path.join(server.dir, 'shop.db')}`;
      const command = (...args) =>
        execFileSync(binary, [...args, '--database', database], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return { baseURL: server.baseURL, output: () => server.output, stop: () => stopServer(server), command };
    } catch (error) {
      // Another process may take the port between probing and binding; try another.
      if (!error.portClash || attempt >= 3) throw error;
    }
  }
}

async function stopServer(server) {
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timeout = sleep(5000).then(() => 'timeout');
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(server.dir, { recursive: true, force: true });
  running.delete(server);
}
