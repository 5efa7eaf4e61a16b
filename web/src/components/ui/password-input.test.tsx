import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { fireEvent } from '@/test/events';
import { PasswordInput } from './password-input';

describe('a password field', () => {
  it('hides the password until its button shows it, and the button says what it will do', () => {
    render(
      <label>
        Password
        <PasswordInput name="password" defaultValue="Correct-Horse-42" />
      </label>,
    );
    const field = screen.getByLabelText('Password', { selector: 'input' });
    expect(field.getAttribute('type')).toBe('password');
    const button = screen.getByRole('button', { name: 'Show password' });
    expect(button.getAttribute('aria-pressed')).toBeNull();

    fireEvent.click(button);
    expect(field.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toBe(button);

    fireEvent.click(button);
    expect(field.getAttribute('type')).toBe('password');
    expect(button.getAttribute('aria-label')).toBe('Show password');
  });

  it('is a plain button that never submits its form', () => {
    render(<PasswordInput name="password" />);
    expect(screen.getByRole('button', { name: 'Show password' }).getAttribute('type')).toBe('button');
  });
});
