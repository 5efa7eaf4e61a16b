// The "Additional information" table: weight, dimensions and the product's
// visible attributes, from the server's rows when it sends them.
import { htmlToText } from '@/lib/html-text';
import type { Product } from '@/types/store-api';
import styles from './additional-information.module.css';

const NUMBER = /^\d+(\.\d+)?$/;

/** Bare numbers are in the shop's default units (kg, cm); text with a unit is shown as sent. */
function withUnit(value: string, unit: string): string {
  return NUMBER.test(value.trim()) ? `${value.trim()} ${unit}` : value;
}

export function additionalInformationRows(product: Product): [string, string][] {
  // The server's own rows, when it sends them, already hold weight, dimensions and attributes.
  if (product.additional_information) {
    return product.additional_information.map((row) => [htmlToText(row.label), htmlToText(row.value)]);
  }
  const rows: [string, string][] = [];
  if (product.weight) rows.push(['Weight', withUnit(product.weight, 'kg')]);
  const dimensions = product.dimensions;
  if (dimensions && (dimensions.length || dimensions.width || dimensions.height)) {
    const parts = [dimensions.length, dimensions.width, dimensions.height].filter(Boolean);
    const joined = parts.join(' \u00d7 ');
    rows.push(['Dimensions', parts.every((part) => NUMBER.test(part)) ? `${joined} cm` : joined]);
  }
  for (const attribute of product.attributes) {
    const values = attribute.terms.map((term) => htmlToText(term.name)).join(', ');
    if (values) rows.push([htmlToText(attribute.name), values]);
  }
  return rows;
}

export function AdditionalInformation({ rows }: { rows: [string, string][] }) {
  return (
    <table className={styles.table}>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
