// The round × that removes a cart line, in the mini-cart and on the cart page.
import { Icon } from '@/components/ui/icon';
import styles from './remove-item-button.module.css';

type Props = {
  name: string;
  onClick: () => void;
  disabled: boolean;
  /** Placement and size (`--remove-size`) from the surrounding layout. */
  className?: string;
  /** Inside the cart form: the line's key, sent as `remove_item` when scripts are off. */
  itemKey?: string;
};

export function RemoveItemButton({ name, onClick, disabled, className, itemKey }: Props) {
  return (
    <button
      {...(itemKey === undefined ? { type: 'button' as const } : { type: 'submit' as const, name: 'remove_item', value: itemKey })}
      className={className ? `${styles.remove} ${className}` : styles.remove}
      aria-label={`Remove ${name} from cart`}
      onClick={onClick}
      disabled={disabled}
    >
      <Icon name="close" size={16} />
    </button>
  );
}
