// /my-account/payment-methods and /my-account/add-payment-method: the account's saved
// cards, from the payments feature. A chunk of their own, so the other account pages
// carry nothing of the payments.
import { settings } from '@/config/settings';
import { AddPaymentMethodForm } from '@/features/payments/components/add-payment-method-form';
import { PaymentReturnStatus } from '@/features/payments/components/payment-return-status';
import { SavedPaymentMethods } from '@/features/payments/components/saved-payment-methods';
import { usePaymentReturn } from '@/features/payments/hooks/use-payment-return';
import { hasPaymentGateway } from '@/features/payments/lib/method-rules';

const ADD_SCOPE = { context: 'add-payment-method' } as const;

export function PaymentMethodsPage() {
  return <SavedPaymentMethods />;
}

export function AddPaymentMethodPage() {
  // A setup that comes back to the page in its address (the account's content area shows its message).
  const returning = usePaymentReturn(ADD_SCOPE, { enabled: hasPaymentGateway(settings.checkout.gateways) });
  return (
    <>
      <PaymentReturnStatus state={returning} />
      <AddPaymentMethodForm />
    </>
  );
}
