// One select per variation attribute ("Choose an option"), with options no
// variation offers disabled, and a "Clear" control once something is chosen.
import { availableOptions } from '../lib/variations';
import type { VariationChoiceState } from '../hooks/use-variation-choice';
import type { VariationRef } from '@/types/store-api';
import styles from './variation-selects.module.css';

export function VariationSelects({
  state,
  variations,
}: {
  state: VariationChoiceState;
  variations: VariationRef[];
}) {
  const { attributes, choice, choose, clear } = state;
  const anyChosen = attributes.some((attribute) => (choice[attribute.name] ?? '') !== '');

  return (
    <div className={styles.variations}>
      {attributes.map((attribute) => {
        const id = `variation-${attribute.fieldName}`;
        const available = availableOptions(attribute, attributes, variations, choice);
        return (
          <div key={attribute.name} className={styles.row}>
            <label htmlFor={id} className={styles.label}>
              {attribute.name}
            </label>
            <div className={styles.control}>
              <select
                id={id}
                name={attribute.fieldName}
                className={styles.select}
                value={choice[attribute.name] ?? ''}
                onChange={(event) => choose(attribute.name, event.target.value)}
              >
                <option value="">Choose an option</option>
                {attribute.options.map((option) => (
                  <option key={option.value} value={option.value} disabled={!available.has(option.value)}>
                    {option.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
        );
      })}
      {anyChosen && (
        <button type="button" className={styles.clear} onClick={clear}>
          Clear
        </button>
      )}
    </div>
  );
}
