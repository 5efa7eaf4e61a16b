// Buttons and button-styled links. A control that does something is a <button>;
// one that goes somewhere is a link, whatever it looks like.
import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from '@/components/ui/link';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface Look {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
}

export function buttonClass({ variant = 'primary', size = 'md', block = false }: Look, extra?: string): string {
  return [styles.button, styles[variant], styles[size], block ? styles.block : '', extra ?? ''].filter(Boolean).join(' ');
}

export function Button({
  variant,
  size,
  block,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & Look) {
  return <button type={type} className={buttonClass({ variant, size, block }, className)} {...props} />;
}

export function ButtonLink({ variant, size, block, className, ...props }: LinkProps & Look) {
  return <Link className={buttonClass({ variant, size, block }, className)} {...props} />;
}

/** A button-styled link that leaves the shop (external products). */
export function ExternalButtonLink({
  variant,
  size,
  block,
  className,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & Look) {
  return <a rel="nofollow noopener" className={buttonClass({ variant, size, block }, className)} {...props} />;
}
