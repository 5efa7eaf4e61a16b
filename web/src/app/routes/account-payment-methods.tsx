// /my-account/payment-methods and /my-account/add-payment-method: the account's saved
// cards, from the payments feature. A chunk of their own, so the other account pages
// carry nothing of the payments.
import { AddPaymentMethodForm } from '@/features/payments/components/add-payment-method-form';
import { SavedPaymentMethods } from '@/features/payments/components/saved-payment-methods';

export function PaymentMethodsPage() {
  return <SavedPaymentMethods />;
}

export function AddPaymentMethodPage() {
  return <AddPaymentMethodForm />;
}
