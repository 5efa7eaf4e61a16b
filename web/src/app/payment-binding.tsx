// Where the forms that take a payment meet the card gateway: the checkout and the
// order-pay page get a PaymentBinding built from the payments feature. Without a card
// gateway in the shop's settings nothing is fetched and nothing of the provider loads.
import { useMemo } from 'react';
import { settings } from '@/config/settings';
import { usePageSettings, type PageSettingsScope } from '@/features/payments/api/get-page-settings';
import { PaymentBoxUnavailable } from '@/features/payments/components/payment-box-unavailable';
import { hasPaymentGateway, isOfferedIn, methodTypeOf } from '@/features/payments/lib/method-rules';
import type { PaymentBinding } from '@/types/payment-binding';
import { loadedPaymentBox } from './card-box';

/** The binding for a payment page; undefined when the shop has no card gateway. */
export function usePaymentBinding(scope: PageSettingsScope): PaymentBinding | undefined {
  const offered = hasPaymentGateway(settings.checkout.gateways);
  const { data, isError } = usePageSettings(scope, { enabled: offered });
  const page = scope.context;
  return useMemo(() => {
    if (!offered) return undefined;
    // Settings that say the gateway is off (no keys) or never came: the card cannot be offered.
    const usable = !isError && data?.enabled !== false;
    return {
      isAvailable: (gatewayId, billingCountry) => {
        const type = methodTypeOf(gatewayId);
        if (!type) return true;
        if (!usable) return false;
        return !data || isOfferedIn(data.paymentMethodsConfig?.[type], billingCountry);
      },
      hasBox: (gatewayId) => methodTypeOf(gatewayId) !== null,
      renderBox: (props) => {
        if (!methodTypeOf(props.gatewayId)) return null;
        const PaymentBox = loadedPaymentBox();
        return data && PaymentBox ? <PaymentBox {...props} pageSettings={data} page={page} /> : <PaymentBoxUnavailable loading={!isError} />;
      },
    } satisfies PaymentBinding;
  }, [offered, data, isError, page]);
}
