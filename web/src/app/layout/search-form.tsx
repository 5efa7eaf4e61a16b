// Product search: submits to /shop?s=term, which lists the matching products.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import styles from './search-form.module.css';

export function SearchForm() {
  const id = useId();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const current = searchParams.get('s') ?? '';
  const [term, setTerm] = useState(current);

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
      />
      <button type="submit" className={styles.submit} aria-label="Search">
        <Icon name="search" size={18} />
      </button>
    </form>
  );
}
