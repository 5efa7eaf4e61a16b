// A stand-in for the payment provider's Stripe.js in component and unit tests: an
// Elements group whose Payment Element draws a card number field when mounted, and the
// calls the storefront makes, each a spy whose answer a test can set.
import { vi } from 'vitest';

type Handler = (event?: unknown) => void;

export interface FakeElement {
  mount: ReturnType<typeof vi.fn>;
  destroy: ReturnType<typeof vi.fn>;
  update: ReturnType<typeof vi.fn>;
  options: unknown;
  /** Fires an element event (ready, change, loaderror). */
  emit: (event: string, payload?: unknown) => void;
}

export function fakeStripe({ readyOnMount = true, failToLoad = false }: { readyOnMount?: boolean; failToLoad?: boolean } = {}) {
  const handlers = new Map<string, Set<Handler>>();
  const element: FakeElement = {
    options: null,
    mount: vi.fn((node: HTMLElement) => {
      const label = document.createElement('label');
      label.textContent = 'Card number';
      const field = document.createElement('input');
      label.append(field);
      node.append(label);
      queueMicrotask(() => element.emit(failToLoad ? 'loaderror' : readyOnMount ? 'ready' : 'none', failToLoad ? { error: { type: 'api_error' } } : { elementType: 'payment' }));
    }),
    destroy: vi.fn(),
    update: vi.fn(),
    emit: (event, payload) => handlers.get(event)?.forEach((handler) => handler(payload)),
  };
  const elementMethods = {
    ...element,
    on: (event: string, handler: Handler) => {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
      return elementMethods;
    },
    off: (event: string, handler: Handler) => {
      handlers.get(event)?.delete(handler);
      return elementMethods;
    },
  };
  const elements = {
    options: null as unknown,
    create: vi.fn((_type: string, options: unknown) => {
      element.options = options;
      return elementMethods;
    }),
    update: vi.fn(),
    submit: vi.fn(async (): Promise<{ error?: { type: string; code?: string; message: string } }> => ({})),
    getElement: vi.fn(() => elementMethods),
  };
  const stripe = {
    elements: vi.fn((options: unknown) => {
      elements.options = options;
      return elements;
    }),
    createPaymentMethod: vi.fn(async (_options: unknown): Promise<unknown> => ({ paymentMethod: { id: 'pm_new', type: 'card' } })),
    handleNextAction: vi.fn(async (_options: { clientSecret: string }): Promise<unknown> => ({ paymentIntent: { id: 'pi_1', status: 'succeeded' } })),
    confirmPayment: vi.fn(async (): Promise<unknown> => ({ paymentIntent: { id: 'pi_1', status: 'succeeded' } })),
    confirmSetup: vi.fn(async (_options: unknown): Promise<unknown> => ({ setupIntent: { id: 'seti_1', status: 'succeeded' } })),
    confirmCashappSetup: vi.fn(async (): Promise<unknown> => ({ setupIntent: { id: 'seti_1', status: 'succeeded' } })),
    // React Stripe.js checks for these before it takes the object as Stripe.
    createToken: vi.fn(),
    confirmCardPayment: vi.fn(),
  };
  return { stripe, elements, element };
}

export type FakeStripe = ReturnType<typeof fakeStripe>;
