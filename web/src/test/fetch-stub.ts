// A stand-in for fetch that answers by method and path, and records what was sent.
import { vi } from 'vitest';

export interface SentRequest {
  method: string;
  url: string;
  body: string;
  headers: Headers;
}

type Route = (request: SentRequest) => Response | Promise<Response> | undefined;

export function stubShop(route: Route) {
  const sent: SentRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: SentRequest = {
      method: init.method ?? 'GET',
      url: String(input),
      body: init.body ? String(init.body) : '',
      headers: new Headers(init.headers),
    };
    sent.push(request);
    const response = await route(request);
    if (!response) throw new Error(`Unexpected request: ${request.method} ${request.url}`);
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return { sent, fetchMock };
}
