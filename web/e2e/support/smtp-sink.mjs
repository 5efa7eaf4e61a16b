// An SMTP server for the browser tests that need the shop's mail: scripts/smtp-sink.py
// on a free loopback port, keeping every message it receives as a file in a temporary
// directory. Started once per test file before the shop (await it at the top of the
// file, then hand `env` to useShop: the shop's FERROSHOP_SMTP_* settings pointing at
// it), stopped with the file. And reading what arrived: a message's headers and its
// parts, decoded (quoted-printable, base64).
//
//   SMTP_SINK_PYTHON   the Python with aiosmtpd (default: <repo>/.venv/bin/python;
//                      ./scripts/ensure-python-tools installs it)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { waitFor } from './checks.mjs';
import { checkPrerequisites, freePort, REPO_ROOT } from './server.mjs';

const STARTUP_TIMEOUT_MS = 20_000;
const MAIL_TIMEOUT_MS = 15_000;

async function startOnce(python, dir) {
  const port = await freePort();
  // --exit-with-stdin: the sink ends with this process, however it ends.
  const child = spawn(python, [path.join(REPO_ROOT, 'scripts', 'smtp-sink.py'), '--port', String(port), '--exit-with-stdin', '--dir', dir], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The SMTP sink did not start within ${STARTUP_TIMEOUT_MS / 1000} s.\n${output}`)), STARTUP_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      if (/^ready$/m.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on('data', (chunk) => {
      output = (output + chunk.toString()).slice(-10_000);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`The SMTP sink could not be started: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const error = new Error(`The SMTP sink exited early (code ${code}, signal ${signal}).\n${output}`);
      // Another process may take the port between probing and binding.
      error.portClash = /address already in use|Errno 98/i.test(output);
      reject(error);
    });
  });
  return { child, port };
}

/**
 * Starts the sink for a test file; resolves with `env` for the shop, `mails()` (every
 * message so far, oldest first, each `{ headers, parts }`) and `waitForMail(test,
 * description)` (the first message `test` accepts, once it has come).
 */
export async function useSmtpSink() {
  // Without the server binary or the built storefront the file fails at once, saying what to do.
  checkPrerequisites();
  const python = process.env.SMTP_SINK_PYTHON || path.join(REPO_ROOT, '.venv', 'bin', 'python');
  if (!existsSync(python)) {
    throw new Error(`No Python with the SMTP sink's aiosmtpd at ${python}: run ./scripts/ensure-python-tools (or set SMTP_SINK_PYTHON).`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ferroshop-e2e-mail-'));
  let started;
  for (let attempt = 1; ; attempt += 1) {
    try {
      started = await startOnce(python, dir);
      break;
    } catch (error) {
      if (!error.portClash || attempt >= 3) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const { child, port } = started;
  after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  // The sink writes each message under a temporary name and renames it: an .eml is whole.
  const mails = () =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map((name) => parseMail(readFileSync(path.join(dir, name), 'utf8')));

  return {
    env: { FERROSHOP_SMTP_HOST: '127.0.0.1', FERROSHOP_SMTP_PORT: String(port), FERROSHOP_SMTP_TLS: 'none' },
    mails,
    waitForMail: (test, description) =>
      waitFor(() => mails().find(test) ?? false, { timeout: MAIL_TIMEOUT_MS, interval: 100, message: description }),
  };
}

/** A message's (or a part's) head and body; header names lowercased, folded lines unfolded. */
function split(raw) {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end === -1 ? text : text.slice(0, end);
  const headers = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] ??= line.slice(colon + 1).trim();
  }
  return { headers, body: end === -1 ? '' : text.slice(end + 2) };
}

/** Quoted-printable text as bytes: soft line breaks (`=` at a line's end) joined, `=XX` decoded. */
export function decodeQuotedPrintable(text) {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody({ headers, body }) {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body).toString('utf8');
  return body;
}

/** The leaf parts of a message, each `{ type, text }` with its body decoded. */
function partsOf(raw) {
  const part = split(raw);
  const contentType = part.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    return part.body
      .split(`--${boundary}`)
      .slice(1)
      .filter((chunk) => !chunk.startsWith('--'))
      .flatMap((chunk) => partsOf(chunk.replace(/^\n/, '')));
  }
  return [{ type: contentType.split(';')[0].trim().toLowerCase(), text: decodeBody(part) }];
}

/** A received message: its headers (names lowercased) and its decoded parts. */
export function parseMail(raw) {
  return { headers: split(raw).headers, parts: partsOf(raw) };
}

/** The text of a message's plain-text part. */
export function plainTextOf(mail) {
  const part = mail.parts.find((candidate) => candidate.type === 'text/plain');
  if (!part) throw new Error(`The message has no text/plain part (it has ${mail.parts.map((candidate) => candidate.type).join(', ')}).`);
  return part.text;
}
