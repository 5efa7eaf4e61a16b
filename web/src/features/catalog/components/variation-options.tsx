// A variable product's options: each attribute as the shop offers it, swatches of
// colours, pictures or names (radio buttons, so the form works without scripts and
// the keyboard moves between them), or a drop-down ("Choose an option"). A swatch no
// variation offers with the other choices is disabled, one whose variations are sold
// out is struck through, and one whose variation is nearly gone says how many are
// left. "Clear" appears once something is chosen.
import type { VariationRef } from '@/types/store-api';
import type { VariationFormAttribute } from '../api/get-variation-form';
import type { VariationChoiceState } from '../hooks/use-variation-choice';
import { stockLabel, swatchStates, type SwatchState } from '../lib/swatches';
import { availableOptions, type VariationAttribute } from '../lib/variations';
import styles from './variation-options.module.css';

export function VariationOptions({ state, variations }: { state: VariationChoiceState; variations: VariationRef[] }) {
  const { attributes, choice, clear, form } = state;
  const anyChosen = attributes.some((attribute) => (choice[attribute.name] ?? '') !== '');

  return (
    <div className={styles.variations}>
      {attributes.map((attribute) => {
        const offered = form?.attributes.find((candidate) => candidate.field === attribute.fieldName);
        return offered && offered.swatch !== 'select' ? (
          <SwatchGroup key={attribute.name} attribute={attribute} offered={offered} state={state} variations={variations} />
        ) : (
          <OptionSelect key={attribute.name} attribute={attribute} state={state} variations={variations} />
        );
      })}
      {anyChosen && (
        <button type="button" className={`reset_variations ${styles.clear}`} onClick={clear}>
          Clear
        </button>
      )}
    </div>
  );
}

function OptionSelect({ attribute, state, variations }: { attribute: VariationAttribute; state: VariationChoiceState; variations: VariationRef[] }) {
  const { attributes, choice, choose } = state;
  const id = `variation-${attribute.fieldName}`;
  const available = availableOptions(attribute, attributes, variations, choice);
  return (
    <div className={styles.row}>
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
}

function SwatchGroup({
  attribute,
  offered,
  state,
  variations,
}: {
  attribute: VariationAttribute;
  offered: VariationFormAttribute;
  state: VariationChoiceState;
  variations: VariationRef[];
}) {
  const { attributes, choice, choose, form, picked } = state;
  const carried = form && form.variations !== false ? form.variations : null;
  const states = swatchStates(attribute, attributes, variations, choice, carried, picked, form?.stock_label_threshold ?? 0);
  const chosen = attribute.options.find((option) => option.value === (choice[attribute.name] ?? ''));
  return (
    <fieldset className={`${styles.row} ${styles.swatchRow}`} data-swatch={offered.swatch}>
      <legend className={styles.label}>
        {attribute.name}
        {chosen && <span className={styles.chosen}>: {chosen.label}</span>}
      </legend>
      <div className={styles.swatches}>
        {attribute.options.map((option, index) => (
          <Swatch
            key={option.value}
            type={offered.swatch}
            name={attribute.fieldName}
            label={option.label}
            look={offered.options.find((candidate) => candidate.value === option.value)}
            state={states[index]!}
            onChoose={() => choose(attribute.name, option.value)}
          />
        ))}
      </div>
    </fieldset>
  );
}

function Swatch({
  type,
  name,
  label,
  look,
  state,
  onChoose,
}: {
  type: VariationFormAttribute['swatch'];
  name: string;
  label: string;
  look: VariationFormAttribute['options'][number] | undefined;
  state: SwatchState;
  onChoose: () => void;
}) {
  const classes = [
    'swatch',
    styles.swatch,
    styles[type],
    state.selected ? `selected ${styles.selected}` : '',
    state.disabled ? `disabled ${styles.disabled}` : '',
    state.outOfStock ? `no-stock ${styles.noStock}` : '',
  ].join(' ');
  const stockText = state.stockLeft !== null ? stockLabel(state.stockLeft) : null;
  const title = [label, state.outOfStock ? 'Out of stock' : null, stockText].filter(Boolean).join(' – ');
  return (
    <label className={classes} title={title} data-value={state.value}>
      <input
        type="radio"
        className="visually-hidden"
        name={name}
        value={state.value}
        checked={state.selected}
        disabled={state.disabled}
        onChange={onChoose}
      />
      {type === 'color' && <span className={styles.chip} style={{ background: look?.color ?? undefined }} aria-hidden="true" />}
      {type === 'image' &&
        (look?.image ? (
          <img className={styles.picture} src={look.image.thumbnail} alt="" width={40} height={40} loading="lazy" decoding="async" />
        ) : (
          <span className={styles.chip} aria-hidden="true" />
        ))}
      <span className={type === 'label' ? styles.text : 'visually-hidden'}>{label}</span>
      {state.outOfStock && <span className="visually-hidden"> (out of stock)</span>}
      {stockText && (
        <span className={styles.left}>
          <span aria-hidden="true">{state.stockLeft} left</span>
          <span className="visually-hidden"> ({stockText})</span>
        </span>
      )}
    </label>
  );
}
