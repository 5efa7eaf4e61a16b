// /my-account and its pages. Logged-out visitors get the login and registration forms
// (except on the lost-password page); customers get the account navigation around
// the page. Each page names itself in the route's handle.
import { Outlet, useLocation, useMatches, useParams, useSearchParams } from 'react-router';
import { settings } from '@/config/settings';
import { AccountAddresses } from '@/features/customers/components/account-addresses';
import { AccountAuth } from '@/features/customers/components/account-auth';
import { AccountDashboard } from '@/features/customers/components/account-dashboard';
import { AccountDetails } from '@/features/customers/components/account-details';
import { AccountOrders } from '@/features/customers/components/account-orders';
import { AccountShell } from '@/features/customers/components/account-shell';
import { AccountViewOrder } from '@/features/customers/components/account-view-order';
import { EditAddress } from '@/features/customers/components/edit-address';
import { LostPasswordForm, ResetPasswordForm } from '@/features/customers/components/lost-password';
import { hasPaymentGateway } from '@/features/payments/lib/method-rules';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { NotFoundPage } from './not-found';
import styles from './page.module.css';

export interface AccountHandle {
  accountTitle: string;
  /** Shown to logged-out visitors too. */
  public?: boolean;
}

function useAccountHandle(): AccountHandle {
  const matches = useMatches();
  const handle = matches.map((match) => match.handle as AccountHandle | undefined).findLast((candidate) => candidate?.accountTitle);
  return handle ?? { accountTitle: 'My account' };
}

export default function AccountLayout() {
  const handle = useAccountHandle();
  const { pathname } = useLocation();
  const loggedIn = settings.account.logged_in;
  const title = loggedIn || handle.public ? handle.accountTitle : 'My account';
  useDocumentTitle(title);

  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>{title}</h1>
      {loggedIn ? (
        <AccountShell paymentMethods={hasPaymentGateway(settings.checkout.gateways)}>
          <Outlet />
        </AccountShell>
      ) : handle.public ? (
        <Outlet />
      ) : (
        <AccountAuth redirectTo={pathname} />
      )}
    </div>
  );
}

export function DashboardPage() {
  return <AccountDashboard />;
}

export function OrdersPage() {
  const raw = useParams().page;
  const page = raw === undefined ? 1 : Number(raw);
  if (!Number.isInteger(page) || page < 1) return <NotFoundPage />;
  return <AccountOrders page={page} />;
}

export function ViewOrderPage() {
  return <AccountViewOrder orderId={useParams().orderId ?? ''} />;
}

export function AddressesPage() {
  return <AccountAddresses />;
}

export function EditAddressPage() {
  const type = useParams().type;
  if (type !== 'billing' && type !== 'shipping') return <NotFoundPage />;
  return <EditAddress type={type} />;
}

export function AccountDetailsPage() {
  return <AccountDetails />;
}

export function LostPasswordPage() {
  const [params] = useSearchParams();
  const key = params.get('key');
  const login = params.get('login');
  return key && login ? <ResetPasswordForm resetKey={key} login={login} /> : <LostPasswordForm />;
}
