// /my-account/payment-methods: the customer's saved cards (brand, last four digits,
// expiry, which is the default), with "Make default", "Delete" and the way to add one.
import { useState } from 'react';
import { useLocation } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { useDeletePaymentMethod } from '../api/delete-payment-method';
import type { SavedPaymentMethod } from '../api/get-page-settings';
import { useSavedPaymentMethods } from '../api/get-saved-payment-methods';
import { useSetDefaultPaymentMethod } from '../api/set-default-payment-method';
import { savedMethodLabel } from './payment-box';
import styles from './saved-payment-methods.module.css';

export const MADE_DEFAULT = 'This payment method was successfully set as your default.';
export const DELETED = 'Payment method deleted.';
export const NO_SAVED_METHODS = 'No saved methods found.';

const expiryOf = (method: SavedPaymentMethod) =>
  method.exp_month && method.exp_year ? `${String(method.exp_month).padStart(2, '0')}/${String(method.exp_year).slice(-2)}` : '—';

export function SavedPaymentMethods() {
  const location = useLocation();
  const setupIntent = new URLSearchParams(location.search).get('setup_intent') ?? undefined;
  const { data, error, isPending } = useSavedPaymentMethods(setupIntent);
  const arrived = (location.state as { notice?: string } | null)?.notice ?? null;
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(arrived ? { tone: 'success', text: arrived } : null);
  const makeDefault = useSetDefaultPaymentMethod();
  const remove = useDeletePaymentMethod();
  const working = makeDefault.isPending || remove.isPending;

  const run = (action: typeof makeDefault | typeof remove, id: number, done: string) => {
    setNotice(null);
    action.mutate(id, {
      onSuccess: () => setNotice({ tone: 'success', text: done }),
      onError: (failure) => setNotice({ tone: 'error', text: failure.message }),
    });
  };

  if (error) return <Notice tone="error">{error.message}</Notice>;
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading your payment methods…</p>;

  return (
    <div className={styles.stack}>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {data.length === 0 ? (
        <p className={`woocommerce-info ${styles.muted}`}>{NO_SAVED_METHODS}</p>
      ) : (
        <ul className={`woocommerce-MyAccount-paymentMethods ${styles.list}`} aria-label="Saved payment methods">
          {data.map((method) => {
            const label = savedMethodLabel({ ...method, exp_month: 0, exp_year: 0 });
            return (
              <li key={method.id} className={`payment-method ${method.is_default ? 'default-payment-method' : ''} ${styles.item}`} data-testid="saved-payment-method">
                <div className={styles.what}>
                  <span className={styles.label}>{label}</span>
                  <span className={styles.expires}>Expires {expiryOf(method)}</span>
                  {method.is_default && <span className={styles.badge}>Default</span>}
                </div>
                <div className={styles.actions}>
                  {!method.is_default && (
                    <Button variant="secondary" size="sm" disabled={working} aria-label={`Make default: ${label}`} onClick={() => run(makeDefault, method.id, MADE_DEFAULT)}>
                      Make default
                    </Button>
                  )}
                  <Button variant="ghost" size="sm" disabled={working} aria-label={`Delete ${label}`} onClick={() => run(remove, method.id, DELETED)}>
                    Delete
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <div>
        <ButtonLink to={paths.accountAddPaymentMethod()}>Add payment method</ButtonLink>
      </div>
    </div>
  );
}
