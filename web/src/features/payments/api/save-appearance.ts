// wc_stripe_save_appearance: keeps the element's look taken from the shop's theme, so
// later pages carry it in their settings instead of measuring it again.
import type { Appearance } from '@stripe/stripe-js';
import { paymentAjaxUrl, postPaymentCall } from './payment-ajax';
import type { PaymentPageSettings } from './get-page-settings';

export async function saveAppearance(
  pageSettings: Pick<PaymentPageSettings, 'ajax_url' | 'saveAppearanceNonce' | 'theme_name'>,
  appearance: Appearance,
): Promise<boolean> {
  const answer = await postPaymentCall<{ success?: boolean }>(paymentAjaxUrl(pageSettings, 'save_appearance'), {
    appearance: JSON.stringify(appearance),
    is_block_checkout: 'false',
    theme_name: pageSettings.theme_name,
    _ajax_nonce: pageSettings.saveAppearanceNonce,
  });
  return answer?.success === true;
}
