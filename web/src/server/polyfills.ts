// What the server's script engine (QuickJS) lacks that React, React Router and
// TanStack Query reach for while rendering: URL, encoders, abort signals, timers and
// fetch. Only what a render touches is here; the engine runs no page script.
import 'core-js/actual/url';
import 'core-js/actual/url-search-params';

declare global {
  /** Given by the server: answers a GET of the shop's own API in process. */
  function __ferroshopFetch(method: string, url: string): [number, string, string];
  /** Given by the server: a line for its log. */
  function __ferroshopLog(level: string, message: string): void;
}

const scope = globalThis as Record<string, unknown>;

function describe(values: unknown[]): string {
  return values
    .map((value) => {
      if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ''}`;
      if (typeof value === 'string') return value;
      try {
        return JSON.stringify(value);
      } catch {
        return String(value);
      }
    })
    .join(' ');
}

scope.console = {
  log: (...values: unknown[]) => __ferroshopLog('debug', describe(values)),
  info: (...values: unknown[]) => __ferroshopLog('debug', describe(values)),
  debug: (...values: unknown[]) => __ferroshopLog('debug', describe(values)),
  warn: (...values: unknown[]) => __ferroshopLog('warn', describe(values)),
  error: (...values: unknown[]) => __ferroshopLog('error', describe(values)),
};

// A render is synchronous: timers it sets (cache clean-up, retries) never need to fire.
let timerId = 0;
scope.setTimeout = () => ++timerId;
scope.setInterval = () => ++timerId;
scope.clearTimeout = () => undefined;
scope.clearInterval = () => undefined;
scope.queueMicrotask ??= (callback: () => void) => void Promise.resolve().then(callback);

class ServerMessageChannel {
  port1 = { onmessage: null as null | ((event: unknown) => void), postMessage: () => undefined, close: () => undefined };
  port2 = {
    postMessage: (data: unknown) => {
      void Promise.resolve().then(() => this.port1.onmessage?.({ data }));
    },
    close: () => undefined,
  };
}
scope.MessageChannel ??= ServerMessageChannel;

class ServerTextEncoder {
  readonly encoding = 'utf-8';
  encode(text = ''): Uint8Array {
    const bytes: number[] = [];
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code < 0x80) bytes.push(code);
      else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
      else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
      else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    }
    return new Uint8Array(bytes);
  }
}
class ServerTextDecoder {
  readonly encoding = 'utf-8';
  decode(input?: ArrayBufferView | ArrayBuffer): string {
    if (!input) return '';
    const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    let text = '';
    for (let i = 0; i < bytes.length; ) {
      const first = bytes[i]!;
      const size = first < 0x80 ? 1 : first < 0xe0 ? 2 : first < 0xf0 ? 3 : 4;
      let code = size === 1 ? first : first & (0xff >> (size + 1));
      for (let k = 1; k < size; k++) code = (code << 6) | ((bytes[i + k] ?? 0) & 63);
      text += String.fromCodePoint(code);
      i += size;
    }
    return text;
  }
}
scope.TextEncoder ??= ServerTextEncoder;
scope.TextDecoder ??= ServerTextDecoder;

class ServerAbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: null | (() => void) = null;
  private listeners: Array<() => void> = [];
  addEventListener(_type: string, listener: () => void) {
    this.listeners.push(listener);
  }
  removeEventListener(_type: string, listener: () => void) {
    this.listeners = this.listeners.filter((candidate) => candidate !== listener);
  }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  fire(reason: unknown) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.onabort?.();
    for (const listener of this.listeners) listener();
  }
}
class ServerAbortController {
  readonly signal = new ServerAbortSignal();
  abort(reason?: unknown) {
    this.signal.fire(reason ?? new Error('Aborted'));
  }
}
scope.AbortController ??= ServerAbortController;
scope.AbortSignal ??= ServerAbortSignal;

class ServerHeaders {
  private readonly map = new Map<string, string>();
  constructor(init?: Record<string, string> | Array<[string, string]> | ServerHeaders) {
    if (init instanceof ServerHeaders) init.forEach((value, name) => this.set(name, value));
    else if (Array.isArray(init)) for (const [name, value] of init) this.append(name, value);
    else if (init) for (const [name, value] of Object.entries(init)) this.set(name, value);
  }
  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }
  set(name: string, value: string) {
    this.map.set(name.toLowerCase(), String(value));
  }
  append(name: string, value: string) {
    const key = name.toLowerCase();
    const before = this.map.get(key);
    this.map.set(key, before === undefined ? String(value) : `${before}, ${value}`);
  }
  delete(name: string) {
    this.map.delete(name.toLowerCase());
  }
  forEach(callback: (value: string, name: string) => void) {
    this.map.forEach((value, name) => callback(value, name));
  }
  entries() {
    return this.map.entries();
  }
  [Symbol.iterator]() {
    return this.map.entries();
  }
}
scope.Headers ??= ServerHeaders;

interface RequestInitLike {
  method?: string;
  headers?: Record<string, string>;
  signal?: ServerAbortSignal;
}

class ServerRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: ServerHeaders;
  readonly signal: ServerAbortSignal;
  constructor(url: string | { url: string }, init: RequestInitLike = {}) {
    this.url = typeof url === 'string' ? url : url.url;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = new ServerHeaders(init.headers);
    this.signal = init.signal ?? new ServerAbortController().signal;
  }
}
scope.Request ??= ServerRequest;

class ServerResponse {
  readonly ok: boolean;
  readonly headers: ServerHeaders;
  constructor(
    private readonly body: string,
    readonly status: number,
    headers: ServerHeaders,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = headers;
  }
  async text() {
    return this.body;
  }
  async json() {
    return JSON.parse(this.body) as unknown;
  }
}
scope.Response ??= ServerResponse;

scope.fetch = async (input: string | { url: string }, init: RequestInitLike = {}) => {
  const url = typeof input === 'string' ? input : input.url;
  const method = (init.method ?? 'GET').toUpperCase();
  const [status, headerLines, body] = __ferroshopFetch(method, url);
  const headers = new ServerHeaders();
  for (const line of headerLines.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return new ServerResponse(body, status, headers);
};

export {};
