// Product search: submits to /shop?s=term, which lists the matching products. On
// phones, where the footer bar's Search button opened it, Escape folds it away again.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { SEARCH_TOGGLE_ID, setSearchOpen, useSearchOpen } from './search-toggle';
import styles from './search-form.module.css';

export function SearchForm() {
  const id = useId();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const current = searchParams.get('s') ?? '';
  const [term, setTerm] = useState(current);
  const opened = useSearchOpen();

  useEffect(() => setTerm(current), [current]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = term.trim();
    navigate(trimmed ? paths.search(trimmed) : paths.shop());
  }

  return (
    <form role="search" action={paths.shop()} className={styles.form} onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Search products
      </label>
      <input
        id={id}
        type="search"
        name="s"
        className={styles.input}
        placeholder="Search products…"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        autoComplete="off"
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !opened) return;
          // Leaving the field first brings the footer bar back, so its button can take focus.
          event.currentTarget.blur();
          setSearchOpen(false);
          document.getElementById(SEARCH_TOGGLE_ID)?.focus();
        }}
      />
      <button type="submit" className={styles.submit} aria-label="Search">
        <Icon name="search" size={18} />
      </button>
    </form>
  );
}
