// /my-account for a visitor who is not logged in: "Login" and "Register" side by side.
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';
import styles from './account.module.css';

export function AccountAuth({ redirectTo }: { redirectTo: string }) {
  return (
    <div className={`u-columns col2-set ${styles.authColumns}`} id="customer_login">
      <section className={`u-column1 ${styles.authCard}`} aria-labelledby="login-heading">
        <h2 id="login-heading" className={styles.cardTitle}>
          Login
        </h2>
        <LoginForm redirectTo={redirectTo} />
      </section>
      <section className={`u-column2 ${styles.authCard}`} aria-labelledby="register-heading">
        <h2 id="register-heading" className={styles.cardTitle}>
          Register
        </h2>
        <RegisterForm redirectTo={redirectTo} />
      </section>
    </div>
  );
}
