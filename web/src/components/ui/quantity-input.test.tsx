import { render, screen } from '@testing-library/preact';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { QuantityInput } from './quantity-input';
import { fireEvent, leave, setValue } from '@/test/events';

function Harness({ initial, min, max, onChange = () => {} }: { initial: number; min: number; max?: number; onChange?: (value: number) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <QuantityInput
      label="Beanie quantity"
      value={value}
      min={min}
      max={max}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

const input = () => screen.getByRole('spinbutton', { name: 'Beanie quantity' }) as HTMLInputElement;

describe('the quantity input', () => {
  it('raises a value below the minimum to the minimum when it loads', () => {
    const onChange = vi.fn();
    render(<Harness initial={1} min={3} onChange={onChange} />);
    expect(input().value).toBe('3');
    expect(onChange).toHaveBeenCalledWith(3);
  });

  it('raises a value typed below the minimum when it loses focus', () => {
    render(<Harness initial={3} min={3} max={10} />);
    setValue(input(), '1');
    expect(input().value).toBe('1');
    leave(input());
    expect(input().value).toBe('3');
  });

  it('lowers a value above the maximum when it loses focus', () => {
    render(<Harness initial={2} min={1} max={5} />);
    setValue(input(), '12');
    leave(input());
    expect(input().value).toBe('5');
  });

  it('carries the limits as min and max attributes', () => {
    render(<Harness initial={2} min={1} max={5} />);
    expect(input().min).toBe('1');
    expect(input().max).toBe('5');
  });

  it('steps with the − and + buttons without passing the limits', () => {
    render(<Harness initial={1} min={1} max={2} />);
    const decrease = screen.getByRole('button', { name: 'Decrease Beanie quantity' });
    const increase = screen.getByRole('button', { name: 'Increase Beanie quantity' });
    expect(decrease).toHaveProperty('disabled', true);
    fireEvent.click(increase);
    expect(input().value).toBe('2');
    expect(increase).toHaveProperty('disabled', true);
  });
});
