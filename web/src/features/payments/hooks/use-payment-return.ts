// A payment page opened (or navigated) with a payment return fragment in its address
// (#wc-stripe-confirm-…, #confirm-pi-…, #wc-stripe-voucher-…, #wc-stripe-wallet-…, as
// a client written for the original shop leaves it there): the fragment is taken out
// of the address and handled, the page busy meanwhile; then the next page, or the
// message to show. A page without one does no more than look at its fragment: the
// handlers and the provider load only when there is something to handle.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { leavePage } from '@/lib/leave-page';
import type { PaymentOutcome } from '@/types/payment-binding';
import { getPageSettingsQueryOptions, type PageSettingsScope, type PaymentPageSettings } from '../api/get-page-settings';
import { looksLikeReturnFragment, removeReturnFragment } from '../lib/fragment-marker';
import { PAYMENT_PROBLEM_MESSAGE } from '../lib/payment-errors';

export interface PaymentReturnState {
  /** A fragment is being handled: the page is blocked. */
  busy: boolean;
  /** The last handling's message; a new one comes with a new id. */
  error: { id: number; message: string } | null;
}

export interface PaymentReturnOptions {
  /** False where the shop takes no payment of the gateway's: nothing is looked at. */
  enabled?: boolean;
  /** Before the page is left after a handled payment (the cart or the order changed). */
  onLeave?: () => void;
}

const IDLE: PaymentReturnState = { busy: false, error: null };

/** Nothing to act on, nothing to say. */
const NOTHING: PaymentOutcome = { ok: false, message: '', redirect: null };

/** Handles the fragment (already out of the address); what the page does next. */
async function handle(fragmentText: string, settings: () => Promise<PaymentPageSettings>, scope: PageSettingsScope): Promise<PaymentOutcome> {
  const { handleReturnFragment, parseReturnFragment } = await import('../lib/return-fragments');
  const fragment = parseReturnFragment(fragmentText);
  // Unreadable (tampered with, cut short): nothing to act on.
  if (!fragment) return NOTHING;
  const pageSettings = await settings();
  if (pageSettings.enabled === false) return NOTHING;
  return handleReturnFragment(fragment, {
    pageSettings,
    page: scope.context,
    provider: () => import('../lib/load-stripe').then((module) => module.loadProvider(pageSettings)),
  });
}

export function usePaymentReturn(scope: PageSettingsScope, { enabled = true, onLeave }: PaymentReturnOptions = {}): PaymentReturnState {
  const [state, setState] = useState<PaymentReturnState>(IDLE);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // In-app navigations to a fragment come through the router; the browser's through hashchange.
  const { hash } = useLocation();
  const latest = useRef({ scope, navigate, queryClient, onLeave });
  latest.current = { scope, navigate, queryClient, onLeave };
  const running = useRef(false);
  const mounted = useRef(true);
  const errors = useRef(0);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      const fragmentText = window.location.hash;
      if (running.current || !looksLikeReturnFragment(fragmentText)) return;
      running.current = true;
      // Out of the address at once: a reload, or going back, does not handle it again.
      removeReturnFragment();
      setState({ busy: true, error: null });
      const { scope: current, queryClient: client } = latest.current;
      const settings = () => client.ensureQueryData(getPageSettingsQueryOptions(current));
      void handle(fragmentText, settings, current)
        .catch((): PaymentOutcome => ({ ok: false, message: PAYMENT_PROBLEM_MESSAGE, redirect: null }))
        .then((outcome) => {
          running.current = false;
          if (!mounted.current) return;
          if (!outcome.ok) {
            if (outcome.message) errors.current += 1;
            setState({ busy: false, error: outcome.message ? { id: errors.current, message: outcome.message } : null });
            // Another fragment may have come meanwhile.
            check();
            return;
          }
          latest.current.onLeave?.();
          const target = new URL(outcome.redirect, window.location.href);
          if (target.origin !== window.location.origin) {
            // Blocked until the browser has left.
            leavePage(target.href);
            return;
          }
          setState(IDLE);
          latest.current.navigate(target.pathname + target.search + target.hash);
        });
    };
    check();
    window.addEventListener('hashchange', check);
    return () => window.removeEventListener('hashchange', check);
  }, [enabled, hash]);

  return state;
}
